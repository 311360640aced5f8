-- The projection's summaries (analytics/summaries.py, issue 37 item 5): per player,
-- player_totals (player_session_summary added up per player and den) and player_seated (each
-- spelling of a key seated, with what player_names orders them by); per night (the date of
-- sessions.started in its own offset), night_totals, night_rule_sets and night_player_nets (what
-- analytics/sql/season.sql sums over a night's sessions). Pure aggregations of the projector's
-- tables; $keys and $days are the players and nights to make again, NULL for all of them.

-- name: touched_by
SELECT DISTINCT 'key' AS kind, player_key AS value FROM session_players
WHERE session IN (SELECT unnest($sessions::VARCHAR[]))
UNION
SELECT DISTINCT 'day', substr(started, 1, 10) FROM sessions
WHERE session IN (SELECT unnest($sessions::VARCHAR[])) AND started IS NOT NULL;

-- name: forget_player_totals
DELETE FROM player_totals WHERE player_key IN (SELECT unnest($keys::VARCHAR[]));

-- name: forget_player_seated
DELETE FROM player_seated WHERE player_key IN (SELECT unnest($keys::VARCHAR[]));

-- name: forget_night_totals
DELETE FROM night_totals WHERE day IN (SELECT unnest($days::VARCHAR[]));

-- name: forget_night_rule_sets
DELETE FROM night_rule_sets WHERE day IN (SELECT unnest($days::VARCHAR[]));

-- name: forget_night_player_nets
DELETE FROM night_player_nets WHERE day IN (SELECT unnest($days::VARCHAR[]));

-- name: insert_player_totals
INSERT INTO player_totals BY NAME
SELECT player_key, den,
       sum(first_deals) AS first_deals, sum(deals) AS deals, sum(net_t) AS net_t,
       sum(pots_won) AS pots_won, sum(pots_won_showdown) AS pots_won_showdown,
       sum(pots_won_uncontested) AS pots_won_uncontested, sum(blind_first) AS blind_first,
       sum(acted) AS acted, sum(blind_bets) AS blind_bets, sum(deals_with_bet) AS deals_with_bet,
       sum(bets) AS bets, sum(raises) AS raises, sum(see_chances) AS see_chances,
       sum(sees) AS sees, sum(payer_showdowns) AS payer_showdowns, sum(payer_wins) AS payer_wins,
       sum(seen_showdowns) AS seen_showdowns, sum(seen_wins) AS seen_wins,
       sum(carried_caused) AS carried_caused, max(biggest_pot_t) AS biggest_pot_t,
       sum(luck_deals) AS luck_deals, sum(luck_net_t) AS luck_net_t,
       sum(adjusted_net_t) AS adjusted_net_t
FROM player_session_summary
WHERE $keys::VARCHAR[] IS NULL OR player_key IN (SELECT unnest($keys::VARCHAR[]))
GROUP BY player_key, den;

-- name: insert_player_seated
INSERT INTO player_seated BY NAME
SELECT sp.player_key, sp.player, count(*) AS seated, min(s.started) AS first_started,
       min(s.last_position) AS first_position
FROM session_players sp JOIN sessions s USING (session)
WHERE $keys::VARCHAR[] IS NULL OR sp.player_key IN (SELECT unnest($keys::VARCHAR[]))
GROUP BY sp.player_key, sp.player;

-- name: insert_night_totals
INSERT INTO night_totals BY NAME
SELECT substr(started, 1, 10) AS day, den, count(*) AS sessions,
       count(*) FILTER (WHERE NOT finished) AS going, sum(pot_t) AS pot_t,
       sum(last_seq) AS seqs, max(last_position) AS last_position
FROM sessions
WHERE started IS NOT NULL
  AND ($days::VARCHAR[] IS NULL OR substr(started, 1, 10) IN (SELECT unnest($days::VARCHAR[])))
GROUP BY ALL;

-- name: insert_night_rule_sets
INSERT INTO night_rule_sets BY NAME
SELECT DISTINCT substr(started, 1, 10) AS day, ante_t, den, open_min, open_max, raise_max,
       pots_rule, blind_play
FROM sessions
WHERE started IS NOT NULL
  AND ($days::VARCHAR[] IS NULL OR substr(started, 1, 10) IN (SELECT unnest($days::VARCHAR[])));

-- name: insert_night_player_nets
INSERT INTO night_player_nets BY NAME
SELECT substr(s.started, 1, 10) AS day, p.player, p.den, sum(p.net_t) AS net_t
FROM session_players p JOIN sessions s USING (session)
WHERE s.started IS NOT NULL
  AND ($days::VARCHAR[] IS NULL
       OR substr(s.started, 1, 10) IN (SELECT unnest($days::VARCHAR[])))
GROUP BY ALL;
