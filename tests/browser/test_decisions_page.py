"""Real browser (Chromium, headless, a 390x844 phone with touch): the Decisions page answers the
spot its link names with the same counts as analytics.spots, a tap on a picker changes the spot
and the link, and a tap on a decision's link opens the Replay page at that step. Skips, saying
why, where Chromium or Playwright is missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import duckdb
import pytest
from browser_helpers import launched, season_served, wait_idle

from analytics import spots

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    with season_served(tmp_path_factory.mktemp("decisions_page")) as served:
        yield served


def test_phone_answers_the_spot_and_a_link_opens_its_step(served: tuple[str, Path]) -> None:
    from playwright.sync_api import expect

    url, projection = served
    con = duckdb.connect(str(projection), read_only=True)
    spot = spots.Spot.parse("actor=seen,opp_blind=1")
    answer = spots.explore(con, spot, "Sandra")
    folds = spots.behind(con, spot, "player", "fold", "Sandra")
    wider = spots.explore(con, spots.Spot.parse("actor=seen"), "Sandra")
    con.close()
    assert folds
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with launched() as browser:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        )
        page = ctx.new_page()
        page.goto(f"{url}/decisions?player=Sandra&spot=actor%3Dseen%2Copp_blind%3D1"
                  "&cell=player%3Afold")  # fmt: skip
        totals = f"player {answer.totals['player']:,}, field {answer.totals['field']:,}"
        expect(page.get_by_text(totals)).to_be_visible(timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "decisions-phone.png"))
        # the decisions behind "Sandra, fold": one plain link each, to its step
        expect(page.get_by_text(f"Sandra, fold: {len(folds)} decisions in")).to_be_visible()
        first = folds[0]
        text = f"{first['session']} · deal {first['deal']}, step {first['step']}"
        found = page.get_by_role("link").filter(has_text=text)
        found.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "decisions-phone-links.png"))
        # each count is a button: the denominator lists the player's every decision there
        page.get_by_text(f"every action · {answer.totals['player']}").tap()
        every = f"Sandra, every action: {answer.totals['player']} decisions in"
        expect(page.get_by_text(every)).to_be_visible(timeout=30_000)
        assert parse_qs(urlparse(page.url).query)["cell"] == ["player"]
        # a picker: "any" opponents blind widens the spot, the link follows
        page.get_by_text("Spot: seen, 1 opponent blind").tap()
        picker = page.get_by_role("radiogroup", name="Opponents blind")
        picker.get_by_role("radio", name="any").tap()
        wide = f"player {wider.totals['player']:,}, field {wider.totals['field']:,}"
        expect(page.get_by_text(wide)).to_be_visible(timeout=30_000)
        assert parse_qs(urlparse(page.url).query)["spot"] == ["actor=seen"]
        page.goto(f"{url}/decisions?player=Sandra&spot=actor%3Dseen%2Copp_blind%3D1"
                  "&cell=player%3Afold")  # fmt: skip
        found = page.get_by_role("link").filter(has_text=text)
        found.scroll_into_view_if_needed()
        found.tap()  # a plain link, opened in this tab
        want = f"session={first['session']}&deal={first['deal']}&step={first['step']}"
        page.wait_for_url(f"**/replay?{want}*", timeout=30_000)
        expect(page.get_by_text(f"Step {first['step']} of")).to_be_visible(timeout=60_000)


@pytest.mark.parametrize("size", [(390, 844), (1400, 900)], ids=["phone", "desktop"])
def test_the_spot_chooser_stays_open_from_one_choice_to_the_next(
    served: tuple[str, Path], size: tuple[int, int]
) -> None:
    """Issue 35 (item 6g): the spot's pickers stay open while a spot is being built, one choice
    after another (each choice changes the spot, the link and the expander's label: the
    expander used to be drawn anew, closed, after every one); the page opened afresh shows them
    closed, so that on a phone the answer is on the first screen."""
    from playwright.sync_api import expect

    url, _ = served
    phone = size[0] < 500
    with launched() as browser:
        ctx = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, has_touch=phone, is_mobile=phone
        )
        page = ctx.new_page()
        page.goto(f"{url}/decisions?player=Sandra")
        header = page.get_by_text("Spot: every decision (change)")
        expect(header).to_be_visible(timeout=60_000)
        actor = page.get_by_role("radiogroup", name="The player is")
        expect(actor).to_be_hidden()  # closed on a fresh page
        wait_idle(page)  # as a person looks at the page before the tap
        header.click()
        for picker, value, spot in (
            ("The player is", "seen", ["actor=seen"]),
            ("Opponents blind", "1", ["actor=seen,opp_blind=1"]),
            ("Players in", "2", ["actor=seen,opp_blind=1,players=2"]),
        ):
            group = page.get_by_role("radiogroup", name=picker)
            expect(group).to_be_visible(timeout=30_000)  # still open after the last choice
            group.get_by_role("radio", name=value, exact=True).click()
            page.wait_for_function(
                "s => new URLSearchParams(location.search).get('spot') === s", arg=spot[0],
                timeout=30_000,
            )  # fmt: skip
            expect(page.get_by_role("radiogroup", name=picker)).to_be_visible(timeout=30_000)
        page.goto(f"{url}/decisions?player=Sandra")
        expect(page.get_by_text("Spot: every decision (change)")).to_be_visible(timeout=60_000)
        expect(page.get_by_role("radiogroup", name="The player is")).to_be_hidden()
        ctx.close()
