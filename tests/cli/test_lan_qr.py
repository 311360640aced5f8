"""Joining from a tablet (issue 11.5): ``brag dashboard --lan`` prints the Record page's LAN
address and a QR code that decodes, read back from the terminal's characters, to that address
(zxing-cpp); the Record page's own code decodes to its address too; ``--lan`` is off by default
and does not mix with ``--address``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from brag.cmd_app import lan_address, lan_banner

zxingcpp = pytest.importorskip("zxingcpp")

# One character is two modules, top and bottom (segno's compact terminal output: light modules
# drawn, dark ones left blank).
HALVES = {"█": (1, 1), " ": (0, 0), "▀": (1, 0), "▄": (0, 1)}


def modules(lines: list[str]) -> np.ndarray:
    """The QR code's modules (1 light, 0 dark) read back from its terminal characters."""
    rows: list[list[int]] = [[], []]
    out: list[list[int]] = []
    for line in lines:
        rows = [[HALVES[c][0] for c in line], [HALVES[c][1] for c in line]]
        out += rows
    return np.array(out, dtype=np.uint8)


def decode(light: np.ndarray, scale: int = 8) -> str:
    image = (np.kron(light, np.ones((scale, scale), dtype=np.uint8)) * 255).astype(np.uint8)
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, found
    return str(found[0].text)


def test_the_printed_code_decodes_to_the_printed_address() -> None:
    url = f"http://{lan_address() or '192.168.1.20'}:8501/record"
    lines = lan_banner(url).splitlines()
    assert lines[0] == f"On the club's network: {url}"
    printed = lines[0].split(": ", 1)[1]
    code = [ln for ln in lines[2:] if ln]
    assert code and all(set(ln) <= set(HALVES) for ln in code)
    assert decode(modules(code)) == printed


def test_the_record_pages_code_decodes_to_its_address() -> None:
    import io

    from PIL import Image

    from present import qr

    url = "http://192.168.1.20:8501/record"
    image = np.array(Image.open(io.BytesIO(qr.png(url))).convert("L"))
    assert zxingcpp.read_barcodes(image)[0].text == url


@pytest.mark.slow
def test_lan_is_its_own_option(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "brag.cli", "dashboard", "--lan", "--address", "10.1.2.3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert out.returncode == 1
    assert out.stderr.strip().splitlines()[-1] == "brag: give --lan or --address, not both"
    helped = subprocess.run(
        [sys.executable, "-m", "brag.cli", "dashboard", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert "--lan" in helped.stdout and "off by default" in helped.stdout
