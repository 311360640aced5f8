-- The projection's rows per player (analytics/player_rows.py, issue 37 item 5): player_totals
-- (player_session_summary added up per player and den) and player_seated (each spelling of a
-- key seated, with what player_names orders them by). Pure aggregations of the projector's
-- tables; $keys is the player keys to make again, NULL for every player.

-- name: keys_of
SELECT DISTINCT player_key FROM session_players
WHERE session IN (SELECT unnest($sessions::VARCHAR[]));

-- name: forget_totals
DELETE FROM player_totals WHERE player_key IN (SELECT unnest($keys::VARCHAR[]));

-- name: forget_seated
DELETE FROM player_seated WHERE player_key IN (SELECT unnest($keys::VARCHAR[]));

-- name: insert_totals
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

-- name: insert_seated
INSERT INTO player_seated BY NAME
SELECT sp.player_key, sp.player, count(*) AS seated, min(s.started) AS first_started,
       min(s.last_position) AS first_position
FROM session_players sp JOIN sessions s USING (session)
WHERE $keys::VARCHAR[] IS NULL OR sp.player_key IN (SELECT unnest($keys::VARCHAR[]))
GROUP BY sp.player_key, sp.player;
