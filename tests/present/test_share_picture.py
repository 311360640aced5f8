"""``brag share`` and :mod:`present.share` (issue 21, item 3): a picture holds only what its view
may see at its step (every card checked by its code and by its drawn rank and suit), a showdown's
shown cards are in it, the GIF has one frame a step, the PNG is a PNG of the size said, a
hostile name stays text, and every refusal of the command is one line.

Here :mod:`present.share`; the command in ``tests/cli/test_share_command.py``."""

from __future__ import annotations

import io
import json
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from hostile_helpers import PLAYERS, SESSION, TABLE, hostile_log
from live_helpers import live_session, unshown
from PIL import Image, ImageChops
from share_helpers import LOG, SVG
from share_helpers import faces as _faces

from events.codec import read_file
from present import animation, table_svg
from present.narrate import pretty_card
from present.replay import Replay
from present.share import (
    CAPTION_H,
    GIF_WIDTH,
    LAST_MS,
    PNG_WIDTH,
    ShareRefused,
    Shot,
    parts,
    picture,
    png,
    share,
    sight_of,
    steps,
)


@pytest.fixture(scope="module")
def rp() -> Replay:
    return Replay.of([e for _, e in read_file(str(LOG))])


def _lines() -> list[dict[str, object]]:
    return [json.loads(line) for line in LOG.read_text().splitlines()]


def _deal_lines(deal: int) -> list[dict[str, object]]:
    """The log's lines of deal ``deal`` (from its ``dealt`` to the next), read from the file."""
    out: list[dict[str, object]] = []
    n = 0
    for e in _lines():
        if e["type"] == "dealt":
            n += 1
        if n == deal:
            out.append(e)
    return out


def _dealt_cards(rp: Replay, deal: int) -> set[str]:
    """Every card of the deal's hands, from the engine's state at its first step."""
    state = rp.states[rp.slice(deal).start]
    return {c for p in state.players for h in p.hands for c in (h.texts() or ())}


def _hand(rp: Replay, deal: int, who: str) -> set[str]:
    """``who``'s cards in the deal, from the engine's state at its first step."""
    state = rp.states[rp.slice(deal).start]
    return {c for p in state.players if p.name == who for h in p.hands for c in (h.texts() or ())}


def test_a_player_before_looking_sees_none_of_the_deals_cards(rp: Replay) -> None:
    deal, who = 1, "Margaret"
    cards = _dealt_cards(rp, deal)
    assert len(cards) == 12
    svg = share(sight_of(rp, deal, who), 1, "svg").decode()
    assert _faces(svg) == set()
    for c in cards:  # by its code and by its drawn form, anywhere in the picture
        assert c not in re.findall(r'data-card="([^"]+)"', svg)
        assert pretty_card(c) not in svg
    assert not re.search(r">[♣♦♥♠]</text>", svg)
    # once she has looked (the log's first "looked" of hers in the deal), her three cards and
    # only hers
    lines = _deal_lines(deal)
    looked = next(k for k, e in enumerate(lines) if e == {**e, "type": "looked", "player": who})
    own = _hand(rp, deal, who)
    after = share(sight_of(rp, deal, who), looked + 1, "svg").decode()
    assert _faces(after) == own and len(own) == 3
    before = share(sight_of(rp, deal, who), looked, "svg").decode()
    assert _faces(before) == set()


def test_at_the_showdown_the_picture_holds_the_shown_cards(rp: Replay) -> None:
    deal = 1
    lines = _deal_lines(deal)
    shown = {c for e in lines if e["type"] == "shown" for c in e["cards"]}  # type: ignore[attr-defined]
    players = {e["player"] for e in lines if e["type"] == "shown"}
    assert shown and len(players) == 2
    onlooker = next(p for p in rp.seats if p not in players)
    svg = share(sight_of(rp, deal, onlooker), None, "svg").decode()
    faces = _faces(svg)
    assert shown <= faces
    # the onlooker folded after looking: their own cards and the shown ones, nothing else
    own = _hand(rp, deal, onlooker)
    assert faces <= shown | own
    hidden = _dealt_cards(rp, deal) - shown - own
    assert hidden and not hidden & faces
    for c in hidden:
        assert pretty_card(c) not in svg


def test_a_deal_in_play_is_drawn_as_a_spectator_sees_it_unless_the_organiser() -> None:
    live = Replay.of(live_session())
    secret = unshown(live)
    deal = live.final.deals
    assert live.live_deal == deal and secret
    for viewer in (None, live.seats[0]):
        svg = share(sight_of(live, deal, viewer), None, "svg").decode()
        assert not _faces(svg) & secret
        assert "only the cards shown" in svg
    assert secret <= _faces(share(sight_of(live, deal, None, organiser=True), None, "svg").decode())


