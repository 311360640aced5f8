-- The season's nights read from the projection (service/season.py, issue 37 item 5). A night is
-- taken whole where the projection's sessions of its date add up as the store's do (how many,
-- the sum of their last seqs, the last position: night_sums), else session by session where the
-- projection folded it up to the store's last seq. The sessions taken are the relation
-- brag_night (session VARCHAR, day DATE), registered by analytics/season_parts.py.

-- name: night_sums
-- about: Per local date of the start (started's own offset) from $first to $last (YYYY-MM-DD):
-- about: the projected sessions, the sum of their last seqs and the highest last position.
SELECT CAST(substr(started, 1, 10) AS DATE) AS day, count(*) AS sessions,
       sum(last_seq) AS seqs, max(last_position) AS last_position
FROM sessions
WHERE substr(started, 1, 10) BETWEEN $first AND $last
GROUP BY day;

-- name: night_of_sessions
-- about: Each projected session started on one of the local dates $days (YYYY-MM-DD texts).
SELECT session, CAST(substr(started, 1, 10) AS DATE) AS day
FROM sessions
WHERE list_contains($days, substr(started, 1, 10));

-- name: projected_of
-- about: Those of the store's sessions brag_listed (session, day, last_seq) the projection folded
-- about: up to the store's last seq.
SELECT w.session, w.day
FROM brag_listed w JOIN sessions s ON s.session = w.session AND s.last_seq = w.last_seq;

-- name: night_sessions
-- about: Per night and den: the sessions taken, how many of them are not over (RULES 1.4), and the
-- about: pots on their tables (ticks of den, RULES 6.1).
SELECT n.day, s.den, count(*) AS sessions, count(*) FILTER (WHERE NOT s.finished) AS going,
       sum(s.pot_t) AS pot_t
FROM brag_night n JOIN sessions s USING (session)
GROUP BY n.day, s.den;

-- name: night_rules
-- about: Per night: each set of rule parameters its sessions taken were played under (FORMAT.md
-- about: rules; the ante in ticks of den).
SELECT DISTINCT n.day, s.ante_t, s.den, s.open_min, s.open_max, s.raise_max, s.pots_rule,
       s.blind_play
FROM brag_night n JOIN sessions s USING (session);

-- name: night_nets
-- about: Per night, name as written in the log and den: the sum of the nets over the night's
-- about: sessions taken (ticks of den, RULES 1.5), open deals included.
SELECT n.day, p.player, p.den, sum(p.net_t) AS net_t
FROM brag_night n JOIN session_players p USING (session)
GROUP BY n.day, p.player, p.den;

-- The same from the nights' summaries the projection keeps (analytics/summaries.py), read when
-- meta summaries is 'kept': a few rows a night, not a league's every session.

-- name: night_sums_kept
-- about: night_sums from night_totals.
SELECT CAST(day AS DATE) AS day, sum(sessions) AS sessions, sum(seqs) AS seqs,
       max(last_position) AS last_position
FROM night_totals
WHERE day BETWEEN $first AND $last
GROUP BY day;

-- name: night_sessions_kept
-- about: night_sessions of the nights $days (YYYY-MM-DD texts) taken whole, from night_totals.
SELECT CAST(day AS DATE) AS day, den, sessions, going, pot_t
FROM night_totals WHERE list_contains($days, day);

-- name: night_rules_kept
-- about: night_rules of the nights $days taken whole, from night_rule_sets.
SELECT CAST(day AS DATE) AS day, ante_t, den, open_min, open_max, raise_max, pots_rule,
       blind_play
FROM night_rule_sets WHERE list_contains($days, day);

-- name: night_nets_kept
-- about: night_nets of the nights $days taken whole, from night_player_nets.
SELECT CAST(day AS DATE) AS day, player, den, net_t
FROM night_player_nets WHERE list_contains($days, day);
