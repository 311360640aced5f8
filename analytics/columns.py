"""The projection's facts, each column declared once: its line of ``CREATE TABLE``, its comment.

From these (:mod:`analytics.ddl`) come the tables and their ``COMMENT ON`` text, which Explore
and the lake's ``_dictionary`` show (:mod:`analytics.tables`, which declares the bookkeeping
tables), the inserts (:mod:`analytics.projector`), the order of the rows the fold writes
(:mod:`analytics.rows`: ``SHOWN_HAND``, ``DECISION_BEFORE`` and ``DECISION_AFTER`` are groups of
columns it writes together) and the fact tables Explore lists and the lake exports
(:data:`FACT_TABLES`). The views and the other statements are ``analytics/sql/schema.sql``'s.
Money is exact (RULES 1.2): every amount is a BIGINT count of ticks (columns ending in ``_t``),
``1/den`` stake units; ``player_key`` and ``table_key`` are names' normal form (one name, one
player: :func:`events.text.normal`).
"""

from __future__ import annotations

from analytics.ddl import Kind, Table, table

__all__ = [
    "DEALS",
    "DECISIONS",
    "DECISION_ACTIONS",
    "DECISION_AFTER",
    "DECISION_BEFORE",
    "EVENTS",
    "FACT_TABLES",
    "HAND_CATEGORIES",
    "KINDS",
    "PLAYER_DEALS",
    "PLAYER_SESSION_SUMMARY",
    "SESSIONS",
    "SESSION_PLAYERS",
    "SHOWN_HAND",
]

DECISION_ACTIONS: dict[str, str] = {
    "looked": "look",
    "bet": "bet",
    "saw": "see",
    "folded": "fold",
    "conceded": "concede",
    "retained": "retain",
    "kept": "keep",
    "thrown": "throw",
}
"""FORMAT.md recorded event type -> the ``decisions.action`` it is (every other event is the
table's, the engine's or a correction, not a player's choice)."""

KINDS = (
    Kind("first_action_kind", ("blind", "seen")),
    Kind("role_kind", ("payer", "seen")),
    Kind(
        "left_kind", ("folded", "won_uncontested", "paid_to_see", "was_seen", "carried", "retained")
    ),
    Kind("result_kind", ("won", "carried")),
    Kind("decision_kind", tuple(DECISION_ACTIONS.values())),
)
"""The few-valued text columns' types (DuckDB ENUMs: stored and compared as small integers)."""

EVENTS = table(
    "events",
    (
        "One row per event of the store, in global position order (voided events stay: the log "
        "keeps both)."
    ),
    order="position",
    partitioned=True,
    columns={
        "position BIGINT NOT NULL": "The store's global position (may have holes).",
        "session VARCHAR NOT NULL": (
            "The session id (session_started.session): one stream, one session."
        ),
        "seq INTEGER NOT NULL": "Position in the session's stream, from 1.",
        "type VARCHAR NOT NULL": "FORMAT.md event type.",
        "derived BOOLEAN NOT NULL": "An engine conclusion (pot_won, pot_carried, session_ended).",
        "deal INTEGER NOT NULL": (
            "Deals dealt so far in the session when this event applied (0 before the first)."
        ),
        "player VARCHAR": (
            "The player the event names (who bet, looked, folded, saw, showed, won), as written "
            "in the log; NULL for an event of no player (dealt, shuffled)."
        ),
        "level INTEGER": "For a bet: the level after it, in whole seen units (RULES 5.3).",
        "amount_t BIGINT": "Ticks paid by a bet or see, or the pot won or carried.",
        "den INTEGER NOT NULL": "Ticks per stake unit for the session (2 x ante denominator).",
        "hand VARCHAR": "old/new: the hand named by a looked or retained event (RULES 6.4, 6.7).",
        "voids_seq INTEGER": "For voided: the seq of the recorded event withdrawn.",
    },
)