def test_the_gif_has_one_frame_per_step_up_to_k(rp: Replay) -> None:
    deal, k = 3, 9
    data = share(sight_of(rp, deal, "Jean"), k, "gif")
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    assert im.n_frames == k
    assert im.size == (GIF_WIDTH, math.ceil(GIF_WIDTH * (540 + CAPTION_H) / 800))
    im.seek(k - 1)
    assert im.info["duration"] == LAST_MS
    # the whole deal without --step: one frame for each of its steps
    whole = Image.open(io.BytesIO(share(sight_of(rp, deal, None), None, "gif")))
    assert whole.n_frames == rp.slice(deal).steps


@pytest.mark.parametrize(("deal", "viewer"), [(5, "Sandra"), (3, None)])
def test_each_gif_frame_is_its_picture_drawn_whole(
    rp: Replay, deal: int, viewer: str | None
) -> None:
    """The frames laid from tiles (present.animation) against each step's picture drawn whole
    at the same scale: the same up to anti-aliasing at a shape's edge (a handful of pixels a
    little lighter or darker), never a stale or a missing text; and laid again from the tiles a
    process keeps, the very same pixels."""
    drawn = [parts(s) for s in steps(sight_of(rp, deal, viewer), 20)]
    w, h = drawn[0][0], drawn[0][1]
    drew: list[str] = []

    def counted(svg: str, width: int) -> bytes:
        drew.append(svg)
        return png(svg, width)

    animation.forget()
    frames = animation.frames(
        [p for _, _, p in drawn], w, h, GIF_WIDTH, font=table_svg.FONT, render=counted
    )
    assert len(frames) == 20
    assert len(drew) == 1  # one sheet: every tile in one drawing
    drew.clear()
    again = animation.frames(
        [p for _, _, p in drawn], w, h, GIF_WIDTH, font=table_svg.FONT, render=counted
    )
    assert drew == []  # every tile kept: nothing drawn again
    assert all(a.tobytes() == b.tobytes() for a, b in zip(frames, again, strict=True))
    k = GIF_WIDTH / w
    tall = round(h * k)
    assert tall == h * k  # whole pixels: the frames and the whole drawing share a grid
    for n, (_, _, p) in enumerate(drawn):
        doc = animation.document(
            w, h, p, font=table_svg.FONT, view=(0, 0, w, tall / k), size=(GIF_WIDTH, tall)
        )
        im = Image.open(io.BytesIO(png(doc, GIF_WIDTH))).convert("RGBA")
        whole = Image.new("RGB", im.size, "#ffffff")
        whole.paste(im, mask=im.getchannel("A"))
        assert frames[n].size == whole.size
        hist = ImageChops.difference(frames[n], whole).convert("L").histogram()
        assert max(i for i, c in enumerate(hist) if c) <= 80, n
        assert sum(hist[25:]) <= 0.001 * GIF_WIDTH * tall, n


def test_a_gif_shows_each_frame_as_laid(rp: Replay) -> None:
    """Each later frame of the GIF holds only its changed pixels, the rest transparent: as a
    viewer shows it (Pillow's reader lays each on the one before), every frame is the frame laid
    by present.animation up to its one palette's rounding, never a stale step."""
    data = share(sight_of(rp, 5, "Sandra"), 12, "gif")
    drawn = [parts(s) for s in steps(sight_of(rp, 5, "Sandra"), 12)]
    w, h = drawn[0][0], drawn[0][1]
    laid = animation.frames(
        [p for _, _, p in drawn], w, h, GIF_WIDTH, font=table_svg.FONT, render=png
    )
    im = Image.open(io.BytesIO(data))
    assert im.n_frames == len(laid) == 12
    for n, frame in enumerate(laid):
        im.seek(n)
        shown = im.convert("RGB")
        hist = ImageChops.difference(shown, frame).convert("L").histogram()
        assert sum(hist[48:]) <= 0.001 * frame.width * frame.height, n
        if n:  # the step changed something the viewer sees: not the frame before
            assert ImageChops.difference(frame, laid[n - 1]).getbbox() is not None


