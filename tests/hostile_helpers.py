"""Hostile names for the dashboard tests (issue 13, item 8): a valid session log whose players,
table and session id are Markdown that would make a link, an image, coloured text, LaTeX or HTML
if any page rendered them as Markdown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "data" / "examples" / "card_example.jsonl"

PLAYERS = {
    "A": "[Log in again](https://attacker.example/login)",
    "B": "![b](https://attacker.example/p.png)",
    "C": ":red[C] $x^2$ **C** <https://attacker.example/c>",
    "D": "<img src=https://attacker.example/d.png>",
}
TABLE = "![t](https://attacker.example/t.png)"
SESSION = "evil [s](https://attacker.example/s)"


def _swap(value: Any) -> Any:
    if isinstance(value, str):
        return PLAYERS.get(value, value)
    if isinstance(value, list):
        return [_swap(v) for v in value]
    if isinstance(value, dict):
        return {PLAYERS.get(k, k): _swap(v) for k, v in value.items()}
    return value


def hostile_log(folder: Path) -> Path:
    """The card example (one deal, pot won by B at a showdown) played by the hostile names at the
    hostile table, as a log file in ``folder`` (ids left out: the store gives new ones)."""
    out = []
    for line in CARD.read_text().splitlines():
        e = json.loads(line)
        e.pop("id", None)
        e = {k: (v if k in ("type", "cards", "hand") else _swap(v)) for k, v in e.items()}
        if e["type"] == "session_started":
            e["session"] = SESSION
            e["table"] = TABLE
        out.append(json.dumps(e))
    path = folder / "hostile.jsonl"
    path.write_text("\n".join(out) + "\n")
    return path
