"""The raster process (the pictures drawn apart from the server, issue 33) ends with a killed
dashboard, served as brag serves it (browser_helpers.dashboard, a store filled by brag). The rest of
the pictures' process is tested in tests/dashboard/test_pictures_apart.py."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.slow
def test_the_raster_process_ends_with_a_killed_server(tmp_path: Any) -> None:
    """``kill -9`` of the dashboard's server takes its raster process with it (class 7)."""
    import os
    import signal
    import urllib.request
    from pathlib import Path

    psutil = pytest.importorskip("psutil")
    from browser_helpers import dashboard, season_env

    env = season_env(Path(tmp_path), sessions=1)
    with dashboard(Path(tmp_path), env, address="127.0.0.1") as url:
        port = int(url.rsplit(":", 1)[1])
        server = next(
            c.pid
            for c in psutil.net_connections("tcp")
            if c.laddr and c.laddr.port == port and c.status == "LISTEN"
        )
        with urllib.request.urlopen(
            f"{url}/api/picture.png?session=2026-09-24-top-1&deal=1&step=3"
        ) as r:
            assert r.status == 200 and r.read(4) == b"\x89PNG"
        kids = psutil.Process(server).children(recursive=True)
        assert any("spawn_main" in " ".join(k.cmdline()) for k in kids)
        os.kill(server, signal.SIGKILL)
        _, left = psutil.wait_procs(kids, timeout=5)
        assert left == [], f"still running 5 s after the server was killed: {left}"
