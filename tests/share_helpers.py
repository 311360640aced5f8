"""The picture of ``brag share`` read back (shared by tests/present/test_share_picture.py and
tests/cli/test_share_command.py): the season log drawn, and the faces an SVG draws. Imports none
of our packages."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "2026-09-24-top-1"  # four players, every card recorded
LOG = ROOT / "data" / "season" / f"{NAME}.jsonl"
SVG = "{http://www.w3.org/2000/svg}"


def faces(svg: str) -> set[str]:
    """The cards drawn face up: each ``data-card`` group with its rank and its suit drawn in it,
    read back as card codes (``"Tc"``)."""
    rank_of = {"10": "T"}
    suit_of = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
    root = ET.fromstring(svg)
    out = set()
    for g in root.iter(f"{SVG}g"):
        code = g.get("data-card")
        if code is None or code == "down":
            continue
        texts = [t.text for t in g.iter(f"{SVG}text")]
        assert len(texts) == 2, texts
        drawn = rank_of.get(texts[0] or "", texts[0] or "") + suit_of[texts[1] or ""]
        assert drawn == code  # the code and the drawn face say the same card
        out.add(drawn)
    return out