DEALS = table(
    "deals",
    "One row per ended deal: resolved (RULES 5.6, 5.9) or carried (RULES 6.1).",
    order="session, deal",
    partitioned=True,
    columns={
        "session VARCHAR NOT NULL": "The session id (session_started.session).",
        "deal INTEGER NOT NULL": (
            "The deal's number in its session, from 1 (as brag replay and the Replay page number "
            "it)."
        ),
        "dealer VARCHAR NOT NULL": "The dealer (RULES 3.1).",
        "dealer_seat INTEGER NOT NULL": (
            "The dealer's seat: 0 = the first name of session_started.seats, then clockwise "
            "(RULES 1.3, 3.1)."
        ),
        "players INTEGER NOT NULL": (
            "Players seated, all of whom ante and are dealt (RULES 3.4, 4.1)."
        ),
        "den INTEGER NOT NULL": (
            "Ticks per stake unit in this session (2 x the ante's denominator): an amount_t is "
            "amount_t / den stake units (RULES 1.2)."
        ),
        "pot_t BIGINT NOT NULL": "The pot when the deal ended, carried-in pot included, in ticks.",
        "carried_in_t BIGINT NOT NULL": "The pot carried into this deal (RULES 6.3), in ticks.",
        "result result_kind NOT NULL": "won or carried.",
        "winner VARCHAR": (
            "The player who took the pot (RULES 5.6, 5.9); NULL for a carried pot (RULES 6.1)."
        ),
        "showdown BOOLEAN NOT NULL": "Won at a showdown after a see (RULES 5.8).",
        "payer VARCHAR": "At a showdown, the player who paid to see (RULES 5.7).",
        "seen_player VARCHAR": "At a showdown, the payer's opponent, who shows first (RULES 5.8).",
        "winning_category VARCHAR": "RULES 2.2 category of the winning hand at a showdown.",
        "winning_strength INTEGER": (
            "The engine's strength key of the winning hand (larger is better)."
        ),
        "winning_cards VARCHAR": (
            "The winning hand's three cards as shown at the showdown (RULES 3.5, 5.8); NULL "
            "without a showdown."
        ),
        "carried_by VARCHAR": "The blind survivor whose pot was carried (RULES 6.1).",
        "retained BOOLEAN": "For a carried pot: the survivor kept the unseen hand (RULES 6.2).",
        "actions INTEGER NOT NULL": "The deal's bets, folds and see (the deal's length).",
        "bets INTEGER NOT NULL": "Bets made in the deal by all (RULES 5.4; a see is not a bet).",
        "raises INTEGER NOT NULL": "Bets that raised the level (RULES 5.5).",
        "final_level INTEGER": "The level when the deal ended (NULL if nobody bet).",
        "events INTEGER NOT NULL": "Events from dealt to the one that ended the deal.",
        "end_position BIGINT NOT NULL": "Global position of the event that ended the deal.",
        "end_seq INTEGER NOT NULL": "The seq of the recorded event that ended the deal.",
        "end_type VARCHAR NOT NULL": "That event's type (FORMAT.md), e.g. folded, shown, conceded.",
    },
)

SHOWN_HAND: dict[str, str | None] = {
    "hand_cards VARCHAR": (
        "The three cards shown at the showdown (RULES 3.5), in the order shown."
    ),
    "hand_category VARCHAR": "RULES 2.2 category of the shown hand.",
    "hand_strength INTEGER": "The engine's strength key of the shown hand.",
    "hand_beats INTEGER": "Of all 22,100 hands, how many the shown hand beats strictly.",
    "hand_wins INTEGER": (
        "Of the 18,424 hands from the other 49 cards, how many it beats strictly (heads-up "
        "win chance = hand_wins / 18424)."
    ),
    "hand_ties INTEGER": "Of those 18,424, how many are equal (RULES 2.7).",
    "hand_losses INTEGER": "Of those 18,424, how many beat it.",
}

