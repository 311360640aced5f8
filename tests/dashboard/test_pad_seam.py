"""The pad's seam (issue 23): every key ``pad.js`` (with ``pad_cards.js``, its picker, and
``pad_kept.js``, the copy kept on the device) reads of
its data, a document, a key and a card is one of the Python types that make them
(:mod:`dashboard.record.pad_doc`, :class:`dashboard.record.pad.PadData`), and every key those
types send is read (``finished`` aside: the page's, not the pad's)."""

from __future__ import annotations

import re
from typing import get_type_hints

from dashboard.record.pad_assets import pad_js
from dashboard.record.pad_doc import PadCard, PadCards, PadDocument, PadKey

JS = pad_js()  # the pad's one module: pad_cards.js, pad.js, pad_kept.js (pad_assets.SCRIPTS)


def _read(*names: str) -> set[str]:
    """The properties ``pad.js`` reads of the variables ``names`` (``doc.seq`` -> ``seq``)."""
    out: set[str] = set()
    for name in names:
        out |= set(re.findall(rf"\b{name}\.([a-z_]+)\b", JS))
    return out


def test_the_document_keys_are_the_types_keys() -> None:
    doc = set(get_type_hints(PadDocument))
    assert _read("doc", "next") - {"py"} <= doc  # "doc.py": a comment's file name
    assert doc - _read("doc") == {"finished"}


def test_a_keys_fields_and_its_cards() -> None:
    assert _read("key") == set(get_type_hints(PadKey))
    assert _read(r"key\.cards") == set(get_type_hints(PadCards))
    assert _read("c") == set(get_type_hints(PadCard))


def test_the_component_data() -> None:
    import dashboard.record.pad as pad

    assert _read("data") == set(get_type_hints(pad.PadData))
