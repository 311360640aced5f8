"""Secrets stay secret (issue 33, class 5): a PostgreSQL address's password, in every form libpq
reads (the userinfo, ``?password=``, ``sslpassword=``, ``passfile=``, ``sslkey=``, a
percent-encoded key, a ``key=value`` string, ``PGPASSWORD=``), is masked everywhere an address
is shown (:mod:`store.address`). With the store down, every route and page that can show it is
fetched (a crafted ASGI client; Streamlit's AppTest for the pages; ``brag``'s lines; the log) and
every byte scanned for the secrets; Explore's ``meta`` table shows the masked address."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from asgi_helpers import asgi_get

from dashboard.access import tokens
from store.address import MASK, masked, shown_address

SECRETS = ("Open-Sesame", "secret-dir", "k3y-file")
DOWN = "postgresql://bob{userinfo}@127.0.0.1:1/test?connect_timeout=2{query}"
FORMS = {
    "userinfo": DOWN.format(userinfo=":Open-Sesame-1", query=""),
    "password": DOWN.format(userinfo="", query="&password=Open-Sesame-2"),
    "PASSWORD, percent-encoded key": DOWN.format(userinfo="", query="&%70assword=Open-Sesame-3"),
    "sslpassword, passfile, sslkey": DOWN.format(
        userinfo="",
        query="&sslpassword=Open-Sesame-4&passfile=/srv/secret-dir/pgpass&sslkey=/srv/k3y-file.pem",
    ),
}


def _clean(text: str | bytes, where: str) -> None:
    data = text.encode() if isinstance(text, str) else text
    for secret in SECRETS:
        assert secret.encode() not in data, (where, data[:400])
        assert secret.lower().encode() not in data.lower(), (where, data[:400])


# --- the masker, every form ---------------------------------------------------------------------


@pytest.mark.parametrize("url", FORMS.values(), ids=list(FORMS))
def test_every_form_is_masked_and_the_store_still_named(url: str) -> None:
    shown = shown_address(url)
    _clean(shown, url)
    assert MASK in shown
    assert shown.startswith("postgresql://bob") and "127.0.0.1:1/test" in shown
    assert "connect_timeout=2" in shown  # the other settings stay


@pytest.mark.parametrize(
    "text",
    [
        "host=127.0.0.1 password=Open-Sesame-5 dbname=test",
        "host=127.0.0.1 password='Open-Sesame 6 \\' quoted' dbname=test",
        "PGPASSWORD=Open-Sesame-7 PGPASSFILE=/srv/secret-dir/pgpass brag sessions",
        "sslkey = /srv/k3y-file.pem sslpassword=Open-Sesame-8",
        "store postgresql://bob:Open-Sesame-9@db/brag?sslkey=/srv/k3y-file.pem: refused",
    ],
)
def test_secrets_in_any_text_are_masked(text: str) -> None:
    out = masked(text)
    _clean(out, text)
    assert MASK in out


# --- the store down: brag, the routes, the pages, the log ---------------------------------------


@pytest.mark.parametrize("url", FORMS.values(), ids=list(FORMS))
def test_brag_says_the_store_is_down_without_its_secrets(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from brag.cli import main

    for command in (["sessions"], ["stats"], ["notes", "s"], ["analytics", "refresh"]):
        code = main([*command, "--db", url])
        out = capsys.readouterr()
        assert code != 0, command
        _clean(out.out + out.err, " ".join(command))
    from log.open import open_store

    with pytest.raises(Exception) as err:
        open_store(url)
    _clean(str(err.value), "open_store")
    assert "127.0.0.1" in str(err.value)


async def _get(app: Any, path: str, cookie: str | None = None) -> tuple[int, bytes]:
    headers = [(b"host", b"127.0.0.1")] + ([(b"cookie", cookie.encode())] if cookie else [])
    status, _, body = await asgi_get(app, path, "10.0.0.9", headers)
    return status, body


SECRET = "a long organiser secret for the test"


@pytest.mark.parametrize("url", FORMS.values(), ids=list(FORMS))
def test_the_routes_answer_503_without_the_secrets(
    url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from starlette.applications import Starlette

    from dashboard.record import routes as pad_api
    from dashboard.replay import notes_routes as notes_api
    from dashboard.replay import share as share_api

    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    app = Starlette(routes=[*pad_api.routes(), *notes_api.routes(), *share_api.routes()])
    cookie = f"brag_device={tokens.device_token(SECRET)}"
    for path, with_cookie in (
        ("/api/notes?session=s&deal=1&step=1", False),
        ("/api/picture.png?session=s&deal=1&step=1", False),
        ("/api/picture.png?session=s&deal=1&step=1", True),
        ("/api/pad?session=s&since=0", True),
    ):
        status, body = asyncio.run(_get(app, path, cookie if with_cookie else None))
        assert status == 503, (path, status, body)
        _clean(body, path)


@pytest.mark.parametrize("name", ["sessions", "session", "replay", "players", "explore"])
def test_every_page_says_the_store_is_down_without_its_secrets(
    name: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("streamlit")
    from apptest_helpers import page

    url = FORMS["sslpassword, passfile, sslkey"].replace("?", "?password=Open-Sesame-2&", 1)
    url = url.replace("bob@", "bob:Open-Sesame-1@")
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    caplog.set_level(logging.INFO)
    at = page(name, session="s")
    shown = _page_text(at)
    assert "cannot be reached" in shown, shown[:2000]
    _clean(shown, name)
    _clean(caplog.text, f"the log of {name}")


def _page_text(at: Any) -> str:
    """Every element's message on the page (text, values, exceptions), as protobuf text."""
    out: list[str] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            out.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(out)