PLAYER_DEALS = table(
    "player_deals",
    "One row per player per ended deal.",
    order="session, deal, seat",
    partitioned=True,
    columns={
        "session VARCHAR NOT NULL": "The session id (session_started.session).",
        "deal INTEGER NOT NULL": "The deal's number in its session, from 1 (deals.deal).",
        "seat INTEGER NOT NULL": (
            "The player's seat: 0 = the first name of session_started.seats, then clockwise "
            "(RULES 1.3)."
        ),
        "player VARCHAR NOT NULL": (
            "The player's name as seated in this session (player_key joins the spellings of one "
            "player)."
        ),
        "is_dealer BOOLEAN NOT NULL": (
            "The player dealt this deal (RULES 3.1: the dealer passes to the left after each deal)."
        ),
        "den INTEGER NOT NULL": (
            "Ticks per stake unit in this session (2 x the ante's denominator): net_t / den is "
            "the net in stake units (RULES 1.2)."
        ),
        "two_hands BOOLEAN NOT NULL": "Held a retained hand beside the new one (RULES 6.3).",
        "first_action first_action_kind": (
            "blind or seen at the player's first betting action (bet, fold or see; RULES 5.1); "
            "NULL if they never acted."
        ),
        "looked_turn INTEGER": (
            "Own betting actions made before becoming seen: 0 = looked before acting (or blind "
            "play is off); NULL = never looked (RULES 5.1, 6.4)."
        ),
        "bets INTEGER NOT NULL": "Bets made (RULES 5.4; a see is not a bet).",
        "blind_bets INTEGER NOT NULL": "Bets made while blind, i.e. before looking (RULES 5.3).",
        "raises INTEGER NOT NULL": (
            "Bets that raised the level (RULES 5.5); the opening bet is not a raise."
        ),
        "actions INTEGER NOT NULL": "Betting actions: bets, the fold, the see.",
        "see_chances INTEGER NOT NULL": (
            "Turns on which the player could see: two left, a level set, not seen against blind "
            "(RULES 5.7)."
        ),
        "saw BOOLEAN NOT NULL": "Paid to see (RULES 5.7).",
        "role role_kind": "payer or seen at a showdown (RULES 5.8).",
        "paid_t BIGINT NOT NULL": "Paid into this pot: ante, bets, see (ticks).",
        "won_t BIGINT NOT NULL": "The pot taken, if the player won it (ticks).",
        "net_t BIGINT NOT NULL": (
            "won_t - paid_t; summed over a session it is the net of RULES 1.5."
        ),
        "luck_t BIGINT": (
            "The luck term (docs/luck.md, analytics/luck.py), ticks: the value of the rank of "
            "the player's new hand among the deal's new hands (given "
            "the tendencies the players showed in the session's earlier deals) less its average "
            "over the orders the cards could have come in, expected value exactly 0 whatever "
            "the players do; 0 for a deal with no card unseen since the last "
            "shuffle (RULES 3.2, 3.3); NULL where not defined (a cards: shown session, or hands "
            "the log does not hold) and, until the session ends, for a deal dealt since the last "
            "shuffle (it is shown only as a spectator saw it, issue 33.1: docs/luck.md). The "
            "terms of a deal sum to 0."
        ),
        "adjusted_net_t BIGINT": (
            "net_t - luck_t: the luck-adjusted net (docs/luck.md), ticks, same mean as net_t with "
            "less spread; NULL where luck_t is."
        ),
        "won BOOLEAN NOT NULL": (
            "The player took this pot (RULES 5.6, 5.9); false for a carried pot."
        ),
        "left_how left_kind NOT NULL": (
            "folded, won_uncontested, paid_to_see, was_seen, carried (blind survivor, hand given "
            "up) or retained (blind survivor kept the hand)."
        ),
        **SHOWN_HAND,
        "player_key VARCHAR NOT NULL": (
            "The player's name in its normal form (events.text.normal): one key, one player "
            "across sessions."
        ),
    },
)

