-- The projection's tables (DuckDB). Facts come from the engine's replay (analytics/facts.py);
-- the statistics (stats.sql) only aggregate them.
--
-- Money is exact (RULES 1.2). Every amount is a BIGINT count of *ticks* (columns ending in _t),
-- 1/den stake units, with den the session's 2 x ante denominator (den = 2 for the default ante
-- of 1). Levels are whole units and a blind player pays half a level (RULES 5.3, 5.5), so every
-- amount of a session is a whole number of ticks: no rounding anywhere. DECIMAL(18,6) would be
-- exact for halves but not for an ante of 1/3 (ticks of 1/6); ticks plus den are exact for any
-- ante. Sums over sessions use a common denominator: the statistics take the least common
-- multiple of the dens as the bound parameter $den and add net_t * ($den // den).

-- name: create_tables
-- The few-valued text columns are ENUMs: stored and compared as small integers, read as text.
CREATE TYPE first_action_kind AS ENUM ('blind', 'seen');
CREATE TYPE role_kind AS ENUM ('payer', 'seen');
CREATE TYPE left_kind AS ENUM (
    'folded', 'won_uncontested', 'paid_to_see', 'was_seen', 'carried', 'retained'
);
CREATE TYPE result_kind AS ENUM ('won', 'carried');
CREATE TYPE decision_kind AS ENUM (
    'look', 'bet', 'see', 'fold', 'concede', 'retain', 'keep', 'throw'
);
CREATE TABLE IF NOT EXISTS meta (
    key VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS checkpoint (
    id INTEGER PRIMARY KEY,
    position BIGINT NOT NULL,
    events BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    position BIGINT NOT NULL,
    session VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    type VARCHAR NOT NULL,
    derived BOOLEAN NOT NULL,
    deal INTEGER NOT NULL,
    player VARCHAR,
    level INTEGER,
    amount_t BIGINT,
    den INTEGER NOT NULL,
    hand VARCHAR,
    voids_seq INTEGER
);
CREATE TABLE IF NOT EXISTS deals (
    session VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    dealer VARCHAR NOT NULL,
    dealer_seat INTEGER NOT NULL,
    players INTEGER NOT NULL,
    den INTEGER NOT NULL,
    pot_t BIGINT NOT NULL,
    carried_in_t BIGINT NOT NULL,
    result result_kind NOT NULL,
    winner VARCHAR,
    showdown BOOLEAN NOT NULL,
    payer VARCHAR,
    seen_player VARCHAR,
    winning_category VARCHAR,
    winning_strength INTEGER,
    winning_cards VARCHAR,
    carried_by VARCHAR,
    retained BOOLEAN,
    actions INTEGER NOT NULL,
    bets INTEGER NOT NULL,
    raises INTEGER NOT NULL,
    final_level INTEGER,
    events INTEGER NOT NULL,
    end_position BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS player_deals (
    session VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    is_dealer BOOLEAN NOT NULL,
    den INTEGER NOT NULL,
    two_hands BOOLEAN NOT NULL,
    first_action first_action_kind,
    looked_turn INTEGER,
    bets INTEGER NOT NULL,
    blind_bets INTEGER NOT NULL,
    raises INTEGER NOT NULL,
    actions INTEGER NOT NULL,
    see_chances INTEGER NOT NULL,
    saw BOOLEAN NOT NULL,
    role role_kind,
    paid_t BIGINT NOT NULL,
    won_t BIGINT NOT NULL,
    net_t BIGINT NOT NULL,
    luck_t BIGINT,
    adjusted_net_t BIGINT,
    won BOOLEAN NOT NULL,
    left_how left_kind NOT NULL,
    hand_cards VARCHAR,
    hand_category VARCHAR,
    hand_strength INTEGER,
    hand_beats INTEGER,
    hand_wins INTEGER,
    hand_ties INTEGER,
    hand_losses INTEGER,
    player_key VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    session VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    step INTEGER NOT NULL,
    position BIGINT NOT NULL,
    player VARCHAR NOT NULL,
    action decision_kind NOT NULL,
    table_name VARCHAR,
    cards_mode VARCHAR NOT NULL,
    seat INTEGER NOT NULL,
    phase VARCHAR NOT NULL,
    players_in INTEGER NOT NULL,
    blind_in INTEGER NOT NULL,
    seen_in INTEGER NOT NULL,
    actor_seen BOOLEAN NOT NULL,
    opponents_blind INTEGER NOT NULL,
    opponents_seen INTEGER NOT NULL,
    two_hands BOOLEAN NOT NULL,
    level INTEGER,
    den INTEGER NOT NULL,
    pot_t BIGINT NOT NULL,
    see_cost_t BIGINT,
    options VARCHAR NOT NULL,
    hand VARCHAR,
    bet_level INTEGER,
    cost_t BIGINT NOT NULL,
    player_key VARCHAR NOT NULL,
    hand_category VARCHAR,
    net_t BIGINT NOT NULL,
    won BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS player_session_summary (
    session VARCHAR NOT NULL,
    player VARCHAR NOT NULL,
    player_key VARCHAR NOT NULL,
    den INTEGER NOT NULL,
    first_deals BIGINT NOT NULL,
    deals BIGINT NOT NULL,
    net_t BIGINT NOT NULL,
    pots_won BIGINT NOT NULL,
    pots_won_showdown BIGINT NOT NULL,
    pots_won_uncontested BIGINT NOT NULL,
    blind_first BIGINT NOT NULL,
    acted BIGINT NOT NULL,
    blind_bets BIGINT NOT NULL,
    deals_with_bet BIGINT NOT NULL,
    bets BIGINT NOT NULL,
    raises BIGINT NOT NULL,
    see_chances BIGINT NOT NULL,
    sees BIGINT NOT NULL,
    payer_showdowns BIGINT NOT NULL,
    payer_wins BIGINT NOT NULL,
    seen_showdowns BIGINT NOT NULL,
    seen_wins BIGINT NOT NULL,
    carried_caused BIGINT NOT NULL,
    biggest_pot_t BIGINT,
    luck_deals BIGINT NOT NULL,
    luck_net_t BIGINT,
    adjusted_net_t BIGINT
);
CREATE TABLE IF NOT EXISTS sessions (
    session VARCHAR PRIMARY KEY,
    table_name VARCHAR,
    cards VARCHAR NOT NULL,
    players INTEGER NOT NULL,
    den INTEGER NOT NULL,
    ante_t BIGINT NOT NULL,
    pots_rule INTEGER NOT NULL,
    blind_play BOOLEAN NOT NULL,
    phase VARCHAR NOT NULL,
    deals INTEGER NOT NULL,
    deals_projected INTEGER NOT NULL,
    resolved INTEGER NOT NULL,
    carried INTEGER NOT NULL,
    finished BOOLEAN NOT NULL,
    pot_t BIGINT NOT NULL,
    last_seq INTEGER NOT NULL,
    last_position BIGINT NOT NULL,
    started VARCHAR,
    month VARCHAR,
    table_key VARCHAR
);
CREATE TABLE IF NOT EXISTS session_players (
    session VARCHAR NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    den INTEGER NOT NULL,
    paid_t BIGINT NOT NULL,
    won_t BIGINT NOT NULL,
    net_t BIGINT NOT NULL,
    winner BOOLEAN,
    winners INTEGER,
    player_key VARCHAR NOT NULL,
    PRIMARY KEY (session, seat)
);
CREATE TABLE IF NOT EXISTS hand_categories (
    category VARCHAR PRIMARY KEY,
    rank INTEGER NOT NULL,
    hands INTEGER NOT NULL
);
-- One name, one player (docs/format.md "Choices where RULES.md is silent"): player_key and
-- table_key are the names' normal form (events.text.normal: Ann, ann and a Cyrillic look-alike
-- are one player). Each key is shown under the spelling seated in the most sessions, then the
-- one first started, then the one first stored.
CREATE VIEW IF NOT EXISTS player_names AS
SELECT player_key, player FROM (
    SELECT sp.player_key, sp.player,
           row_number() OVER (PARTITION BY sp.player_key
                              ORDER BY count(*) DESC, min(s.started) NULLS LAST,
                                       min(s.last_position), sp.player) AS k
    FROM session_players sp JOIN sessions s USING (session)
    GROUP BY sp.player_key, sp.player
) WHERE k = 1;
CREATE VIEW IF NOT EXISTS table_names AS
SELECT table_key, table_name FROM (
    SELECT table_key, table_name,
           row_number() OVER (PARTITION BY table_key
                              ORDER BY count(*) DESC, min(started) NULLS LAST,
                                       min(last_position), table_name) AS k
    FROM sessions
    WHERE table_key IS NOT NULL
    GROUP BY table_key, table_name
) WHERE k = 1;

-- name: comment_columns
COMMENT ON COLUMN player_deals.player_key IS 'The player''s name in its normal form (events.text.normal): one key, one player across sessions.';
COMMENT ON COLUMN player_session_summary.player_key IS 'The player''s name in its normal form (events.text.normal).';
COMMENT ON COLUMN session_players.player_key IS 'The player''s name in its normal form (events.text.normal).';
COMMENT ON COLUMN sessions.table_key IS 'The table''s name in its normal form (events.text.normal); NULL without a table.';
-- The keys and scales every fact table shares (issue 20: no column without a meaning).
COMMENT ON COLUMN events.session IS 'The session id (session_started.session): one stream, one session.';
COMMENT ON COLUMN events.player IS 'The player the event names (who bet, looked, folded, saw, showed, won), as written in the log; NULL for an event of no player (dealt, shuffled).';
COMMENT ON COLUMN deals.session IS 'The session id (session_started.session).';
COMMENT ON COLUMN deals.deal IS 'The deal''s number in its session, from 1 (as brag replay and the Replay page number it).';
COMMENT ON COLUMN deals.dealer_seat IS 'The dealer''s seat: 0 = the first name of session_started.seats, then clockwise (RULES 1.3, 3.1).';
COMMENT ON COLUMN deals.den IS 'Ticks per stake unit in this session (2 x the ante''s denominator): an amount_t is amount_t / den stake units (RULES 1.2).';
COMMENT ON COLUMN deals.winner IS 'The player who took the pot (RULES 5.6, 5.9); NULL for a carried pot (RULES 6.1).';
COMMENT ON COLUMN deals.winning_cards IS 'The winning hand''s three cards as shown at the showdown (RULES 3.5, 5.8); NULL without a showdown.';
COMMENT ON COLUMN deals.bets IS 'Bets made in the deal by all players (RULES 5.4; a see is not a bet).';
COMMENT ON COLUMN player_deals.session IS 'The session id (session_started.session).';
COMMENT ON COLUMN player_deals.deal IS 'The deal''s number in its session, from 1 (deals.deal).';
COMMENT ON COLUMN player_deals.seat IS 'The player''s seat: 0 = the first name of session_started.seats, then clockwise (RULES 1.3).';
COMMENT ON COLUMN player_deals.player IS 'The player''s name as seated in this session (player_key joins the spellings of one player).';
COMMENT ON COLUMN player_deals.is_dealer IS 'The player dealt this deal (RULES 3.1: the dealer passes to the left after each deal).';
COMMENT ON COLUMN player_deals.den IS 'Ticks per stake unit in this session (2 x the ante''s denominator): net_t / den is the net in stake units (RULES 1.2).';
COMMENT ON COLUMN player_deals.won IS 'The player took this pot (RULES 5.6, 5.9); false for a carried pot.';
COMMENT ON COLUMN player_session_summary.session IS 'The session id.';
COMMENT ON COLUMN player_session_summary.player IS 'The player''s name as seated in the session.';
COMMENT ON COLUMN player_session_summary.den IS 'Ticks per stake unit in the session (RULES 1.2).';
COMMENT ON COLUMN player_session_summary.deals IS 'Ended deals the player was dealt into (rows of player_deals).';
COMMENT ON COLUMN player_session_summary.pots_won IS 'Deals won (player_deals.won).';
COMMENT ON COLUMN player_session_summary.pots_won_showdown IS 'Deals won at a showdown (RULES 5.8, 5.9).';
COMMENT ON COLUMN player_session_summary.pots_won_uncontested IS 'Deals won when every other player folded (RULES 5.6).';
COMMENT ON COLUMN player_session_summary.blind_first IS 'Deals whose first betting action was made blind (RULES 5.1).';
COMMENT ON COLUMN player_session_summary.blind_bets IS 'sum(player_deals.blind_bets): bets made blind (RULES 5.3).';
COMMENT ON COLUMN player_session_summary.deals_with_bet IS 'Deals with at least one bet by the player.';
COMMENT ON COLUMN player_session_summary.bets IS 'sum(player_deals.bets).';
COMMENT ON COLUMN player_session_summary.raises IS 'sum(player_deals.raises) (RULES 5.5).';
COMMENT ON COLUMN player_session_summary.see_chances IS 'sum(player_deals.see_chances) (RULES 5.7).';
COMMENT ON COLUMN player_session_summary.sees IS 'Deals in which the player paid to see (RULES 5.7).';
COMMENT ON COLUMN player_session_summary.payer_showdowns IS 'Showdowns at which the player paid to see (RULES 5.8).';
COMMENT ON COLUMN player_session_summary.payer_wins IS 'Of those, the ones the player won.';
COMMENT ON COLUMN player_session_summary.seen_showdowns IS 'Showdowns at which the player was seen (RULES 5.8).';
COMMENT ON COLUMN player_session_summary.seen_wins IS 'Of those, the ones the player won.';
COMMENT ON COLUMN player_session_summary.carried_caused IS 'Deals the player survived blind, so the pot was carried (RULES 6.1).';
COMMENT ON COLUMN sessions.session IS 'The session id (session_started.session).';
COMMENT ON COLUMN sessions.table_name IS 'The table as recorded (session_started.table); NULL when none was.';
COMMENT ON COLUMN sessions.cards IS 'all (every card recorded: a digital table or a simulation) or shown (only cards shown at a showdown: a real table).';
COMMENT ON COLUMN sessions.players IS 'Players seated (RULES 1.3).';
COMMENT ON COLUMN sessions.den IS 'Ticks per stake unit in this session (2 x the ante''s denominator, RULES 1.2).';
COMMENT ON COLUMN sessions.ante_t IS 'The ante each player pays every deal (RULES 4.1), in ticks.';
COMMENT ON COLUMN sessions.pots_rule IS 'Resolved pots that end the session (RULES 1.4; 8 unless the log sets another).';
COMMENT ON COLUMN sessions.blind_play IS 'Blind play allowed (RULES 5.1); when off, every player looks before acting.';
COMMENT ON COLUMN sessions.phase IS 'Where the session stands: new, between (deals), betting, showdown, carried or over (RULES 1.4).';
COMMENT ON COLUMN sessions.deals IS 'Deals dealt so far, the one in play included.';
COMMENT ON COLUMN sessions.deals_projected IS 'Deals ended and written to deals and player_deals.';
COMMENT ON COLUMN sessions.resolved IS 'Pots resolved (won) so far (RULES 1.4).';
COMMENT ON COLUMN sessions.carried IS 'Pots carried so far (RULES 6.1).';
COMMENT ON COLUMN sessions.finished IS 'The session is over: its last pot is resolved (RULES 1.4).';
COMMENT ON COLUMN sessions.pot_t IS 'The pot on the table now, in ticks (0 between deals unless carried).';
COMMENT ON COLUMN sessions.last_seq IS 'The seq of the last projected event of the session.';
COMMENT ON COLUMN sessions.last_position IS 'The store''s global position of that event.';
COMMENT ON COLUMN session_players.session IS 'The session id.';
COMMENT ON COLUMN session_players.seat IS 'The seat: 0 = the first name of session_started.seats, then clockwise (RULES 1.3).';
COMMENT ON COLUMN session_players.player IS 'The name seated there, as written in the log.';
COMMENT ON COLUMN session_players.den IS 'Ticks per stake unit in this session (RULES 1.2).';
COMMENT ON COLUMN session_players.paid_t IS 'Paid into the pots so far: antes, bets, sees (ticks).';
COMMENT ON COLUMN session_players.won_t IS 'Pots taken so far (ticks).';
COMMENT ON COLUMN session_players.net_t IS 'won_t - paid_t: the net of RULES 1.5 (with the pot on the table, nets sum to 0).';
COMMENT ON COLUMN hand_categories.category IS 'The RULES 2.2 category (prial, running flush, run, flush, pair, high card).';
COMMENT ON COLUMN hand_categories.rank IS 'The category''s order, larger is better (RULES 2.2).';
COMMENT ON COLUMN hand_categories.hands IS 'Three-card hands of the category out of the 22,100 (RULES 2.8).';
COMMENT ON TABLE events IS 'One row per event of the store, in global position order (voided events stay: the log keeps both).';
COMMENT ON COLUMN events.position IS 'The store''s global position (may have holes).';
COMMENT ON COLUMN events.seq IS 'Position in the session''s stream, from 1.';
COMMENT ON COLUMN events.type IS 'FORMAT.md event type.';
COMMENT ON COLUMN events.derived IS 'An engine conclusion (pot_won, pot_carried, session_ended).';
COMMENT ON COLUMN events.deal IS 'Deals dealt so far in the session when this event applied (0 before the first).';
COMMENT ON COLUMN events.level IS 'For a bet: the level after it, in whole seen units (RULES 5.3).';
COMMENT ON COLUMN events.amount_t IS 'Ticks paid by a bet or see, or the pot won or carried.';
COMMENT ON COLUMN events.den IS 'Ticks per stake unit for the session (2 x ante denominator).';
COMMENT ON COLUMN events.hand IS 'old/new: the hand named by a looked or retained event (RULES 6.4, 6.7).';
COMMENT ON COLUMN events.voids_seq IS 'For voided: the seq of the recorded event withdrawn.';
COMMENT ON TABLE deals IS 'One row per ended deal: resolved (RULES 5.6, 5.9) or carried (RULES 6.1).';
COMMENT ON COLUMN deals.dealer IS 'The dealer (RULES 3.1).';
COMMENT ON COLUMN deals.players IS 'Players seated, all of whom ante and are dealt (RULES 3.4, 4.1).';
COMMENT ON COLUMN deals.pot_t IS 'The pot when the deal ended, carried-in pot included, in ticks.';
COMMENT ON COLUMN deals.carried_in_t IS 'The pot carried into this deal (RULES 6.3), in ticks.';
COMMENT ON COLUMN deals.result IS 'won or carried.';
COMMENT ON COLUMN deals.showdown IS 'Won at a showdown after a see (RULES 5.8).';
COMMENT ON COLUMN deals.payer IS 'At a showdown, the player who paid to see (RULES 5.7).';
COMMENT ON COLUMN deals.seen_player IS 'At a showdown, the payer''s opponent, who shows first (RULES 5.8).';
COMMENT ON COLUMN deals.winning_category IS 'RULES 2.2 category of the winning hand at a showdown.';
COMMENT ON COLUMN deals.winning_strength IS 'The engine''s strength key of the winning hand (larger is better).';
COMMENT ON COLUMN deals.carried_by IS 'The blind survivor whose pot was carried (RULES 6.1).';
COMMENT ON COLUMN deals.retained IS 'For a carried pot: the survivor kept the unseen hand (RULES 6.2).';
COMMENT ON COLUMN deals.actions IS 'Betting actions in the deal: bets, folds and the see (the deal''s length).';
COMMENT ON COLUMN deals.raises IS 'Bets that raised the level (RULES 5.5).';
COMMENT ON COLUMN deals.final_level IS 'The level when the deal ended (NULL if nobody bet).';
COMMENT ON COLUMN deals.events IS 'Events from dealt to the one that ended the deal.';
COMMENT ON COLUMN deals.end_position IS 'Global position of the event that ended the deal.';
COMMENT ON TABLE player_deals IS 'One row per player per ended deal.';
COMMENT ON COLUMN player_deals.two_hands IS 'Held a retained hand beside the new one (RULES 6.3).';
COMMENT ON COLUMN player_deals.first_action IS 'blind or seen at the player''s first betting action (bet, fold or see; RULES 5.1); NULL if they never acted.';
COMMENT ON COLUMN player_deals.looked_turn IS 'Own betting actions made before becoming seen: 0 = looked before acting (or blind play is off); NULL = never looked (RULES 5.1, 6.4).';
COMMENT ON COLUMN player_deals.bets IS 'Bets made (RULES 5.4; a see is not a bet).';
COMMENT ON COLUMN player_deals.blind_bets IS 'Bets made while blind, i.e. before looking (RULES 5.3).';
COMMENT ON COLUMN player_deals.raises IS 'Bets that raised the level (RULES 5.5); the opening bet is not a raise.';
COMMENT ON COLUMN player_deals.actions IS 'Betting actions: bets, the fold, the see.';
COMMENT ON COLUMN player_deals.see_chances IS 'Turns on which the player could see: two left, a level set, not seen against blind (RULES 5.7).';
COMMENT ON COLUMN player_deals.saw IS 'Paid to see (RULES 5.7).';
COMMENT ON COLUMN player_deals.role IS 'payer or seen at a showdown (RULES 5.8).';
COMMENT ON COLUMN player_deals.paid_t IS 'Paid into this pot: ante, bets, see (ticks).';
COMMENT ON COLUMN player_deals.won_t IS 'The pot taken, if the player won it (ticks).';
COMMENT ON COLUMN player_deals.net_t IS 'won_t - paid_t; summed over a session it is the net of RULES 1.5.';
COMMENT ON COLUMN player_deals.luck_t IS 'The luck term (docs/luck.md, analytics/luck.py), ticks: the baseline value of the rank of the player''s new hand among the deal''s new hands, expected value exactly 0 whatever the players do; 0 for a deal with a card dealt before since the last shuffle (RULES 3.2, 3.3); NULL where not defined (a cards: shown session, or hands the log does not hold) and, until the session ends, for a deal dealt since the last shuffle (it is shown only as a spectator saw it, issue 33.1: docs/luck.md). The terms of a deal sum to 0.';
COMMENT ON COLUMN player_deals.adjusted_net_t IS 'net_t - luck_t: the luck-adjusted net (docs/luck.md), ticks, same mean as net_t with less spread; NULL where luck_t is.';
COMMENT ON COLUMN player_deals.left_how IS 'folded, won_uncontested, paid_to_see, was_seen, carried (blind survivor, hand given up) or retained (blind survivor kept the hand).';
COMMENT ON COLUMN player_deals.hand_cards IS 'The three cards shown at the showdown (RULES 3.5), in the order shown.';
COMMENT ON COLUMN player_deals.hand_category IS 'RULES 2.2 category of the shown hand.';
COMMENT ON COLUMN player_deals.hand_strength IS 'The engine''s strength key of the shown hand.';
COMMENT ON COLUMN player_deals.hand_beats IS 'Of all 22,100 hands, how many the shown hand beats strictly.';
COMMENT ON COLUMN player_deals.hand_wins IS 'Of the 18,424 hands from the other 49 cards, how many it beats strictly (heads-up win chance = hand_wins / 18424).';
COMMENT ON COLUMN player_deals.hand_ties IS 'Of those 18,424, how many are equal (RULES 2.7).';
COMMENT ON COLUMN player_deals.hand_losses IS 'Of those 18,424, how many beat it.';
COMMENT ON TABLE decisions IS 'One row per recorded decision in force (look, bet, see, fold, concede, retain, keep, throw), with its context as the engine saw it just before (analytics.facts.decision_context) and what followed; written with its deal''s rows when the deal ends; a withdrawn (voided) decision is no row.';
COMMENT ON COLUMN decisions.session IS 'The session id (session_started.session).';
COMMENT ON COLUMN decisions.deal IS 'The deal, from 1 (as in deals and player_deals).';
COMMENT ON COLUMN decisions.seq IS 'The decision''s seq in the session''s stream (events.seq).';
COMMENT ON COLUMN decisions.step IS 'Its step in the deal as brag replay and the Replay page number it (present.narrate.step_in_deal): replay?session=S&deal=D&step=K lands on it.';
COMMENT ON COLUMN decisions.position IS 'The store''s global position of the decision''s event.';
COMMENT ON COLUMN decisions.player IS 'Who decided, as seated (RULES 1.3).';
COMMENT ON COLUMN decisions.action IS 'look (looked, RULES 5.1, 6.4), bet (5.3-5.5), see (saw, 5.7), fold (folded, 5.6), concede (conceded, 5.8), retain (retained, 6.2), keep or throw (kept, thrown, 6.4).';
COMMENT ON COLUMN decisions.table_name IS 'The session''s table (session_started.table); NULL when none was recorded.';
COMMENT ON COLUMN decisions.cards_mode IS 'all (every card known) or shown (only the cards shown at a showdown, RULES 3.5).';
COMMENT ON COLUMN decisions.seat IS 'The decider''s seat, 0-based clockwise as seated (RULES 1.3).';
COMMENT ON COLUMN decisions.phase IS 'betting, showdown (after a see, RULES 5.8, 6.6) or carried (a blind survivor''s choice, RULES 6.1-6.2) before the decision.';
COMMENT ON COLUMN decisions.players_in IS 'Players still in the deal (not folded, RULES 5.6) before the decision, the decider included.';
COMMENT ON COLUMN decisions.blind_in IS 'Of players_in, how many blind (not looked, RULES 5.1).';
COMMENT ON COLUMN decisions.seen_in IS 'Of players_in, how many seen (RULES 5.1).';
COMMENT ON COLUMN decisions.actor_seen IS 'The decider was seen before the decision (RULES 5.1; a look makes the next decision seen).';
COMMENT ON COLUMN decisions.opponents_blind IS 'Players in other than the decider who are blind (RULES 5.1).';
COMMENT ON COLUMN decisions.opponents_seen IS 'Players in other than the decider who are seen (RULES 5.1).';
COMMENT ON COLUMN decisions.two_hands IS 'The decider held a retained hand beside the new one (RULES 6.3-6.5).';
COMMENT ON COLUMN decisions.level IS 'The level before the decision, whole stake units (RULES 5.5); NULL before the first bet.';
COMMENT ON COLUMN decisions.den IS 'Ticks per stake unit for the session (2 x ante denominator).';
COMMENT ON COLUMN decisions.pot_t IS 'The pot before the decision, carried-in pot included (RULES 4.1, 6.3), ticks.';
COMMENT ON COLUMN decisions.see_cost_t IS 'What a see would cost the decider now (RULES 5.7: the level when blind, twice it when seen), ticks; NULL when seeing is not one of the options.';
COMMENT ON COLUMN decisions.options IS 'The decider''s legal options before it (engine.legal.legal_actions), | between them in its order, costs in ticks: look, look old|look new, bet LO..HI:CLO..CHI (levels, then their costs; bet 4:8 for one level), fold, see:COST, show, concede, keep, throw, retain (retain old|retain new), give_up (the hand goes under at the next deal, RULES 6.2).';
COMMENT ON COLUMN decisions.hand IS 'old or new: the one of two hands a look, keep, throw or retain concerns (RULES 6.4, 6.7); NULL otherwise.';
COMMENT ON COLUMN decisions.bet_level IS 'For a bet: the level it sets, whole stake units (RULES 5.5; above level it raises); NULL otherwise.';
COMMENT ON COLUMN decisions.cost_t IS 'What this decision paid into the pot (a bet, RULES 5.3; a see, RULES 5.7; 0 otherwise), ticks.';
COMMENT ON COLUMN decisions.hand_category IS 'RULES 2.2 category of the hand decided with, where the log knows it: the dealt hand at a cards: all table, else the hand shown at the showdown (RULES 3.5); NULL for a holder of two hands (but for the one a look, keep, throw or retain names), for an unshown hand at a cards: shown table, for a retained hand (still in play, RULES 6.2), and, until the session ends, for a hand not shown of a deal dealt since the last shuffle (issue 33.1: only what a spectator saw).';
COMMENT ON COLUMN decisions.net_t IS 'What followed: the decider''s net in the deal, won_t - paid_t of player_deals, ticks.';
COMMENT ON COLUMN decisions.won IS 'What followed: the decider won the deal''s pot (RULES 5.6, 5.9).';
COMMENT ON COLUMN decisions.player_key IS 'The player''s name in its normal form (events.text.normal): one key, one player across sessions.';
COMMENT ON TABLE player_session_summary IS 'One row per (session, player) with ended deals: counts and tick sums of player_deals, re-aggregated by the projector for every session a batch changes (same transaction). player_stats reads it.';
COMMENT ON COLUMN player_session_summary.first_deals IS 'Rows for deal 1 (1 when the player has any ended deal in the session).';
COMMENT ON COLUMN player_session_summary.net_t IS 'sum(player_deals.net_t), ticks of the session''s den.';
COMMENT ON COLUMN player_session_summary.acted IS 'Deals with a first betting action (first_action not NULL).';
COMMENT ON COLUMN player_session_summary.biggest_pot_t IS 'max(won_t) over the deals the player won (NULL if none), ticks.';
COMMENT ON COLUMN player_session_summary.luck_deals IS 'Deals whose luck term is defined (luck_t not NULL: cards: all sessions).';
COMMENT ON COLUMN player_session_summary.luck_net_t IS 'sum(net_t) over those deals (NULL if none), ticks.';
COMMENT ON COLUMN player_session_summary.adjusted_net_t IS 'sum(adjusted_net_t) over those deals (NULL if none), ticks (docs/luck.md).';
COMMENT ON TABLE sessions IS 'Each session as the engine sees it after the last projected event.';
COMMENT ON COLUMN sessions.started IS 'The at of session_started as recorded (ISO 8601 with its offset; NULL for a log without times).';
COMMENT ON COLUMN sessions.month IS 'YYYY-MM of started in its own offset (the local calendar month); NULL without a time.';
COMMENT ON TABLE session_players IS 'Each seat''s standing after the last projected event: the engine''s nets (RULES 1.5), open deal included.';
COMMENT ON COLUMN session_players.winner IS 'Once the session is over: the engine names the player a winner, with the highest net (RULES 1.5).';
COMMENT ON COLUMN session_players.winners IS 'Once the session is over: how many players share the win (RULES 1.5: exactly equal highest nets).';
COMMENT ON TABLE hand_categories IS 'RULES 2.8: hands of each category out of 22,100, counted by the engine''s ranking.';
COMMENT ON TABLE checkpoint IS 'The last global position applied; written in the same transaction as the rows.';

-- name: drop_tables
DROP VIEW IF EXISTS player_names;
DROP VIEW IF EXISTS table_names;
DROP TABLE IF EXISTS events;
DROP TABLE IF EXISTS deals;
DROP TABLE IF EXISTS player_deals;
DROP TABLE IF EXISTS decisions;
DROP TABLE IF EXISTS player_session_summary;
DROP TABLE IF EXISTS sessions;
DROP TABLE IF EXISTS session_players;
DROP TABLE IF EXISTS hand_categories;
DROP TABLE IF EXISTS checkpoint;
DROP TABLE IF EXISTS meta;
DROP TYPE IF EXISTS first_action_kind;
DROP TYPE IF EXISTS role_kind;
DROP TYPE IF EXISTS left_kind;
DROP TYPE IF EXISTS result_kind;
DROP TYPE IF EXISTS decision_kind;

-- name: insert_events
INSERT INTO events
SELECT unnest($position::BIGINT[]), unnest($session::VARCHAR[]), unnest($seq::INTEGER[]),
       unnest($type::VARCHAR[]), unnest($derived::BOOLEAN[]), unnest($deal::INTEGER[]),
       unnest($player::VARCHAR[]), unnest($level::INTEGER[]), unnest($amount_t::BIGINT[]),
       unnest($den::INTEGER[]), unnest($hand::VARCHAR[]), unnest($voids_seq::INTEGER[]);

-- name: insert_deals
INSERT INTO deals
SELECT unnest($session::VARCHAR[]), unnest($deal::INTEGER[]), unnest($dealer::VARCHAR[]),
       unnest($dealer_seat::INTEGER[]), unnest($players::INTEGER[]), unnest($den::INTEGER[]),
       unnest($pot_t::BIGINT[]), unnest($carried_in_t::BIGINT[]), unnest($result::result_kind[]),
       unnest($winner::VARCHAR[]), unnest($showdown::BOOLEAN[]), unnest($payer::VARCHAR[]),
       unnest($seen_player::VARCHAR[]), unnest($winning_category::VARCHAR[]),
       unnest($winning_strength::INTEGER[]), unnest($winning_cards::VARCHAR[]),
       unnest($carried_by::VARCHAR[]), unnest($retained::BOOLEAN[]), unnest($actions::INTEGER[]),
       unnest($bets::INTEGER[]), unnest($raises::INTEGER[]), unnest($final_level::INTEGER[]),
       unnest($events::INTEGER[]), unnest($end_position::BIGINT[]);

-- name: insert_player_deals
INSERT INTO player_deals
SELECT unnest($session::VARCHAR[]), unnest($deal::INTEGER[]), unnest($seat::INTEGER[]),
       unnest($player::VARCHAR[]), unnest($is_dealer::BOOLEAN[]), unnest($den::INTEGER[]),
       unnest($two_hands::BOOLEAN[]), unnest($first_action::first_action_kind[]),
       unnest($looked_turn::INTEGER[]), unnest($bets::INTEGER[]), unnest($blind_bets::INTEGER[]),
       unnest($raises::INTEGER[]), unnest($actions::INTEGER[]), unnest($see_chances::INTEGER[]),
       unnest($saw::BOOLEAN[]), unnest($role::role_kind[]), unnest($paid_t::BIGINT[]),
       unnest($won_t::BIGINT[]), unnest($net_t::BIGINT[]), unnest($luck_t::BIGINT[]),
       unnest($adjusted_net_t::BIGINT[]), unnest($won::BOOLEAN[]),
       unnest($left_how::left_kind[]), unnest($hand_cards::VARCHAR[]),
       unnest($hand_category::VARCHAR[]), unnest($hand_strength::INTEGER[]),
       unnest($hand_beats::INTEGER[]), unnest($hand_wins::INTEGER[]), unnest($hand_ties::INTEGER[]),
       unnest($hand_losses::INTEGER[]), unnest($player_key::VARCHAR[]);

-- name: insert_decisions
INSERT INTO decisions
SELECT unnest($session::VARCHAR[]), unnest($deal::INTEGER[]), unnest($seq::INTEGER[]),
       unnest($step::INTEGER[]), unnest($position::BIGINT[]), unnest($player::VARCHAR[]),
       unnest($action::decision_kind[]), unnest($table_name::VARCHAR[]),
       unnest($cards_mode::VARCHAR[]), unnest($seat::INTEGER[]), unnest($phase::VARCHAR[]),
       unnest($players_in::INTEGER[]), unnest($blind_in::INTEGER[]), unnest($seen_in::INTEGER[]),
       unnest($actor_seen::BOOLEAN[]), unnest($opponents_blind::INTEGER[]),
       unnest($opponents_seen::INTEGER[]), unnest($two_hands::BOOLEAN[]),
       unnest($level::INTEGER[]), unnest($den::INTEGER[]), unnest($pot_t::BIGINT[]),
       unnest($see_cost_t::BIGINT[]), unnest($options::VARCHAR[]), unnest($hand::VARCHAR[]),
       unnest($bet_level::INTEGER[]), unnest($cost_t::BIGINT[]), unnest($player_key::VARCHAR[]),
       unnest($hand_category::VARCHAR[]), unnest($net_t::BIGINT[]), unnest($won::BOOLEAN[]);

-- name: retract_decisions
DELETE FROM decisions WHERE session = $session AND deal > $deal;

-- name: retract_deals
DELETE FROM deals WHERE session = $session AND deal > $deal;

-- name: retract_player_deals
DELETE FROM player_deals WHERE session = $session AND deal > $deal;

-- name: forget_summary
DELETE FROM player_session_summary WHERE session IN (SELECT unnest($sessions::VARCHAR[]));

-- name: insert_summary
-- Pure aggregation of the facts (every rule was applied by the engine when they were written).
INSERT INTO player_session_summary
SELECT session, player, player_key, den,
       count(*) FILTER (WHERE deal = 1), count(*), sum(net_t),
       count(*) FILTER (WHERE won), count(*) FILTER (WHERE won AND role IS NOT NULL), count(*) FILTER (WHERE left_how = 'won_uncontested'),
       count(*) FILTER (WHERE first_action = 'blind'), count(first_action), sum(blind_bets),
       count(*) FILTER (WHERE bets > 0), sum(bets), sum(raises), sum(see_chances), count(*) FILTER (WHERE saw),
       count(*) FILTER (WHERE role = 'payer'), count(*) FILTER (WHERE role = 'payer' AND won),
       count(*) FILTER (WHERE role = 'seen'), count(*) FILTER (WHERE role = 'seen' AND won),
       count(*) FILTER (WHERE left_how IN ('carried', 'retained')),
       max(CASE WHEN won THEN won_t END),
       count(luck_t), sum(net_t) FILTER (WHERE luck_t IS NOT NULL), sum(adjusted_net_t)
FROM player_deals
WHERE session IN (SELECT unnest($sessions::VARCHAR[]))
GROUP BY session, player, player_key, den;

-- name: forget_sessions
DELETE FROM sessions WHERE session IN (SELECT unnest($sessions::VARCHAR[]));

-- name: forget_session_players
DELETE FROM session_players WHERE session IN (SELECT unnest($sessions::VARCHAR[]));

-- name: insert_sessions
INSERT INTO sessions
SELECT unnest($session::VARCHAR[]), unnest($table_name::VARCHAR[]), unnest($cards::VARCHAR[]),
       unnest($players::INTEGER[]), unnest($den::INTEGER[]), unnest($ante_t::BIGINT[]),
       unnest($pots_rule::INTEGER[]), unnest($blind_play::BOOLEAN[]), unnest($phase::VARCHAR[]),
       unnest($deals::INTEGER[]), unnest($deals_projected::INTEGER[]), unnest($resolved::INTEGER[]),
       unnest($carried::INTEGER[]), unnest($finished::BOOLEAN[]), unnest($pot_t::BIGINT[]),
       unnest($last_seq::INTEGER[]), unnest($last_position::BIGINT[]),
       unnest($started::VARCHAR[]), unnest($month::VARCHAR[]), unnest($table_key::VARCHAR[]);

-- name: insert_session_players
INSERT INTO session_players
SELECT unnest($session::VARCHAR[]), unnest($seat::INTEGER[]), unnest($player::VARCHAR[]),
       unnest($den::INTEGER[]), unnest($paid_t::BIGINT[]), unnest($won_t::BIGINT[]),
       unnest($net_t::BIGINT[]), unnest($winner::BOOLEAN[]), unnest($winners::INTEGER[]),
       unnest($player_key::VARCHAR[]);

-- name: insert_hand_categories
INSERT INTO hand_categories
SELECT unnest($category::VARCHAR[]), unnest($rank::INTEGER[]), unnest($hands::INTEGER[]);

-- name: read_checkpoint
SELECT position, events FROM checkpoint WHERE id = 1;

-- name: write_checkpoint
INSERT OR REPLACE INTO checkpoint VALUES (1, $position, $events);

-- The same inserts from an Arrow table registered as brag_rows (used when pyarrow is installed:
-- about ten times faster than binding Python lists).

-- name: insert_events_arrow
INSERT INTO events BY NAME SELECT * FROM brag_rows;

-- name: insert_deals_arrow
INSERT INTO deals BY NAME SELECT * FROM brag_rows;

-- name: insert_player_deals_arrow
INSERT INTO player_deals BY NAME SELECT * FROM brag_rows;

-- name: insert_decisions_arrow
INSERT INTO decisions BY NAME SELECT * FROM brag_rows;

-- name: describe_decisions
DESCRIBE decisions;

-- name: describe_events
DESCRIBE events;

-- name: describe_deals
DESCRIBE deals;

-- name: describe_player_deals
DESCRIBE player_deals;
