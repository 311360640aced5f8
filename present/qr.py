"""The QR code of an address, for a second device to join: as a PNG for the Record page and as
text for the terminal (``brag dashboard --lan``). Made by segno (pure Python, no image
library)."""

from __future__ import annotations

import io

import segno


def code(url: str) -> segno.QRCode:
    """The QR code of ``url`` (error correction M, the smallest version that holds it)."""
    return segno.make_qr(url, error="m")


def png(url: str, scale: int = 5) -> bytes:
    """A PNG of the code of ``url``, black on white with its quiet zone, ``scale`` pixels a
    module."""
    out = io.BytesIO()
    code(url).save(out, kind="png", scale=scale)
    return out.getvalue()


def terminal(url: str) -> str:
    """The code of ``url`` drawn with half blocks for a terminal (two modules a character),
    dark on light whatever the terminal's colours."""
    out = io.StringIO()
    code(url).terminal(out=out, compact=True)
    return out.getvalue()
