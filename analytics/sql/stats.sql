-- The players' statistics. Each query only aggregates the facts of schema.sql; every rule was
-- applied by the engine when the facts were written. Parameters: $session, $player_key and
-- $table_key narrow the rows (NULL: all; a key is a name's normal form, events.text.normal);
-- $date_from and $date_to (ISO dates 'YYYY-MM-DD', both or neither; NULL: all) keep the sessions
-- started within them, inclusive, by the calendar date of session_started.at in its own offset
-- (the date a club night is counted on, service/night.py; a log without times has no date, so a
-- date filter leaves it out); $den is the common denominator of the money columns (the least common
-- multiple of the sessions' den, see schema.sql): a column ending in _num is an exact amount in
-- 1/$den stake units. Every rate and average comes with the count it is taken over (column
-- named in the last field of its "col:" line), so a figure from 3 deals is not read as a trend.

-- name: player_stats
-- about: Each player's play and results over the ended deals (one session with $session, the
-- about: sessions of one table with $table_key, or all sessions), best net first. $player_key and
-- about: $table_key are names in their normal form (events.text.normal): Ann and ann are one player.
-- col: player | name | RULES 1.3 | The player's name as seated most often; the spellings of one name (docs/format.md: the same normal form) across sessions are one player.
-- col: sessions | sessions | RULES 1 | Sessions with at least one ended deal for the player.
-- col: deals | deals | RULES 3.4, 4.1 | Ended deals the player was dealt into (every seated player antes and is dealt).
-- col: net | stake units | RULES 1.5 | Everything won minus everything paid (antes, bets, sees) in those deals. | deals
-- col: net_per_deal | stake units per deal | RULES 1.5 | net / deals. | deals
-- col: pots_won | pots | RULES 5.6, 5.9 | Pots taken, at a showdown or uncontested. | deals
-- col: pots_won_showdown | pots | RULES 5.8, 5.9 | Pots taken at a showdown. | deals
-- col: pots_won_uncontested | pots | RULES 5.6 | Pots taken by a seen survivor when everyone else folded. | deals
-- col: blind_rate | share of first actions | RULES 5.1 | Share of deals in which the player's first betting action (bet, fold or see) was made blind. | blind_rate_n
-- col: avg_bets_before_looking | bets per deal | RULES 5.1, 5.3 | Bets made while blind (before looking), per deal played. | avg_bets_before_looking_n
-- col: bet_share | share of deals | RULES 5.4 | Share of deals with at least one bet by the player. | bet_share_n
-- col: raise_rate | share of bets | RULES 5.5 | Share of the player's bets that raised the level (the opening bet is not a raise). | raise_rate_n
-- col: see_rate | share of turns | RULES 5.7 | Sees per turn on which the player could see (two players left, a level set, not seen against blind). | see_rate_n
-- col: payer_win_rate | share of showdowns | RULES 5.8 | Share of showdowns won by the player as the payer (who must hold a strictly better hand). | payer_win_rate_n
-- col: seen_win_rate | share of showdowns | RULES 5.8 | Share of showdowns won by the player as the one seen. | seen_win_rate_n
-- col: carried_caused | pots | RULES 6.1 | Pots carried forward because the player survived blind. | deals
-- col: biggest_pot_won | stake units | RULES 5.9 | The largest pot the player took (NULL if none). | pots_won
-- col: luck_deals | deals | docs/luck.md | Deals with a luck term: those of sessions recording every card (cards: all); a session recording only shown cards has none (its hands are not known).
-- col: adjusted_net_per_deal | stake units per deal | docs/luck.md | The luck-adjusted net (net minus the luck term of the cards dealt, expected value 0) per deal, over luck_deals: the same mean as the net, less spread. | luck_deals
WITH src AS (
    -- The per-(session, player) counts the projector keeps in player_session_summary (schema.sql:
    -- a pure aggregation of player_deals, refreshed with the facts), so the rates and the exact
    -- net are the same as over player_deals, from a table of a few rows per session; over every
    -- session ($totals: no session, table or dates asked, the rows kept), the same counts already
    -- added up per player and den (player_totals, analytics/summaries.py): a row or two a
    -- player, not a league's every session.
    SELECT * EXCLUDE (session, player) FROM player_session_summary
    WHERE NOT coalesce($totals::BOOLEAN, false)
      AND ($session::VARCHAR IS NULL OR session = $session)
      AND ($player_key::VARCHAR IS NULL OR player_key = $player_key)
      AND ($table_key::VARCHAR IS NULL
           OR session IN (SELECT session FROM sessions WHERE table_key = $table_key))
      AND ($date_from::VARCHAR IS NULL
           OR session IN (SELECT session FROM sessions
                          WHERE left(started, 10) BETWEEN $date_from AND $date_to))
    UNION ALL BY NAME
    SELECT * FROM player_totals
    WHERE coalesce($totals::BOOLEAN, false) AND ($player_key::VARCHAR IS NULL OR player_key = $player_key)
),
names AS (  -- player_names, from player_seated when the rows are kept ($kept)
    SELECT player_key, player FROM player_names_kept WHERE coalesce($kept::BOOLEAN, false)
    UNION ALL
    SELECT player_key, player FROM player_names WHERE NOT coalesce($kept::BOOLEAN, false)
),
agg AS (
    SELECT
        player_key,
        -- Deals end in order and every seated player is dealt (RULES 3.4), so a player has a
        -- row for deal 1 of each session in which they have any ended deal.
        sum(first_deals) AS sessions,
        sum(deals)::BIGINT AS deals,
        sum(net_t * ($den // den)) AS net_num,
        sum(pots_won) AS pots_won,
        sum(pots_won_showdown) AS pots_won_showdown,
        sum(pots_won_uncontested) AS pots_won_uncontested,
        sum(blind_first) AS blind_first,
        sum(acted)::BIGINT AS blind_rate_n,
        sum(blind_bets) AS blind_bets,
        sum(deals_with_bet) AS deals_with_bet,
        sum(raises) AS raises,
        sum(bets) AS bets,
        sum(sees) AS sees,
        sum(see_chances) AS see_chances,
        sum(payer_wins) AS payer_wins,
        sum(payer_showdowns) AS payer_showdowns,
        sum(seen_wins) AS seen_wins,
        sum(seen_showdowns) AS seen_showdowns,
        sum(carried_caused) AS carried_caused,
        max(biggest_pot_t * ($den // den)) AS biggest_pot_num,
        sum(luck_deals)::BIGINT AS luck_deals,
        sum(adjusted_net_t * ($den // den)) AS adjusted_net_num
    FROM src
    GROUP BY player_key
)
SELECT
    coalesce(n.player, agg.player_key) AS player,
    sessions,
    deals,
    net_num,
    pots_won,
    pots_won_showdown,
    pots_won_uncontested,
    coalesce(blind_first, 0) AS blind_first,
    coalesce(blind_first, 0) / nullif(blind_rate_n, 0) AS blind_rate,
    blind_rate_n,
    blind_bets,
    blind_bets / nullif(deals, 0) AS avg_bets_before_looking,
    deals AS avg_bets_before_looking_n,
    deals_with_bet,
    deals_with_bet / nullif(deals, 0) AS bet_share,
    deals AS bet_share_n,
    raises,
    raises / nullif(bets, 0) AS raise_rate,
    bets AS raise_rate_n,
    sees,
    sees / nullif(see_chances, 0) AS see_rate,
    see_chances AS see_rate_n,
    coalesce(payer_wins, 0) AS payer_wins,
    payer_wins / nullif(payer_showdowns, 0) AS payer_win_rate,
    coalesce(payer_showdowns, 0) AS payer_win_rate_n,
    coalesce(seen_wins, 0) AS seen_wins,
    seen_wins / nullif(seen_showdowns, 0) AS seen_win_rate,
    coalesce(seen_showdowns, 0) AS seen_win_rate_n,
    carried_caused,
    biggest_pot_num,
    luck_deals,
    adjusted_net_num
FROM agg LEFT JOIN names n USING (player_key)
ORDER BY net_num DESC, player;

-- name: leaderboard
-- about: Each session's standing, best net first: the engine's nets after the last projected event
-- about: (an unfinished session shows who leads). RULES 1.5: the highest net wins; exactly equal
-- about: highest nets share the win.
-- col: session | session | RULES 1 | The session.
-- col: finished | yes/no | RULES 1.4 | The last pot is resolved.
-- col: player | name | RULES 1.3 | The player.
-- col: net | stake units | RULES 1.5 | Won minus paid over the session so far. | deals
-- col: deals | deals | RULES 3.4 | Deals dealt in the session so far.
-- col: place | place | RULES 1.5 | 1 + the number of players with a higher net.
-- col: top | yes/no | RULES 1.5 | Holds the highest net of the session.
-- col: winner | yes/no | RULES 1.5 | The session is over and the player holds the highest net.
-- col: shared_by | players | RULES 1.5 | On the rows holding the highest net: how many players hold it (a shared win when above 1); empty on the others.
WITH sp AS (
    SELECT sp.session, sp.seat, coalesce(n.player, sp.player) AS player,
           sp.net_t * ($den // sp.den) AS net_num, s.finished, s.deals
    FROM session_players sp JOIN sessions s USING (session)
    LEFT JOIN player_names n ON n.player_key = sp.player_key
    WHERE ($session::VARCHAR IS NULL OR sp.session = $session)
      AND ($table_key::VARCHAR IS NULL OR s.table_key = $table_key)
),
ranked AS (
    SELECT *,
           rank() OVER (PARTITION BY session ORDER BY net_num DESC) AS place,
           net_num = max(net_num) OVER (PARTITION BY session) AS top
    FROM sp
)
SELECT session, finished, player, net_num, deals, place, top, top AND finished AS winner,
       CASE WHEN top THEN count(*) FILTER (WHERE top) OVER (PARTITION BY session) END AS shared_by
FROM ranked
ORDER BY session, place, seat;

-- name: overall_leaderboard
-- about: Players over all finished sessions: wins, shared wins (RULES 1.5) and nets, most win
-- about: shares first. The winners are the engine's (session_ended), counted here.
-- col: player | name | RULES 1.3 | The player.
-- col: sessions | sessions | RULES 1.4 | Finished sessions played.
-- col: wins | sessions | RULES 1.5 | Sessions won outright (the one highest net).
-- col: shared_wins | sessions | RULES 1.5 | Sessions whose win the player shared (equal highest nets).
-- col: win_points | sessions | RULES 1.5 | Wins counted 1/k when shared by k players. | sessions
-- col: net | stake units | RULES 1.5 | Total net over those sessions. | sessions
SELECT coalesce(any_value(n.player), sp.player_key) AS player,
       count(*) AS sessions,
       count_if(winner AND winners = 1) AS wins,
       count_if(winner AND winners > 1) AS shared_wins,
       sum(CASE WHEN winner THEN 1.0 / winners ELSE 0 END) AS win_points,
       sum(net_t * ($den // den)) AS net_num
FROM session_players sp LEFT JOIN player_names n USING (player_key)
WHERE winner IS NOT NULL
GROUP BY sp.player_key
ORDER BY win_points DESC, net_num DESC, player;

-- name: showdown_hands
-- about: The hand categories shown at showdowns beside their frequency in the pack (RULES 2.8):
-- about: shown hands are chosen by the players' betting, so a category shown more often than its
-- about: RULES 2.8 share is one players bet on.
-- col: category | category | RULES 2.2 | The hand category, best first.
-- col: shown | hands | RULES 3.5, 5.8 | Hands of the category shown in full at a showdown. | shown_n
-- col: shown_share | share of shown hands | RULES 5.8 | shown / all hands shown. | shown_n
-- col: shown_n | hands | RULES 5.8 | All hands shown in full.
-- col: won | hands | RULES 5.8 | Shown hands of the category that took the pot. | shown
-- col: win_rate | share of shown hands | RULES 5.8 | won / shown. | shown
-- col: avg_win_chance | chance | RULES 2 | Mean heads-up win chance of the shown hands against a random hand from the other 49 cards (exact per hand). | shown
-- col: rules_hands | hands | RULES 2.8 | Hands of the category among the 22,100 of the pack.
-- col: rules_share | share of the pack | RULES 2.8 | rules_hands / 22,100.
WITH shown AS (
    SELECT hand_category AS category,
           count(*) AS shown,
           count(*) FILTER (WHERE won) AS won,
           avg(hand_wins) / 18424 AS avg_win_chance
    FROM player_deals
    WHERE hand_category IS NOT NULL
      AND ($session::VARCHAR IS NULL OR session = $session)
      AND ($player_key::VARCHAR IS NULL OR player_key = $player_key)
      AND ($table_key::VARCHAR IS NULL
           OR session IN (SELECT session FROM sessions WHERE table_key = $table_key))
      AND ($date_from::VARCHAR IS NULL
           OR session IN (SELECT session FROM sessions
                          WHERE left(started, 10) BETWEEN $date_from AND $date_to))
    GROUP BY hand_category
)
SELECT c.category,
       coalesce(s.shown, 0) AS shown,
       coalesce(s.shown, 0) / nullif(sum(coalesce(s.shown, 0)) OVER (), 0) AS shown_share,
       sum(coalesce(s.shown, 0)) OVER () AS shown_n,
       coalesce(s.won, 0) AS won,
       s.won / nullif(s.shown, 0) AS win_rate,
       s.avg_win_chance,
       c.hands AS rules_hands,
       c.hands / 22100 AS rules_share
FROM hand_categories c LEFT JOIN shown s USING (category)
ORDER BY c.rank DESC;

-- name: pot_sizes
-- about: Pot sizes of the ended deals by how the deal ended, and over all (kind 'all').
-- col: kind | kind | RULES 5.6, 5.9, 6.1 | showdown, uncontested, carried, or all.
-- col: deals | deals | RULES 3.4 | Ended deals of the kind.
-- col: pot_mean | stake units | RULES 4.1, 5.4 | Mean pot when the deal ended, carried-in pot included. | deals
-- col: pot_min | stake units | RULES 4.1 | Smallest pot. | deals
-- col: pot_median | stake units | RULES 4.1 | Median pot (the lower middle value). | deals
-- col: pot_max | stake units | RULES 4.1 | Largest pot. | deals
-- col: carried_in_mean | stake units | RULES 6.3 | Mean pot carried into the deal. | deals
WITH counted AS (
    -- A histogram first: pots are few distinct values, so the medians are found in it.
    SELECT CASE WHEN result = 'carried' THEN 'carried'
                WHEN showdown THEN 'showdown' ELSE 'uncontested' END AS kind,
           pot_t * ($den // den) AS pot_num,
           count(*) AS n,
           sum(carried_in_t * ($den // den)) AS carried_in_num
    FROM deals
    WHERE $session::VARCHAR IS NULL OR session = $session
    GROUP BY ALL
),
hist AS (
    SELECT kind, pot_num, n, carried_in_num FROM counted
    UNION ALL
    SELECT 'all', pot_num, sum(n), sum(carried_in_num) FROM counted GROUP BY pot_num
),
cum AS (
    SELECT *,
           sum(n) OVER (PARTITION BY kind ORDER BY pot_num) AS upto,
           sum(n) OVER (PARTITION BY kind) AS total
    FROM hist
)
SELECT kind,
       sum(n) AS deals,
       sum(pot_num * n) AS pot_sum_num,
       min(pot_num) AS pot_min_num,
       -- the lower middle value, as quantile_disc(pot, 0.5): element floor((n - 1) / 2)
       min(pot_num) FILTER (WHERE upto > (total - 1) // 2) AS pot_median_num,
       max(pot_num) AS pot_max_num,
       sum(carried_in_num) AS carried_in_sum_num
FROM cum
GROUP BY kind
ORDER BY kind = 'all', kind;

-- name: deal_lengths
-- about: Deal lengths in betting actions (bets, folds and the see) by how the deal ended, and over
-- about: all (kind 'all').
-- col: kind | kind | RULES 5.6, 5.9, 6.1 | showdown, uncontested, carried, or all.
-- col: deals | deals | RULES 3.4 | Ended deals of the kind.
-- col: actions_mean | actions | RULES 5.2 | Mean betting actions per deal. | deals
-- col: actions_min | actions | RULES 5.2 | Fewest. | deals
-- col: actions_median | actions | RULES 5.2 | Median (the lower middle value). | deals
-- col: actions_max | actions | RULES 5.2 | Most. | deals
-- col: raises_mean | raises | RULES 5.5 | Mean raises per deal. | deals
WITH counted AS (
    SELECT CASE WHEN result = 'carried' THEN 'carried'
                WHEN showdown THEN 'showdown' ELSE 'uncontested' END AS kind,
           actions,
           count(*) AS n,
           sum(raises) AS raises
    FROM deals
    WHERE $session::VARCHAR IS NULL OR session = $session
    GROUP BY ALL
),
hist AS (
    SELECT kind, actions, n, raises FROM counted
    UNION ALL
    SELECT 'all', actions, sum(n), sum(raises) FROM counted GROUP BY actions
),
cum AS (
    SELECT *,
           sum(n) OVER (PARTITION BY kind ORDER BY actions) AS upto,
           sum(n) OVER (PARTITION BY kind) AS total
    FROM hist
)
SELECT kind,
       sum(n) AS deals,
       sum(actions * n) / sum(n) AS actions_mean,
       min(actions) AS actions_min,
       min(actions) FILTER (WHERE upto > (total - 1) // 2) AS actions_median,
       max(actions) AS actions_max,
       sum(raises) / sum(n) AS raises_mean
FROM cum
GROUP BY kind
ORDER BY kind = 'all', kind;

-- name: decisions
-- about: Each player's recorded decisions (the decisions facts: look, bet, see, fold, concede,
-- about: retain, keep, throw) by action: how often, how many made blind, what they paid and how
-- about: the deals they were made in ended for the player. One session, one table's, or all.
-- col: player | name | RULES 1.3 | The player's name as seated most often (one normal form, one player).
-- col: action | kind | RULES 5.1-5.8, 6.2, 6.4 | look, bet, see, fold, concede, retain, keep or throw.
-- col: decisions | decisions | RULES 5 | Decisions of this action in force (a withdrawn one is not counted).
-- col: share | share of decisions | RULES 5 | decisions / all the player's decisions. | decisions_n
-- col: decisions_n | decisions | RULES 5 | All the player's decisions.
-- col: blind | decisions | RULES 5.1 | Of them, made while blind (not looked yet).
-- col: cost_mean | stake units | RULES 5.3, 5.7 | Mean paid by the decision (bets and sees; 0 for the others). | decisions
-- col: net_mean | stake units | RULES 1.5 | Mean of the player's net in the deal each was made in. | decisions
-- col: won | decisions | RULES 5.6, 5.9 | Made in a deal the player went on to win.
-- col: won_rate | share of decisions | RULES 5.6, 5.9 | won / decisions. | decisions
WITH d AS (
    SELECT player_key, action,
           count(*) AS decisions,
           count(*) FILTER (WHERE NOT actor_seen) AS blind,
           sum(cost_t * ($den // den)) AS cost_sum_num,
           sum(net_t * ($den // den)) AS net_sum_num,
           count(*) FILTER (WHERE won) AS won
    FROM decisions
    WHERE ($session::VARCHAR IS NULL OR session = $session)
      AND ($player_key::VARCHAR IS NULL OR player_key = $player_key)
      AND ($table_key::VARCHAR IS NULL
           OR session IN (SELECT session FROM sessions WHERE table_key = $table_key))
      AND ($date_from::VARCHAR IS NULL
           OR session IN (SELECT session FROM sessions
                          WHERE left(started, 10) BETWEEN $date_from AND $date_to))
    GROUP BY player_key, action
)
SELECT coalesce(n.player, d.player_key) AS player, d.action::VARCHAR AS action, d.decisions,
       d.decisions / sum(d.decisions) OVER (PARTITION BY d.player_key) AS share,
       sum(d.decisions) OVER (PARTITION BY d.player_key) AS decisions_n,
       d.blind, d.cost_sum_num, d.net_sum_num, d.won, d.won / d.decisions AS won_rate
FROM d LEFT JOIN player_names n USING (player_key)
ORDER BY player, d.action;

-- name: session_nets
-- about: The player's net in each session with an ended deal of theirs (the sessions and the net
-- about: of player_stats, one row a session: the Players page's net over time), from the
-- about: per-(session, player) summary, with the session's start (session_started.at).
-- col: session | session | RULES 1 | The session.
-- col: started | time | FORMAT.md | session_started.at as recorded (ISO 8601; NULL: a log without times).
-- col: started_us | microseconds | FORMAT.md | The same instant as UTC microseconds since 1970 (NULL: none, or a text DuckDB cannot read).
-- col: net_t | ticks | RULES 1.5 | The player's net over the session's ended deals, in 1/den stake units.
-- col: den | ticks per stake unit | RULES 1.2 | The session's tick denominator (schema.sql).
SELECT ps.session, s.started, epoch_us(TRY_CAST(s.started AS TIMESTAMPTZ)) AS started_us,
       sum(ps.net_t)::BIGINT AS net_t, any_value(ps.den) AS den
FROM player_session_summary ps LEFT JOIN sessions s USING (session)
WHERE ps.player_key = $player_key
  AND ps.deals > 0
  AND ($table_key::VARCHAR IS NULL
       OR ps.session IN (SELECT session FROM sessions WHERE table_key = $table_key))
  AND ($date_from::VARCHAR IS NULL
       OR ps.session IN (SELECT session FROM sessions
                         WHERE left(started, 10) BETWEEN $date_from AND $date_to))
GROUP BY ps.session, s.started
ORDER BY ps.session;

-- name: deals_behind_total
-- about: What the player's deals behind one statistic add up to (deals_behind over all of them,
-- about: without reading their events): the deals listed, their count and their numerator.
-- about: hits_num: the numerator over $den (money drills: ticks made one denominator).
SELECT count(*) AS deals,
       coalesce(sum(counted), 0)::BIGINT AS counted,
       coalesce(sum(hits * ($den // den)), 0)::HUGEINT AS hits_num
FROM (
    SELECT ({weight})::BIGINT AS counted, ({hit})::BIGINT AS hits, p.den
    FROM player_deals p
    WHERE p.player_key = $player_key
      AND ($session::VARCHAR IS NULL OR p.session = $session)
      AND ($table_key::VARCHAR IS NULL
           OR p.session IN (SELECT session FROM sessions WHERE table_key = $table_key))
      AND ($date_from::VARCHAR IS NULL
           OR p.session IN (SELECT session FROM sessions
                            WHERE left(started, 10) BETWEEN $date_from AND $date_to))
)
WHERE counted > 0;

-- name: dens
SELECT DISTINCT den FROM sessions;

-- name: deals_behind
-- about: The player's ended deals behind one statistic of player_stats (drill-down): per deal,
-- about: what it adds to the statistic's count ($weight) and to its numerator ($hit), with the
-- about: seq of the player's first decision in force (last where $order is -c.seq) of one of
-- about: $actions meeting $at in the deal (else the event that ended it). $weight, $hit, $at, $order are expressions chosen from
-- about: queries.DRILL and DRILL_AT, never user text. A page ($limit, $offset) reads only its
-- about: deals' rows: the player's decisions, the sessions' voids (the ending event's seq and type are the deal's end_seq, end_type).
-- col: session | session | RULES 1 | The session.
-- col: deal | deal | RULES 3.4 | The deal (1-based).
-- col: step | step | FORMAT.md | The event's step within the deal, as the Replay page counts them.
-- col: seq | seq | FORMAT.md | The event's seq in the session's stream.
-- col: event | type | FORMAT.md | The event's type.
-- col: counted | count | RULES 5 | What the deal adds to the statistic's count.
-- col: hits | count | RULES 5 | What the deal adds to the numerator (e.g. sees of see_rate).
-- col: corrected | yes/no | FORMAT.md | The session holds a voided or amended event: its steps are numbered by its timeline (queries.renumber).
WITH pd AS (
    SELECT p.*, d.end_seq, d.end_type, d.events AS deal_events
    FROM player_deals p JOIN deals d USING (session, deal)
    WHERE p.player_key = $player_key
      AND ($session::VARCHAR IS NULL OR p.session = $session)
      AND ($table_key::VARCHAR IS NULL
           OR p.session IN (SELECT session FROM sessions WHERE table_key = $table_key))
      AND ($date_from::VARCHAR IS NULL
           OR p.session IN (SELECT session FROM sessions
                            WHERE left(started, 10) BETWEEN $date_from AND $date_to))
),
picked AS (
    -- One page of the deals ($limit NULL: all), before anything else is read.
    SELECT session, deal, end_seq, end_type, deal_events,
           ({weight})::BIGINT AS counted, ({hit})::BIGINT AS hits
    FROM pd
    WHERE ({weight})::BIGINT > 0
    ORDER BY session, deal
    LIMIT $limit OFFSET $offset
),
own AS (
    -- The player's first decision of $actions in the deal (decisions are those in force, each
    -- with its stored seq and its step as every replay numbers it).
    SELECT c.session, c.deal, arg_min(c.seq, {order}) AS seq, arg_min(c.step, {order}) AS step,
           arg_min(c.action::VARCHAR, {order}) AS action
    FROM decisions c
    WHERE c.player_key = $player_key
      AND list_contains($actions::VARCHAR[], c.action::VARCHAR)
      AND ({at})
      AND (c.session, c.deal) IN (SELECT session, deal FROM picked)
    GROUP BY c.session, c.deal
),
voiding AS (
    -- Sessions with a correction: their voided events (voids_seq is set on those alone, so the
    -- row groups without one are skipped by their statistics) and amended ones (issue 32).
    SELECT DISTINCT session FROM events
    WHERE (voids_seq IS NOT NULL OR type = 'amended') AND session IN (SELECT session FROM picked)
)
SELECT p.session, p.deal,
       coalesce(o.step, p.deal_events) AS step,
       coalesce(o.seq, p.end_seq) AS seq,
       o.action AS own_action,
       p.end_type,
       p.counted, p.hits,
       p.session IN (SELECT session FROM voiding) AS corrected
FROM picked p
LEFT JOIN own o USING (session, deal)
ORDER BY p.session, p.deal;
