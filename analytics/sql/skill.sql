-- The rows behind the figures of analytics/skill.py and the ratings of analytics/ratings.py
-- (issue 37): one row per (session, player) from player_session_summary, with the session's
-- start and state. Parameters: $table_key narrows to one table (NULL: all); $since and $until
-- (YYYY-MM-DD, NULL: open) to the sessions started on those local dates or between (a season:
-- the date of `started` in its own offset; a session without a time is then left out).

-- name: skill_rows
-- about: Each player's part in each session with an ended deal: deals, net, the deals with a luck
-- about: term and their net and adjusted net (ticks of den), the session's start, cards and whether
-- about: it is over; in order of play (by start, sessions without a time last, then by id).
SELECT ps.session,
       coalesce(n.player, ps.player) AS player,
       s.started,
       s.finished,
       s.cards,
       ps.den,
       ps.deals,
       ps.net_t,
       ps.luck_deals,
       ps.luck_net_t,
       ps.adjusted_net_t
FROM player_session_summary ps
JOIN sessions s USING (session)
LEFT JOIN player_names n USING (player_key)
WHERE ($table_key::VARCHAR IS NULL OR s.table_key = $table_key)
  AND ($since::VARCHAR IS NULL OR substr(s.started, 1, 10) >= $since)
  AND ($until::VARCHAR IS NULL OR substr(s.started, 1, 10) <= $until)
ORDER BY TRY_CAST(s.started AS TIMESTAMPTZ) NULLS LAST, ps.session, player;

-- name: rated_rows
-- about: The sessions the ratings place (analytics/ratings.py): over, every row's every deal with a
-- about: luck term; per (session, player) the adjusted net in ticks of the session's den, and the
-- about: den (one a session), in order of play (by start, sessions without a time last, then by id).
WITH whole AS (
    SELECT ps.session
    FROM player_session_summary ps JOIN sessions s USING (session)
    WHERE s.finished AND ($table_key::VARCHAR IS NULL OR s.table_key = $table_key)
    GROUP BY ps.session
    HAVING bool_and(ps.deals > 0 AND ps.luck_deals = ps.deals)
)
SELECT ps.session, coalesce(n.player, ps.player) AS player, sum(ps.adjusted_net_t) AS adjusted_t,
       max(ps.den) AS den
FROM player_session_summary ps
JOIN whole USING (session)
JOIN sessions s USING (session)
LEFT JOIN player_names n USING (player_key)
GROUP BY ps.session, s.started, coalesce(n.player, ps.player)
ORDER BY TRY_CAST(s.started AS TIMESTAMPTZ) NULLS LAST, ps.session, player;
