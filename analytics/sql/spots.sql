-- The decision explorer (analytics/spots.py): the decisions of one spot, counted by player and
-- action, and the rows behind each count. Every field of a decision (who was in, blind or seen,
-- the level, the pot, the hand category) was decided by the engine when the decisions table was
-- written (schema.sql); these queries only filter and count.
--
-- Parameters, NULL meaning "any" (analytics.spots.Spot.params binds them):
--   $players_lo, $players_hi     players_in between them (inclusive)
--   $actor_seen                  the deciding player seen (true) or blind (false) before deciding
--   $ob_lo, $ob_hi               opponents_blind between them (inclusive)
--   $os_lo, $os_hi               opponents_seen between them (inclusive)
--   $level_lo, $level_hi         level between them (whole stake units, inclusive; 0: no bet yet)
--   $pot_lo_num, $pot_lo_den     the pot at least pot_lo_num / pot_lo_den stake units
--   $pot_hi_num, $pot_hi_den     the pot under pot_hi_num / pot_hi_den stake units
--   $hand                        the player's hand category (RULES 2.2) where the log knows it
--   $table_key, $cards           the sessions of one table (normal form) / cards mode (all|shown)
-- Money: pot_t and net_t are ticks of the row's den; a pot bound a/b is compared exactly as
-- pot_t * b >= a * den. $den is the least common multiple of the sessions' den.

-- name: spot_filter
-- about: The conditions that pick a spot's decisions (a fragment: spot_counts and spot_rows put it
-- about: in place of {spot_filter}; analytics.spots fills it, never user text).
($players_lo::INTEGER IS NULL OR players_in >= $players_lo)
  AND ($players_hi::INTEGER IS NULL OR players_in <= $players_hi)
  AND ($actor_seen::BOOLEAN IS NULL OR actor_seen = $actor_seen)
  AND ($ob_lo::INTEGER IS NULL OR opponents_blind >= $ob_lo)
  AND ($ob_hi::INTEGER IS NULL OR opponents_blind <= $ob_hi)
  AND ($os_lo::INTEGER IS NULL OR opponents_seen >= $os_lo)
  AND ($os_hi::INTEGER IS NULL OR opponents_seen <= $os_hi)
  AND ($level_lo::INTEGER IS NULL OR coalesce(level, 0) >= $level_lo)
  AND ($level_hi::INTEGER IS NULL OR coalesce(level, 0) <= $level_hi)
  AND ($pot_lo_num::BIGINT IS NULL OR pot_t * $pot_lo_den >= $pot_lo_num * den)
  AND ($pot_hi_num::BIGINT IS NULL OR pot_t * $pot_hi_den < $pot_hi_num * den)
  AND ($hand::VARCHAR IS NULL OR hand_category = $hand)
  AND ($table_key::VARCHAR IS NULL
       OR session IN (SELECT session FROM sessions WHERE table_key = $table_key))
  AND ($cards::VARCHAR IS NULL OR cards_mode = $cards)

