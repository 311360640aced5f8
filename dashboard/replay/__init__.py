"""The Replay feature: the Sessions and Session pages that open a replay, the Replay page, the
replayer component (``replayer*.js``, its frames and odds), notes on a step (panel and routes), and
the shared picture of a step (:mod:`~dashboard.replay.share`)."""
