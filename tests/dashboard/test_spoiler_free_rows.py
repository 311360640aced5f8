"""Issue 21, parts 1 and 5, without a browser: the rows a thumb opens keep every name as text,
and the odds and the seats are said in the field's words."""

from __future__ import annotations


def test_rows_are_links_whose_names_stay_text() -> None:
    """A row of :func:`dashboard.view.rows_html` holding hostile names: every name comes back
    from the HTML as the same text, and the only elements are the row's own."""
    from html.parser import HTMLParser

    from hostile_helpers import PLAYERS, SESSION, TABLE

    from dashboard.common.links import LinkRow, link, rows_html

    names = [*PLAYERS.values(), TABLE, SESSION, 'x" onclick="alert(1)', "a\n\n# b\x1b[31m"]
    rows = [LinkRow(link(SESSION, 1, 1), n, (n, "·" + n), (link(n), n)) for n in names]
    html = rows_html(rows, SESSION)
    assert "\n" not in html  # one raw HTML block: no blank line hands the rest to Markdown

    class Read(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[str] = []
            self.texts: list[str] = []
            self.hrefs: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append(tag)
            self.hrefs += [v or "" for k, v in attrs if k == "href"]
            assert not [k for k, _ in attrs if k.startswith("on")], attrs

        def handle_data(self, data: str) -> None:
            self.texts.append(data)

    r = Read()
    r.feed(html)
    assert set(r.tags) == {"style", "ul", "li", "a", "span"}
    shown = r.texts[1:]  # after the style sheet
    for n in names[:-1]:
        assert shown.count(n) == 3 and shown.count("·" + n) == 1  # title, detail, side link
    assert shown.count(r"a\n\n# b\x1b[31m") == 3  # control characters shown as escapes
    assert all(h.startswith(("replay?session=", "session?")) for h in r.hrefs)
    assert all(" " not in h and "<" not in h for h in r.hrefs)


# --- the odds in words (issue 21, part 5) ---------------------------------------------------------


def test_a_chance_in_words_is_a_whole_percent_never_a_false_0_or_100() -> None:
    from fractions import Fraction

    from dashboard.replay.odds import share_words

    assert share_words(Fraction(17_421, 18_424)) == "95%"  # 94.56%
    assert share_words(Fraction(1_000, 18_424)) == "5%"  # 5.43%
    assert share_words(Fraction(3, 18_424)) == "under 1%"  # 0.016%: may happen
    assert share_words(Fraction(18_423, 18_424)) == "over 99%"  # may fail
    assert share_words(Fraction(1, 200)) == "1%"  # half a percent rounds up, exactly
    assert share_words(Fraction(0)) == "0%" and share_words(Fraction(1)) == "100%"
    assert share_words(Fraction(2_294, 4_000), exact=False) == "about 57%"
    # issue 21: "under 1%" / "over 99%" already hedge; never "about under 1%"
    assert share_words(Fraction(2, 4_000), exact=False) == "under 1%"  # 0.05%
    assert share_words(Fraction(3_999, 4_000), exact=False) == "over 99%"  # 99.975%
    assert share_words(Fraction(20, 4_000), exact=False) == "about 1%"  # 0.5% rounds up


def test_the_odds_line_says_the_chances_in_words_then_counts_and_the_tie_rule() -> None:
    """A♥ 2♥ 3♥ (a running flush, RULES 2.4) against one hand unseen: of the C(49,3) = 18,424
    hands, the 43 prials left beat it (10 ranks × 4 + A, 2, 3 × 1) and the 3 other A-2-3
    running flushes equal it, which loses for the player who paid to see (RULES 5.8)."""
    from dashboard.replay.odds import OddsLine
    from engine.odds import showdown_odds
    from engine.state import card_codes

    me, _ = showdown_odds([card_codes(("Ah", "2h", "3h")), ()])
    line = OddsLine("Ann", "A♥ 2♥ 3♥", me)
    assert line.text == (
        "Ann A♥ 2♥ 3♥: best of the hands still in over 99% of the time, beaten under 1%; "
        "equal under 1% (an equal hand loses for the player who paid to see)"
    )
    assert line.exact == (
        "best 99.8% (18,378/18,424), equal <0.1% (3/18,424), beaten 0.2% (43/18,424): "
        "exact over 18,424 ways"
    )
    assert not line.certain and line.plain == line.text


# --- the table's words at the end of a deal ---------------------------------------------------


def _frames(log: str, deal: int, viewer: str | None = None) -> list[dict[str, object]]:
    from pathlib import Path

    from dashboard.replay.frames import deal_frames
    from engine.fold import complete
    from events.codec import read_file
    from present.replay import Replay
    from present.sight import sight_for

    path = Path(__file__).resolve().parents[2] / "data" / "season" / log
    rp = Replay.of([s.event for s in complete(read_file(str(path)))])
    return list(deal_frames(sight_for(rp, deal, viewer))["frames"])


def _seat_texts(svg: object) -> dict[str, list[str]]:
    """Each seat's words in a table picture: its name, what it paid, its status line."""
    import re

    out = {}
    for m in re.finditer(r'<g data-seat="([^"]+)".*?(?=<g data-seat=|</svg>)', str(svg)):
        out[m.group(1)] = re.findall(r"<text[^>]*>([^<]*)</text>", m.group(0))[:3]
    return out


def test_an_uncontested_pot_is_won_from_the_fold_that_decides_it() -> None:
    """2026-09-24-top-3, deal 7: Sandra folds, Keith is the seen survivor and takes the pot of
    21 without showing (the log's ``pot_won``: Keith, 21, no showdown; RULES 5.6)."""
    frames = _frames("2026-09-24-top-3.jsonl", 7)
    fold, won = frames[-2], frames[-1]
    assert str(fold["text"]).startswith("Sandra folds")
    assert str(won["text"]).startswith("Keith wins the pot of 21 uncontested")
    assert fold["line"] == "Pot 21 · Keith wins 21, uncontested · deal over"
    assert won["line"] == "Pot 0 · Keith wins 21, uncontested · deal over"
    for f in (fold, won):
        for svg in (f["svg"], f["compact"]):
            seats = _seat_texts(svg)
            assert seats["Keith"][2] == "wins the pot", seats["Keith"]
            assert seats["Sandra"][2] == "folded"
    assert "No bet yet" not in str(won["svg"]) and "between deals" not in str(won["svg"])


def test_a_carried_pot_and_a_showdown_say_who_did_what() -> None:
    """2026-09-24-top-3, deal 4: everyone folds to Jean, blind: the pot of 10 is carried (the
    log's ``pot_carried``, RULES 6.1). 2026-09-24-top-1, deal 1: Jean sees Sandra (the log's
    ``saw``), both blind (neither ``looked``): Jean paid to see, Sandra shows first (RULES 5.8)."""
    carried = _frames("2026-09-24-top-3.jsonl", 4)
    last = next(f for f in carried if str(f["text"]).startswith("The pot of 10 is carried"))
    assert last["line"] == "Pot 10 · pot of 10 carried: Jean left in blind · deal over"
    assert _seat_texts(last["compact"])["Jean"][2] == "blind · pot carried"

    showdown = _frames("2026-09-24-top-1.jsonl", 1)
    saw = next(k for k, f in enumerate(showdown) if str(f["text"]).startswith("Jean sees"))
    seats = _seat_texts(showdown[saw + 1]["compact"])  # Sandra shows her first card
    assert seats["Jean"][2] == "blind · paid to see"
    assert seats["Sandra"][2] == "blind · shows first"
    assert not any("seen by the payer" in str(f["svg"]) for f in showdown)


def test_a_step_without_odds_says_why() -> None:
    """At a real table (the rule card's example, ``cards: "shown"``) no card is known before
    the showdown (RULES 3.5); viewed as a player who has not looked, none of theirs (5.1)."""
    from pathlib import Path

    from dashboard.replay.frames import deal_frames
    from engine.fold import complete
    from events.codec import read_file
    from present.replay import Replay

    card = Path(__file__).resolve().parents[2] / "data" / "examples" / "card_example.jsonl"
    rp = Replay.of([s.event for s in complete(read_file(str(card)))])
    from present.sight import sight_for

    frames = deal_frames(sight_for(rp, 1, None))["frames"]
    betting = [f for f in frames if " bets " in str(f["text"])]
    assert betting and all(f["odds"] == [] for f in betting)
    assert {f["odds_none"] for f in betting} == {
        "No odds yet: at a real table only the cards shown at a showdown are recorded "
        "(RULES 3.5), and no hand still in has been shown."
    }
    assert all(f["odds_none"] == "" for f in frames if f["odds"])  # never both

    jean = _frames("2026-09-24-top-1.jsonl", 2, "Jean")
    blind = [f for f in jean if "Jean" in str(f["line"]) and not f["odds"] and f["odds_none"]]
    assert blind and blind[0]["odds_none"] == (
        "No odds yet: Jean has not looked at their cards (RULES 5.1)."
    )


def test_the_deals_of_a_session_tell_no_result_until_asked() -> None:
    """2026-09-24-top-3: deal 4's pot of 10 is carried into deal 5 (the log's ``pot_carried``)
    and Keith wins deal 7's 21 uncontested (its ``pot_won``); hidden, a deal's row says only who
    deals and its steps, as the replay's spoiler-free deal picker does."""
    from pathlib import Path

    from dashboard.common.links import deal_links
    from engine.fold import complete
    from events.codec import read_file
    from present.replay import Replay

    path = Path(__file__).resolve().parents[2] / "data" / "season" / "2026-09-24-top-3.jsonl"
    rp = Replay.of([s.event for s in complete(read_file(str(path)))])
    hidden = deal_links(rp.session, rp.deal_rows(), results=False)
    shown = deal_links(rp.session, rp.deal_rows(), results=True)
    assert [r.href for r in hidden] == [
        f"replay?session=2026-09-24-top-3&deal={k}&step=1" for k in range(1, 10)
    ]
    assert all(len(r.details) == 1 for r in hidden)
    assert hidden[4].details == ("Keith deals · 33 steps",)
    assert shown[4].details[0] == "Keith deals · 10 carried in · 33 steps"
    assert shown[3].details[1] == "carried forward (Jean blind) · pot 10"
    assert shown[6].details[1] == "Keith wins 21 uncontested"


def test_the_deals_behind_a_statistic_are_rows_to_their_steps() -> None:
    from dashboard.stats.figures import drill_links

    deals = [
        {"session": "s 1", "deal": 2, "step": 23, "event": "saw", "counted": 1, "hits": 1},
        {"session": "s 1", "deal": 6, "step": 22, "event": "saw", "counted": 1, "hits": 0},
    ]
    rows = drill_links(deals, "payer_win_rate")
    assert [(r.href, r.title, r.details) for r in rows] == [
        (
            "replay?session=s+1&deal=2&step=23",
            "▶ s 1, deal 2, step 23",
            ("saw · showdowns: 1 · won: 1",),
        ),
        (
            "replay?session=s+1&deal=6&step=22",
            "▶ s 1, deal 6, step 22",
            ("saw · showdowns: 1 · won: 0",),
        ),
    ]
    first_look = [{**deals[0], "event": "first_action"}]
    assert drill_links(first_look, "net")[0].details == ("first action",)  # no count of its own
