"""A store's address as shown to people: the one masker of secrets (issue 33, class 5).

A PostgreSQL address can carry a secret in several forms, and libpq reads every one of them:

- the URL's userinfo: ``postgresql://user:SECRET@host/db``;
- the URL's query string: ``?password=SECRET``, ``passfile=``, ``sslpassword=``, ``sslkey=``
  (and the other file settings, ``sslcert=``, ``sslrootcert=``, ``sslcrl=``, ``sslcrldir=``:
  paths on the server), keys matched without regard to case or percent-encoding, as libpq
  decodes them;
- a ``key=value`` connection string (``host=h password=SECRET``, a value possibly quoted) and
  the environment's ``PGPASSWORD=SECRET``-like settings (``PGPASSFILE``, ``PGSSLKEY``, ...).

:func:`shown_address` is what every place that shows a store's address uses (the stores'
``where``, their errors, ``brag``'s output, the dashboard's pages and routes, the statistics'
``meta`` table, the logs); :func:`masked` applies the same to any text that may quote one (an
error's line), as a last guard. Each secret is replaced by :data:`MASK`; the rest (scheme, user,
host, port, database, the other settings) stays, so people still see which store it is.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

__all__ = ["MASK", "SECRET_KEYS", "masked", "shown_address"]

MASK = "***"
"""What a secret is shown as (SQLAlchemy's ``hide_password`` shows the same)."""

SECRET_KEYS = frozenset(
    {
        "password",
        "passfile",
        "sslpassword",
        "sslkey",
        "sslcert",
        "sslrootcert",
        "sslcrl",
        "sslcrldir",
        "pgpassword",
        "pgpassfile",
        "pgsslkey",
        "pgsslcert",
        "pgsslrootcert",
        "pgsslcrl",
        "pgsslcrldir",
    }
)
"""libpq's settings (and their ``PG...`` environment names) whose value is a secret or a path on
the server, lower case."""

_URL = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)([^\s'\"<>]*)")
_USERINFO = re.compile(r"^([^:/?#@]*):[^@]*@")
# key = value, the value quoted ('...' with \' inside, or "...") or up to a space, & ; , or quote
_SETTING = re.compile(
    r"(?i)(?<![\w%])([a-z%][\w%]*)(\s*=\s*)('(?:[^'\\]|\\.)*'?|\"[^\"]*\"?|[^\s&;,'\"]*)"
)


def _secret(key: str) -> bool:
    return unquote(key).strip().lower() in SECRET_KEYS


def _query(query: str) -> str:
    parts = re.split(r"([&;])", query)
    for k, part in enumerate(parts):
        key, eq, _ = part.partition("=")
        if eq and _secret(key):
            parts[k] = f"{key}={MASK}"
    return "".join(parts)


def _one_url(scheme: str, rest: str, after: str) -> str:
    tail = ""
    if rest[-1:] in (":", ",", ".", ")", ";") and after[:1] in ("", " "):
        rest, tail = rest[:-1], rest[-1]  # "store URL: why": the sentence's colon kept
    rest = _USERINFO.sub(lambda m: f"{m.group(1)}:{MASK}@", rest, count=1)
    head, q, query = rest.partition("?")
    return scheme + head + (q + _query(query) if q else "") + tail


def shown_address(url: str) -> str:
    """The store address ``url`` (a SQLAlchemy URL, a libpq connection string, a file path) with
    every secret (see the module) shown as :data:`MASK`; anything else as it is.

    >>> shown_address("postgresql://ann:pw@db.club:5433/brag?password=pw2&sslmode=require")
    'postgresql://ann:***@db.club:5433/brag?password=***&sslmode=require'
    >>> shown_address("host=db.club password='a b' dbname=brag")
    'host=db.club password=*** dbname=brag'
    """
    return masked(url)


def masked(text: str) -> str:
    """``text`` (an error's line, a page's sentence, a log line) with every store address and
    ``key=value`` secret in it masked as :func:`shown_address` masks one.

    >>> masked("cannot connect to postgresql://u@h/d?sslkey=/home/u/k.pem: refused")
    'cannot connect to postgresql://u@h/d?sslkey=***: refused'
    >>> masked("PGPASSWORD=hunter2 brag sessions")
    'PGPASSWORD=*** brag sessions'
    """
    out = _URL.sub(lambda m: _one_url(m.group(1), m.group(2), text[m.end() :]), text)
    return _SETTING.sub(lambda m: _setting(m, out), out)


def _setting(m: re.Match[str], text: str) -> str:
    key, eq, value = m.groups()
    if not _secret(key):
        return m.group(0)
    after = text[m.end() : m.end() + 1]
    kept = value[-1] if value[-1:] in (":", ")") and after in ("", " ") else ""
    return f"{key}{eq}{MASK}{kept}"