def test_a_part_is_cut_into_leaves_that_keep_their_groups() -> None:
    """Each element that is not a plain group is a leaf inside its groups' opening tags (their
    data-* attributes off); a group drawn as a whole (opacity) is one leaf, its data kept."""
    part = (
        '<g transform="translate(0,105)"><g data-seat="Jean" data-paid="1&#189;" '
        'transform="translate(400.0,470.0) scale(1.0)"><rect x="-98.0" y="-61.0" width="196" '
        'height="122"/><text x="-86.0" y="-37.0">Jean &#60;b&#62;</text>'
        '<g data-card="As" opacity="0.55"><rect x="1" y="2" width="3" height="4"/>'
        '<text x="2">A</text></g></g><circle cx="1" cy="2" r="3"/></g>'
    )
    outer = '<g transform="translate(0,105)">'
    seat = '<g transform="translate(400.0,470.0) scale(1.0)">'
    assert list(animation.leaves(part)) == [
        outer + seat + '<rect x="-98.0" y="-61.0" width="196" height="122"/></g></g>',
        outer + seat + '<text x="-86.0" y="-37.0">Jean &#60;b&#62;</text></g></g>',
        outer
        + seat
        + '<g data-card="As" opacity="0.55"><rect x="1" y="2" width="3" height="4"/>'
        + '<text x="2">A</text></g></g></g>',
        outer + '<circle cx="1" cy="2" r="3"/></g>',
    ]
    # a leaf's box is where it lies in the picture: the seat's rectangle moved by both groups
    b = animation.box(animation.leaves(part)[0])
    assert b is not None
    m = animation.MARGIN
    assert b == (400 - 98 - m, 105 + 470 - 61 - m, 400 + 98 + m, 105 + 470 + 61 + m)


def test_the_png_is_a_png_of_the_size_said(rp: Replay) -> None:
    data = share(sight_of(rp, 2, None), 4, "png")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.format == "PNG"
    assert im.size == (PNG_WIDTH, math.ceil(PNG_WIDTH * (540 + CAPTION_H) / 800))
    # drawn, not blank: the felt's green is in it
    colours = {c for _, c in im.convert("RGB").getcolors(1 << 20) or []}
    assert (0x1F, 0x6F, 0x43) in colours


def test_the_caption_names_the_step(rp: Replay) -> None:
    shot = steps(sight_of(rp, 3, "Jean"), 12, whole=False)
    assert len(shot) == 1
    texts = [t.text for t in ET.fromstring(picture(shot[0])).iter(f"{SVG}text")]
    last = rp.slice(3).steps
    assert f"Deal 3 · Step 12 of {last}" in texts
    assert rp.labels[rp.position(3, 12).index].text.startswith(texts[2] or "?")


def test_hostile_names_stay_text(tmp_path: Path) -> None:
    events = [e for _, e in read_file(str(hostile_log(tmp_path)))]
    rp = Replay.of(events)
    # the organiser's device: the session is unfinished, so a visitor sees deal 1 as a spectator
    svg = share(sight_of(rp, 1, PLAYERS["D"], organiser=True), None, "svg").decode()
    root = ET.fromstring(svg)  # well-formed: every name escaped
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert tags <= {"svg", "g", "rect", "text", "circle", "ellipse"}
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert f"{SESSION} at {TABLE}" in texts  # the caption's head
    # a seat's name, shortened as the page shortens it: a start of it and "…" (issue 21)
    assert any(t.endswith("…") and PLAYERS["D"].startswith(t[:-1]) and len(t) > 4 for t in texts)
    assert f"seen by {PLAYERS['D']}" in texts
    # a control character an older store let through is shown as its escape, the XML stays good
    shot = steps(sight_of(rp, 1, None), 2, whole=False)[0]
    seats = list(shot.view.seats)
    seats[0] = replace(seats[0], name="Ann\x1b[31m\x00")
    odd = Shot(shot.label, replace(shot.view, seats=tuple(seats), session="s\x07"), shot.last)
    doc = picture(odd)
    ET.fromstring(doc)
    assert "Ann\\x1b" in doc and "\x1b" not in doc and "\x07" not in doc


def test_steps_refuses_what_the_replay_does_not_have(rp: Replay) -> None:
    before = steps(sight_of(rp, 0))  # what comes before the first deal, as the page shows it
    assert [s.label.deal for s in before] == [0] * rp.slice(0).steps
    with pytest.raises(ShareRefused, match="there is no step 0"):
        steps(sight_of(rp, 1), 0)
    with pytest.raises(ValueError, match=re.escape("a picture is .svg, .png or .gif")):
        share(sight_of(rp, 1, None), 1, "bmp")
