"""The showdown's card picker for a thumb (issue 35, item 1), in Debian's Chromium with touch on a
phone (390×844) and a tablet in portrait (820×1180), on the Record page of a ``cards: "shown"``
session at its showdown:

- every key of the showdown (ranks, take back, suits, the confirming key, Undo) is at least
  44×44 px, with the status line and the table's picture still on the first screen;
- a card is its rank then its suit; the confirming key names the cards picked, its text not
  cut (its cards' line no wider than the key); ⌫ takes a card back, one for a double tap;
- a card the tracked pack rules out (RULES 3.3) is greyed and not picked: a tap on it, or a long
  press, says the engine's reason in the line under the picker, also its title;
- the show is recorded with the cards picked; in a blind-against-blind showdown a card shown by
  one player is greyed for the other (RULES 3.4).

It skips, saying why, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PAD, chromium, pick_cards, served_store, unlock
from test_pad_trust import SECRET, events, idle, open_pad, pad_eval, tap, touch_page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
THUMB = 44
SHOTS = Path(__file__).resolve().parents[1] / "artifacts"


def _bet(p: str) -> dict[str, Any]:
    return {"type": "bet", "player": p, "level": 1}


def _fold(p: str) -> dict[str, Any]:
    return {"type": "folded", "player": p}


def _pack_log(session: str) -> list[dict[str, Any]]:
    """Ann, Margaret, Cal, Dee (Dee deals first): at deal 1's showdown Margaret shows Q♠ Q♥ 2♦
    and Ann Q♦ Q♣ 3♠; deal 2 ends with no showdown; in deal 3 Dee sees Cal, who is to show (none
    of those six cards can have come round to Cal's hand: RULES 3.3)."""
    seats = ["Ann", "Margaret", "Cal", "Dee"]
    looks = [{"type": "looked", "player": p} for p in seats]
    return [
        {"type": "session_started", "session": session, "seats": seats, "cards": "shown"},
        {"type": "dealer_chosen", "player": "Dee"},
        {"type": "shuffled"},
        {"type": "dealt"},
        *looks,
        *[_bet("Ann"), _bet("Margaret"), _fold("Cal"), _fold("Dee")],
        {"type": "saw", "player": "Ann"},
        {"type": "shown", "player": "Margaret", "cards": ["Qs", "Qh", "2d"]},
        {"type": "shown", "player": "Ann", "cards": ["Qd", "Qc", "3s"]},
        {"type": "dealt"},
        *looks,
        *[_bet("Margaret"), _fold("Cal"), _fold("Dee"), _fold("Ann")],
        {"type": "dealt"},
        *looks,
        *[_bet("Cal"), _bet("Dee"), _fold("Ann"), _fold("Margaret"), _bet("Cal")],
        {"type": "saw", "player": "Dee"},
    ]


def _blind_log(session: str) -> list[dict[str, Any]]:
    """Ann and Bob stay blind, Cal and Dee fold, Ann sees Bob: a card each, in turn (RULES 5.8)."""
    return [
        {"type": "session_started", "session": session, "seats": ["Ann", "Bob", "Cal", "Dee"],
         "cards": "shown"},
        {"type": "dealer_chosen", "player": "Dee"},
        {"type": "shuffled"},
        {"type": "dealt"},
        *[_bet("Ann"), _bet("Bob"), _fold("Cal"), _fold("Dee")],
        {"type": "saw", "player": "Ann"},
    ]  # fmt: skip


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The dashboard over a shown-cards session at its showdown per screen, and a blind one."""
    chromium()
    tmp = tmp_path_factory.mktemp("showdown")

    def fill(store: Any) -> None:
        logs = {"pack-phone": _pack_log, "pack-tablet": _pack_log, "blind": _blind_log}
        for name, log in logs.items():
            path = tmp / f"{name}.jsonl"
            path.write_text("".join(json.dumps(e) + "\n" for e in log(name)))
            store.import_log(str(path))

    with served_store(tmp, SECRET, fill) as served:
        yield served


KEYS = f"""() => {{
  // Every key of the showdown as drawn: the picker's, and the pad's keys that stand there.
  const pad = ({PAD})();
  const boxes = [...pad.querySelectorAll('.cards button, button[data-spot]')]
    .filter(b => !b.classList.contains('t-empty'))
    .map(b => {{ const r = b.getBoundingClientRect();
                return [b.dataset.rank || b.dataset.suit || b.dataset.pick || b.dataset.spot,
                        r.width, r.height, r.bottom]; }});
  const status = pad.querySelector('.status').getBoundingClientRect();
  const table = [...document.querySelectorAll('.brag-table svg')]
    .map(s => s.getBoundingClientRect()).find(r => r.width > 0);
  return {{ boxes, status: [status.top, status.bottom], table: table ? table.top : null,
           height: innerHeight }};
}}"""

CONFIRMING = f"""() => {{
  // The confirming key: its text, whether it is enabled, and whether any of its text is cut.
  const b = ({PAD})().querySelector('button[data-spot=show]');
  const cut = [b.querySelector('.label'), b.querySelector('small')]
    .some(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1);
  const faces = b.querySelector('small').getBoundingClientRect();
  const key = b.getBoundingClientRect();
  const inside = faces.left >= key.left && faces.right <= key.right &&
    faces.top >= key.top && faces.bottom <= key.bottom;
  return {{ text: b.textContent, enabled: !b.disabled, cut, inside }};
}}"""

LINE = f"() => ({PAD})().querySelector('[data-testid=pad-picker-line]').textContent"


def _touch(page: Any, selector: str) -> None:
    """A thumb's tap on a key of the picker, greyed or not (Playwright waits for an enabled
    element; a greyed key takes the tap to say why)."""
    page.locator(f".pad {selector}").tap(force=True)


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_show_by_rank_and_suit_with_thumb_sized_keys(
    served: tuple[str, str], size: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    url, db = served
    session = "pack-phone" if size == PHONE else "pack-tablet"
    with touch_page(size) as (_, page):
        unlock(page, url, SECRET)
        open_pad(page, url, session)
        picker = page.locator(".pad [data-testid=pad-picker]")
        expect(picker).to_be_visible(timeout=30_000)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.brag-table svg')]"
            ".some(s => s.getBoundingClientRect().width > 0)",
            timeout=30_000,
        )
        drawn = page.evaluate(KEYS)
        names = [b[0] for b in drawn["boxes"]]
        assert len([n for n in names if len(n) == 1]) == 13 + 4, names  # ranks and suits
        assert {"back", "show", "undo"} <= set(names), names
        small = [b for b in drawn["boxes"] if min(b[1], b[2]) < THUMB]
        assert not small, small
        assert max(b[3] for b in drawn["boxes"]) <= drawn["height"], drawn  # the first screen
        assert drawn["status"][0] >= 0 and drawn["status"][1] <= drawn["height"], drawn
        assert drawn["table"] is not None and drawn["table"] < drawn["height"] - 40, drawn

        # 2♦ went under the pack at deal 1's showdown: greyed, not picked, the reason said
        line = page.locator(".pad [data-testid=pad-picker-line]")
        _touch(page, "[data-rank='2']")
        diamond = page.locator(".pad [data-suit=d]")
        expect(diamond).to_have_text("2♦")
        expect(diamond).to_have_attribute("aria-disabled", "true")
        expect(page.locator(".pad [data-suit=h]")).to_have_attribute("aria-disabled", "false")
        _touch(page, "[data-suit=d]")
        reason = "RULES 3.3: 2♦ went under the pack at deal 1's showdown"
        expect(line).to_contain_text(reason)
        assert str(diamond.get_attribute("title")).startswith(reason)
        _touch(page, "[data-pick=back]")  # the rank 2 let go
        # so did the four queens: the rank itself is greyed, and says why when tapped
        queen = page.locator(".pad [data-rank=Q]")
        expect(queen).to_have_attribute("aria-disabled", "true")
        _touch(page, "[data-rank=Q]")
        expect(line).to_contain_text("No Q can be picked: RULES 3.3: Q♠ went under the pack")
        expect(queen).to_have_attribute("aria-pressed", "false")
        assert page.evaluate(CONFIRMING)["text"].endswith("pick 3 cards")

        # three cards, rank then suit, one taken back by ⌫ and picked again
        pick_cards(page, ["Ks", "Td", "2c"])
        back = page.locator(".pad [data-pick=back]").bounding_box()
        for _ in range(2):  # a double tap on ⌫ takes back one card
            page.touchscreen.tap(back["x"] + back["width"] / 2, back["y"] + back["height"] / 2)
            page.wait_for_timeout(100)
        assert pad_eval(page, "(pad) => pad.S.picked") == ["Ks", "Td"]
        pick_cards(page, ["Ah"])
        got = page.evaluate(CONFIRMING)
        assert got["enabled"] and not got["cut"] and got["inside"], got
        assert "Cal shows the hand" in got["text"] and "K♠ 10♦ A♥" in got["text"], got
        assert "2♣" not in got["text"], got
        page.screenshot(path=str(SHOTS / f"showdown-picker-{session}.png"))
        tap(page, "show")
        idle(page)
    shown = [e for e in events(db, session) if e.type == "shown"]
    assert shown[-1].player == "Cal" and shown[-1].cards == ("Ks", "Td", "Ah")


def test_blind_against_blind_one_card_a_show(served: tuple[str, str]) -> None:
    """A card each (RULES 5.8): rank, suit, then the key; the second card of a one-card show is
    refused in the line, and the card Bob turned is greyed for Ann (RULES 3.4); a long press on
    it says why too."""
    from playwright.sync_api import expect

    url, db = served
    with touch_page(PHONE) as (_, page):
        unlock(page, url, SECRET)
        open_pad(page, url, "blind")
        show = page.locator(".pad button[data-spot=show]")
        expect(show).to_contain_text("Bob shows a card", timeout=30_000)
        pick_cards(page, ["Ah"])
        _touch(page, "[data-rank=K]")
        _touch(page, "[data-suit=s]")
        line = page.locator(".pad [data-testid=pad-picker-line]")
        expect(line).to_contain_text("1 card is picked")
        expect(show).to_contain_text("A♥")
        tap(page, "show")
        expect(show).to_contain_text("Ann shows a card", timeout=30_000)
        _touch(page, "[data-rank=A]")
        heart = page.locator(".pad [data-suit=h]")
        expect(heart).to_have_attribute("aria-disabled", "true")
        heart.dispatch_event("pointerdown")
        page.wait_for_timeout(700)
        heart.dispatch_event("pointerup")
        expect(line).to_contain_text("RULES 3.4: A♥ is already shown by Bob")
        pick_cards(page, ["Ad"])
        assert pad_eval(page, "(pad) => pad.S.picked") == ["Ad"]
        tap(page, "show")
        idle(page)
    shown = [e for e in events(db, "blind") if e.type == "shown"]
    assert [(e.player, e.cards) for e in shown] == [("Bob", ("Ah",)), ("Ann", ("Ad",))]