DECISION_BEFORE: dict[str, str | None] = {
    "seat INTEGER NOT NULL": "The decider's seat, 0-based clockwise as seated (RULES 1.3).",
    "phase VARCHAR NOT NULL": (
        "betting, showdown (after a see, RULES 5.8, 6.6) or carried (a blind survivor's "
        "choice, RULES 6.1-6.2) before the decision."
    ),
    "players_in INTEGER NOT NULL": (
        "Players still in the deal (not folded, RULES 5.6) before the decision, the decider "
        "included."
    ),
    "blind_in INTEGER NOT NULL": "Of players_in, how many blind (not looked, RULES 5.1).",
    "seen_in INTEGER NOT NULL": "Of players_in, how many seen (RULES 5.1).",
    "actor_seen BOOLEAN NOT NULL": (
        "The decider was seen before the decision (RULES 5.1; a look makes the next decision seen)."
    ),
    "opponents_blind INTEGER NOT NULL": (
        "Players in other than the decider who are blind (RULES 5.1)."
    ),
    "opponents_seen INTEGER NOT NULL": (
        "Players in other than the decider who are seen (RULES 5.1)."
    ),
    "two_hands BOOLEAN NOT NULL": (
        "The decider held a retained hand beside the new one (RULES 6.3-6.5)."
    ),
    "level INTEGER": (
        "The level before the decision, whole stake units (RULES 5.5); NULL before the first bet."
    ),
    "den INTEGER NOT NULL": "Ticks per stake unit for the session (2 x ante denominator).",
    "pot_t BIGINT NOT NULL": (
        "The pot before the decision, carried-in pot included (RULES 4.1, 6.3), ticks."
    ),
    "see_cost_t BIGINT": (
        "What a see would cost the decider now (RULES 5.7: the level when blind, twice it "
        "when seen), ticks; NULL when seeing is not one of the options."
    ),
    "options VARCHAR NOT NULL": (
        "The decider's legal options before it (engine.legal.legal_actions), | between them "
        "in its order, costs in ticks: look, look old|look new, bet LO..HI:CLO..CHI (levels, "
        "then their costs; bet 4:8 for one level), fold, see:COST, show, concede, keep, "
        "throw, retain (retain old|retain new), give_up (the hand goes under at the next "
        "deal, RULES 6.2)."
    ),
}

DECISION_AFTER: dict[str, str | None] = {
    "hand_category VARCHAR": (
        "RULES 2.2 category of the hand decided with, where the log knows it: the dealt hand "
        "at a cards: all table, else the hand shown at the showdown (RULES 3.5); NULL for a "
        "holder of two hands (but for the one a look, keep, throw or retain names), for an "
        "unshown hand at a cards: shown table, for a retained hand (still in play, RULES "
        "6.2), and, until the session ends, for a hand not shown of a deal dealt since the "
        "last shuffle (issue 33.1: only what a spectator saw)."
    ),
    "net_t BIGINT NOT NULL": (
        "What followed: the decider's net in the deal, won_t - paid_t of player_deals, ticks."
    ),
    "won BOOLEAN NOT NULL": "What followed: the decider won the deal's pot (RULES 5.6, 5.9).",
}

DECISIONS = table(
    "decisions",
    (
        "One row per recorded decision in force (look, bet, see, fold, concede, retain, keep, "
        "throw), with its context as the engine saw it just before "
        "(analytics.facts.decision_context) and what followed; written with its deal's rows when "
        "the deal ends; a withdrawn (voided) decision is no row."
    ),
    order="session, seq",
    partitioned=True,
    columns={
        "session VARCHAR NOT NULL": "The session id (session_started.session).",
        "deal INTEGER NOT NULL": "The deal, from 1 (as in deals and player_deals).",
        "seq INTEGER NOT NULL": "The decision's seq in the session's stream (events.seq).",
        "step INTEGER NOT NULL": (
            "Its step in the deal as brag replay and the Replay page number it "
            "(present.narrate.step_in_deal): replay?session=S&deal=D&step=K lands on it."
        ),
        "position BIGINT NOT NULL": "The store's global position of the decision's event.",
        "player VARCHAR NOT NULL": "Who decided, as seated (RULES 1.3).",
        "action decision_kind NOT NULL": (
            "look (looked, RULES 5.1, 6.4), bet (5.3-5.5), see (saw, 5.7), fold (folded, 5.6), "
            "concede (conceded, 5.8), retain (retained, 6.2), keep or throw (kept, thrown, 6.4)."
        ),
        "table_name VARCHAR": (
            "The session's table (session_started.table); NULL when none was recorded."
        ),
        "cards_mode VARCHAR NOT NULL": (
            "all (every card known) or shown (only the cards shown at a showdown, RULES 3.5)."
        ),
        **DECISION_BEFORE,
        "hand VARCHAR": (
            "old or new: the one of two hands a look, keep, throw or retain concerns (RULES 6.4, "
            "6.7); NULL otherwise."
        ),
        "bet_level INTEGER": (
            "For a bet: the level it sets, whole stake units (RULES 5.5; above level it raises); "
            "NULL otherwise."
        ),
        "cost_t BIGINT NOT NULL": (
            "What this decision paid into the pot (a bet, RULES 5.3; a see, RULES 5.7; 0 "
            "otherwise), ticks."
        ),
        "player_key VARCHAR NOT NULL": (
            "The player's name in its normal form (events.text.normal): one key, one player "
            "across sessions."
        ),
        **DECISION_AFTER,
    },
)

