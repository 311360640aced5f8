"""Issue 21, parts 1 and 5, without a browser: the rows a thumb opens keep every name as text,
and the odds and the seats are said in the field's words."""

from __future__ import annotations


def test_rows_are_links_whose_names_stay_text() -> None:
    """A row of :func:`dashboard.view.rows_html` holding hostile names: every name comes back
    from the HTML as the same text, and the only elements are the row's own."""
    from html.parser import HTMLParser

    from hostile_helpers import PLAYERS, SESSION, TABLE

    from dashboard.view import LinkRow, link, rows_html

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
