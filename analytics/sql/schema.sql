-- The projection's views and the statements on its tables (DuckDB). The tables, their comments
-- and their inserts are made from analytics/columns.py, which declares each column once (the
-- bookkeeping tables: analytics/tables.py). Facts come from the engine's replay
-- (analytics/facts.py); the statistics (stats.sql) only aggregate them.
--
-- Money is exact (RULES 1.2). Every amount is a BIGINT count of *ticks* (columns ending in _t),
-- 1/den stake units, with den the session's 2 x ante denominator (den = 2 for the default ante
-- of 1). Levels are whole units and a blind player pays half a level (RULES 5.3, 5.5), so every
-- amount of a session is a whole number of ticks: no rounding anywhere. DECIMAL(18,6) would be
-- exact for halves but not for an ante of 1/3 (ticks of 1/6); ticks plus den are exact for any
-- ante. Sums over sessions use a common denominator: the statistics take the least common
-- multiple of the dens as the bound parameter $den and add net_t * ($den // den).

-- name: create_views
-- One name, one player (docs/format.md "Choices where RULES.md is silent"): player_key and
-- table_key are the names' normal form (events.text.normal: Ann, ann and a Cyrillic look-alike
-- are one player). Each key is shown under the spelling seated in the most sessions, then the
-- one first started, then the one first stored; a key the club's register names (a merge or a
-- rename, register_names) is shown under the register's name.
CREATE VIEW IF NOT EXISTS player_names AS
SELECT player_key, coalesce(r.player, seated.player) AS player FROM (
    SELECT sp.player_key, sp.player,
           row_number() OVER (PARTITION BY sp.player_key
                              ORDER BY count(*) DESC, min(s.started) NULLS LAST,
                                       min(s.last_position), sp.player) AS k
    FROM session_players sp JOIN sessions s USING (session)
    GROUP BY sp.player_key, sp.player
) seated LEFT JOIN register_names r USING (player_key) WHERE k = 1;
-- The same names from player_seated (analytics/summaries.py: a row a spelling, not a
-- league's every seat), for a reader that found meta summaries 'kept'.
CREATE VIEW IF NOT EXISTS player_names_kept AS
SELECT player_key, coalesce(r.player, seated.player) AS player FROM (
    SELECT player_key, player,
           row_number() OVER (PARTITION BY player_key
                              ORDER BY seated DESC, first_started NULLS LAST, first_position,
                                       player) AS k
    FROM player_seated
) seated LEFT JOIN register_names r USING (player_key) WHERE k = 1;
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

-- name: drop_views
DROP VIEW IF EXISTS player_names;
DROP VIEW IF EXISTS player_names_kept;
DROP VIEW IF EXISTS table_names;

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

-- name: read_checkpoint
SELECT position, events FROM checkpoint WHERE id = 1;

-- name: write_checkpoint
INSERT OR REPLACE INTO checkpoint VALUES (1, $position, $events);

-- name: luck_history_players
SELECT DISTINCT player_key FROM luck_history ORDER BY player_key;