PLAYER_SESSION_SUMMARY = table(
    "player_session_summary",
    (
        "One row per (session, player) with ended deals: counts and tick sums of player_deals, "
        "re-aggregated by the projector for every session a batch changes (same transaction). "
        "player_stats reads it."
    ),
    columns={
        "session VARCHAR NOT NULL": "The session id.",
        "player VARCHAR NOT NULL": "The player's name as seated in the session.",
        "player_key VARCHAR NOT NULL": "The player's name in its normal form (events.text.normal).",
        "den INTEGER NOT NULL": "Ticks per stake unit in the session (RULES 1.2).",
        "first_deals BIGINT NOT NULL": (
            "Rows for deal 1 (1 when the player has any ended deal in the session)."
        ),
        "deals BIGINT NOT NULL": "Ended deals the player was dealt into (rows of player_deals).",
        "net_t BIGINT NOT NULL": "sum(player_deals.net_t), ticks of the session's den.",
        "pots_won BIGINT NOT NULL": "Deals won (player_deals.won).",
        "pots_won_showdown BIGINT NOT NULL": "Deals won at a showdown (RULES 5.8, 5.9).",
        "pots_won_uncontested BIGINT NOT NULL": (
            "Deals won when every other player folded (RULES 5.6)."
        ),
        "blind_first BIGINT NOT NULL": (
            "Deals whose first betting action was made blind (RULES 5.1)."
        ),
        "acted BIGINT NOT NULL": "Deals with a first betting action (first_action not NULL).",
        "blind_bets BIGINT NOT NULL": "sum(player_deals.blind_bets): bets made blind (RULES 5.3).",
        "deals_with_bet BIGINT NOT NULL": "Deals with at least one bet by the player.",
        "bets BIGINT NOT NULL": "sum(player_deals.bets).",
        "raises BIGINT NOT NULL": "sum(player_deals.raises) (RULES 5.5).",
        "see_chances BIGINT NOT NULL": "sum(player_deals.see_chances) (RULES 5.7).",
        "sees BIGINT NOT NULL": "Deals in which the player paid to see (RULES 5.7).",
        "payer_showdowns BIGINT NOT NULL": "Showdowns at which the player paid to see (RULES 5.8).",
        "payer_wins BIGINT NOT NULL": "Of those, the ones the player won.",
        "seen_showdowns BIGINT NOT NULL": "Showdowns at which the player was seen (RULES 5.8).",
        "seen_wins BIGINT NOT NULL": "Of those, the ones the player won.",
        "carried_caused BIGINT NOT NULL": (
            "Deals the player survived blind, so the pot was carried (RULES 6.1)."
        ),
        "biggest_pot_t BIGINT": "max(won_t) over the deals the player won (NULL if none), ticks.",
        "luck_deals BIGINT NOT NULL": (
            "Deals whose luck term is defined (luck_t not NULL: cards: all sessions)."
        ),
        "luck_net_t BIGINT": "sum(net_t) over those deals (NULL if none), ticks.",
        "adjusted_net_t BIGINT": (
            "sum(adjusted_net_t) over those deals (NULL if none), ticks (docs/luck.md)."
        ),
    },
)