-- name: winning_players
-- about: The club's winning players over the scope ($table_key, $cards): players whose total net
-- about: over their ended deals is above zero, with at least $min_deals deals.
-- col: player_key | name | RULES 1.5 | The player's name in its normal form (events.text.normal).
-- col: player | name | RULES 1.3 | The player's name as seated most often (player_names).
-- col: deals | deals | RULES 3.4 | Ended deals the player was dealt into.
-- col: net_num | stake units / $den | RULES 1.5 | Total net, a numerator over $den.
SELECT player_key, coalesce(any_value(n.player), player_key) AS player,
       sum(deals)::BIGINT AS deals, sum(net_t * ($den // den)) AS net_num
FROM player_session_summary LEFT JOIN player_names n USING (player_key)
WHERE ($table_key::VARCHAR IS NULL
       OR session IN (SELECT session FROM sessions WHERE table_key = $table_key))
  AND ($cards::VARCHAR IS NULL OR session IN (SELECT session FROM sessions WHERE cards = $cards))
GROUP BY player_key
HAVING sum(net_t * ($den // den)) > 0 AND sum(deals) >= $min_deals
ORDER BY net_num DESC, player_key;

-- name: spot_counts
-- about: The spot's decisions per player and action: how many, and the sums of the deciding
-- about: player's net in the deal (for the mean and its standard error).
-- col: player_key | name | RULES 1.3 | The deciding player (normal form).
-- col: action | action | RULES 5, 6 | look, bet, see, fold, concede, retain, keep or throw.
-- col: n | decisions | RULES 5 | Decisions of the player with that action in the spot.
-- col: net_num | stake units / $den | RULES 1.5 | Sum over those decisions of the player's net in the deal.
-- col: net_sq | (stake units / $den)^2 | RULES 1.5 | Sum of the squares of those nets.
WITH spot AS (
    SELECT player_key, action, net_t * ($den // den) AS net_num
    FROM decisions
    WHERE {spot_filter}
)
SELECT player_key, action, count(*) AS n, sum(net_num) AS net_num,
       sum(net_num::HUGEINT * net_num) AS net_sq
FROM spot
GROUP BY player_key, action;

-- name: spot_rows
-- about: The decisions behind one cell (drill-down): the spot's decisions of one group
-- about: ($group: player, field or winners; $player_key the player examined, $winners the winning
-- about: players' keys) with one action ($action; NULL: every action, the denominator), each with
-- about: the step to replay.
-- col: session | session | RULES 1 | The session.
-- col: deal | deal | RULES 3.4 | The deal (1-based).
-- col: step | step | FORMAT.md | The decision's step within the deal, as brag replay and the Replay page number it.
-- col: seq | seq | FORMAT.md | The decision's event seq in the session's stream.
-- col: player | name | RULES 1.3 | The deciding player.
-- col: action | action | RULES 5, 6 | What they did.
-- col: net_t | ticks | RULES 1.5 | The player's net in the deal, ticks of den.
-- col: den | ticks per stake unit | RULES 1.2 | The session's den.
SELECT session, deal, step, seq, player, action, net_t, den
FROM decisions
WHERE {spot_filter}
  AND ($action::VARCHAR IS NULL OR action = $action)
  AND CASE $group::VARCHAR
        WHEN 'player' THEN player_key = $player_key
        WHEN 'field' THEN player_key IS DISTINCT FROM $player_key
        WHEN 'winners' THEN player_key IS DISTINCT FROM $player_key
                            AND list_contains($winners::VARCHAR[], player_key)
      END
ORDER BY session, deal, seq;

-- name: cube_build
-- about: The decisions' cube (analytics.spots.Cube): their counts and net sums per player and
-- about: action in every cell of the spot grid: the actor blind or seen, opponents blind and seen
-- about: (3 meaning 3 or more), players in (7 meaning 7 or more), the level band and the pot
-- about: band (analytics.spots.LEVEL_BANDS, POT_BANDS: $level_1..$level_3 are the upper edges of
-- about: the level bands after 0, $pot_1..$pot_4 the pot bands' edges in whole stake units), the
-- about: hand category, the cards mode and the table. A spot on the grid's lines is answered
-- about: from it without reading the decisions again.
-- col: n | decisions | RULES 5 | Decisions in the cell.
-- col: s | ticks of den | RULES 1.5 | Sum of the deciding players' nets in the deal.
-- col: q | (ticks of den)^2 | RULES 1.5 | Sum of their squares.
SELECT d.actor_seen,
       least(d.opponents_blind, 3) AS ob,
       least(d.opponents_seen, 3) AS os,
       least(d.players_in, 7) AS pin,
       CASE WHEN coalesce(d.level, 0) = 0 THEN 0
            WHEN d.level <= $level_1 THEN 1
            WHEN d.level <= $level_2 THEN 2
            WHEN d.level <= $level_3 THEN 3
            ELSE 4 END AS lb,
       CASE WHEN d.pot_t < $pot_1 * d.den THEN 0
            WHEN d.pot_t < $pot_2 * d.den THEN 1
            WHEN d.pot_t < $pot_3 * d.den THEN 2
            WHEN d.pot_t < $pot_4 * d.den THEN 3
            ELSE 4 END AS pb,
       d.hand_category, d.cards_mode, s.table_key, d.player_key, d.action::VARCHAR AS action,
       d.den, count(*) AS n, sum(d.net_t)::BIGINT AS s,
       sum(d.net_t::BIGINT * d.net_t)::BIGINT AS q
FROM decisions d JOIN sessions s USING (session)
GROUP BY ALL;

-- name: cube_players
-- about: Each player's deals and net per table, cards mode and den (from player_session_summary),
-- about: for the winning players of any scope without reading the summary again.
SELECT p.player_key, s.table_key, s.cards, p.den, sum(p.deals)::BIGINT AS deals,
       sum(p.net_t)::BIGINT AS net_t
FROM player_session_summary p JOIN sessions s USING (session)
GROUP BY ALL;

-- name: cube_filter
-- about: The conditions that pick a spot's cells of the cube (a fragment, as spot_filter): the
-- about: bounds are indices of the grid's bands (analytics.spots.Cube.params).
($actor_seen::BOOLEAN IS NULL OR actor_seen = $actor_seen)
  AND ($ob_lo::INTEGER IS NULL OR ob >= $ob_lo) AND ($ob_hi::INTEGER IS NULL OR ob <= $ob_hi)
  AND ($os_lo::INTEGER IS NULL OR os >= $os_lo) AND ($os_hi::INTEGER IS NULL OR os <= $os_hi)
  AND ($pin_lo::INTEGER IS NULL OR pin >= $pin_lo) AND ($pin_hi::INTEGER IS NULL OR pin <= $pin_hi)
  AND ($lb_lo::INTEGER IS NULL OR lb >= $lb_lo) AND ($lb_hi::INTEGER IS NULL OR lb <= $lb_hi)
  AND ($pb_lo::INTEGER IS NULL OR pb >= $pb_lo) AND ($pb_hi::INTEGER IS NULL OR pb <= $pb_hi)
  AND ($hand::VARCHAR IS NULL OR hand_category = $hand)
  AND ($table_key::VARCHAR IS NULL OR table_key = $table_key)
  AND ($cards::VARCHAR IS NULL OR cards_mode = $cards)

-- name: cube_counts
-- about: spot_counts from the cube: the spot's decisions per player and action, net sums over $den.
SELECT player_key, action, sum(n)::BIGINT AS n, sum(s * ($den // den)) AS net_num,
       sum(q::HUGEINT * ($den // den) * ($den // den)) AS net_sq
FROM cube
WHERE {cube_filter}
GROUP BY player_key, action;

-- name: cube_winners
-- about: winning_players from the cube's players table.
SELECT player_key, sum(deals)::BIGINT AS deals, sum(net_t * ($den // den)) AS net_num
FROM players
WHERE ($table_key::VARCHAR IS NULL OR table_key = $table_key)
  AND ($cards::VARCHAR IS NULL OR cards = $cards)
GROUP BY player_key
HAVING sum(net_t * ($den // den)) > 0 AND sum(deals) >= $min_deals
ORDER BY net_num DESC, player_key;

-- name: cube_grid
-- about: Every cell of the grid (actor, opponents blind and seen, level band, pot band) with its
-- about: decisions per action for the player ($player_key) and for the winning players
-- about: ($winners), over one table's and cards mode's sessions: biggest differences.
SELECT actor_seen, ob, os, lb, pb, action,
       sum(n) FILTER (WHERE player_key = $player_key)::BIGINT AS mine,
       sum(n) FILTER (WHERE list_contains($winners::VARCHAR[], player_key))::BIGINT AS theirs
FROM cube
WHERE ($table_key::VARCHAR IS NULL OR table_key = $table_key)
  AND ($cards::VARCHAR IS NULL OR cards_mode = $cards)
  AND (player_key = $player_key OR list_contains($winners::VARCHAR[], player_key))
GROUP BY ALL;