SESSIONS = table(
    "sessions",
    "Each session as the engine sees it after the last projected event.",
    order="session",
    partitioned=True,
    columns={
        "session VARCHAR PRIMARY KEY": "The session id (session_started.session).",
        "table_name VARCHAR": "The table as recorded (session_started.table); NULL when none was.",
        "cards VARCHAR NOT NULL": (
            "all (every card recorded: a digital table or a simulation) or shown (only cards "
            "shown at a showdown: a real table)."
        ),
        "players INTEGER NOT NULL": "Players seated (RULES 1.3).",
        "den INTEGER NOT NULL": "Ticks per stake unit (2 x the ante's denominator, RULES 1.2).",
        "ante_t BIGINT NOT NULL": "The ante each player pays every deal (RULES 4.1), in ticks.",
        "pots_rule INTEGER NOT NULL": (
            "Resolved pots that end the session (RULES 1.4; 8 unless the log sets another)."
        ),
        "blind_play BOOLEAN NOT NULL": (
            "Blind play allowed (RULES 5.1); when off, every player looks before acting."
        ),
        "open_min INTEGER NOT NULL": "The lowest opening level, in seen units (RULES 5.5).",
        "open_max INTEGER NOT NULL": "The highest opening level, in seen units (RULES 5.5).",
        "raise_max INTEGER NOT NULL": "The largest raise, in seen units (RULES 5.5).",
        "phase VARCHAR NOT NULL": (
            "Where the session stands: new, between (deals), betting, showdown, carried or over "
            "(RULES 1.4)."
        ),
        "deals INTEGER NOT NULL": "Deals dealt so far, the one in play included.",
        "deals_projected INTEGER NOT NULL": "Deals ended and written to deals and player_deals.",
        "resolved INTEGER NOT NULL": "Pots resolved (won) so far (RULES 1.4).",
        "carried INTEGER NOT NULL": "Pots carried so far (RULES 6.1).",
        "finished BOOLEAN NOT NULL": "The session is over: its last pot is resolved (RULES 1.4).",
        "pot_t BIGINT NOT NULL": (
            "The pot on the table now, in ticks (0 between deals unless carried)."
        ),
        "last_seq INTEGER NOT NULL": "The seq of the last projected event of the session.",
        "last_position BIGINT NOT NULL": "The store's global position of that event.",
        "started VARCHAR": (
            "The at of session_started as recorded (ISO 8601 with its offset; NULL for a log "
            "without times)."
        ),
        "month VARCHAR": (
            "YYYY-MM of started in its own offset (the local calendar month); NULL without a time."
        ),
        "table_key VARCHAR": (
            "The table's name in its normal form (events.text.normal); NULL without a table."
        ),
    },
)

SESSION_PLAYERS = table(
    "session_players",
    (
        "Each seat's standing after the last projected event: the engine's nets (RULES 1.5), open "
        "deal included."
    ),
    order="session, seat",
    partitioned=True,
    key="session, seat",
    columns={
        "session VARCHAR NOT NULL": "The session id.",
        "seat INTEGER NOT NULL": (
            "The seat: 0 = the first name of session_started.seats, then clockwise (RULES 1.3)."
        ),
        "player VARCHAR NOT NULL": "The name seated there, as written in the log.",
        "den INTEGER NOT NULL": "Ticks per stake unit in this session (RULES 1.2).",
        "paid_t BIGINT NOT NULL": "Paid into the pots so far: antes, bets, sees (ticks).",
        "won_t BIGINT NOT NULL": "Pots taken so far (ticks).",
        "net_t BIGINT NOT NULL": (
            "won_t - paid_t: the net of RULES 1.5 (with the pot on the table, nets sum to 0)."
        ),
        "winner BOOLEAN": (
            "Once the session is over: the engine names the player a winner, with the highest net "
            "(RULES 1.5)."
        ),
        "winners INTEGER": (
            "Once the session is over: how many players share the win (RULES 1.5: exactly equal "
            "highest nets)."
        ),
        "player_key VARCHAR NOT NULL": "The player's name in its normal form (events.text.normal).",
    },
)

HAND_CATEGORIES = table(
    "hand_categories",
    "RULES 2.8: hands of each category out of 22,100, counted by the engine's ranking.",
    order="rank",
    columns={
        "category VARCHAR PRIMARY KEY": (
            "The RULES 2.2 category (prial, running flush, run, flush, pair, high card)."
        ),
        "rank INTEGER NOT NULL": "The category's order, larger is better (RULES 2.2).",
        "hands INTEGER NOT NULL": "Three-card hands of the category out of the 22,100 (RULES 2.8).",
    },
)

FACT_TABLES: dict[str, Table] = {
    t.name: t
    for t in (EVENTS, DEALS, PLAYER_DEALS, DECISIONS, SESSIONS, SESSION_PLAYERS, HAND_CATEGORIES)
}
"""The fact tables, in the order Explore lists them; the lake writes each, by partition where
:attr:`~analytics.ddl.Table.partitioned`, rows in its :attr:`~analytics.ddl.Table.order`."""
