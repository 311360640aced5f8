"""``brag dashboard`` and ``brag run``: the Streamlit dashboard (``dashboard/app.py``).

- ``brag dashboard [--db URL] [--port N] [--analytics PATH] [--lan]`` serves the dashboard on
  localhost, headless (no browser is started; open the printed address); ``--lan`` also serves
  the club's network and prints the LAN address of the Record page with its QR code.
- ``brag run`` is the newcomer's path (``make run``): it imports the bundled club season
  (``data/season/*.jsonl``) into the store, idempotently (a session already stored the same is
  left alone), brings the analytics projection up to date, prints the sessions (no winner
  unless ``--results``: the dashboard too names none until asked), then serves the
  dashboard. The rule card's worked examples (``data/examples/``, players A to E, no times) stay
  out of the club's store unless ``--examples`` asks for them: they would be the first sessions
  listed (dated by their import) and rank among the club's players.

The dashboard reads its settings from the environment: ``BRAG_DB``, ``BRAG_ANALYTICS`` and, to
allow recording, ``BRAG_ORGANISER_SECRET`` (or ``organiser_secret`` in Streamlit secrets).
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
import urllib.request
from pathlib import Path
from typing import Any

from brag.cmd_sessions import cmd_sessions
from brag.projection import default_analytics, store_exists
from events.errors import BragError
from log import holding
from log.open import beside_store, open_store
from present import secret as secret_rule
from present.numbers import plural
from store.address import masked, shown_address

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboard" / "common" / "server.py"
DATA = ROOT / "data"
SEASON = DATA / "season"
EXAMPLES = DATA / "examples"
DEFAULT_PORT = 8501


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    opts = argparse.ArgumentParser(add_help=False)
    opts.add_argument(
        "--port",
        type=_port,
        help=f"the port on localhost (default {DEFAULT_PORT}, or the next free one)",
    )
    opts.add_argument(
        "--analytics",
        metavar="PATH",
        help="the DuckDB projection (default: beside the store, e.g. brag.duckdb next to brag.db)",
    )
    opts.add_argument(
        "--address", default="localhost", help="the address to serve on (default localhost)"
    )
    opts.add_argument(
        "--lan",
        action="store_true",
        help="also serve the club's network (off by default): listen on every address of this "
        "machine, print its LAN address and a QR code for a phone or tablet to open",
    )
    d = sub.add_parser(
        "dashboard",
        parents=[common, opts],
        help="serve the dashboard on localhost",
        description="Serve the Streamlit dashboard (sessions, replay, players, record, explore) "
        "headless on localhost. Recording needs BRAG_ORGANISER_SECRET.",
    )
    d.set_defaults(func=cmd_dashboard)
    r = sub.add_parser(
        "run",
        parents=[common, opts],
        help="import the bundled sessions, refresh the statistics, serve the dashboard",
        description="The newcomer's path (make run): import the club season data/season/*.jsonl "
        "into the store (idempotent), refresh the analytics projection, list the sessions and "
        "serve the dashboard. The rule card's examples (players A to E) only with --examples.",
    )
    r.add_argument(
        "--data",
        default=str(SEASON),
        help="the folder of session logs to import (default data/season/)",
    )
    r.add_argument(
        "--examples",
        action="store_true",
        help="also import the rule card's worked examples (data/examples/, players A to E) into "
        "this store; they are kept out of a club's store by default (verify them with "
        "brag verify data/examples/*.jsonl, or give them a store of their own)",
    )
    r.add_argument(
        "--no-serve", action="store_true", help="import and refresh only; do not start the app"
    )
    r.add_argument(
        "--results",
        action="store_true",
        help="name each session's winners in the list printed at start-up (off by default, as "
        "the dashboard names none until Show results is on)",
    )
    r.set_defaults(func=cmd_run)


def _analytics_path(args: argparse.Namespace) -> str:
    if args.analytics:
        return str(args.analytics)
    return default_analytics(args.db)


def _bind_each(address: str, port: int) -> list[OSError | None]:
    """Binds ``(address, port)`` on each address the name resolves to (IPv4, IPv6), letting each
    go at once: per address, ``None`` or the error. Raises ``socket.gaierror`` for a name that
    does not resolve."""
    out: list[OSError | None] = []
    for family, kind, proto, _, where in socket.getaddrinfo(address, port, type=socket.SOCK_STREAM):
        try:
            with socket.socket(family, kind, proto) as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(where)
            out.append(None)
        except OSError as err:
            out.append(err)
    return out


def port_is_free(port: int, address: str = "localhost") -> bool:
    """False when something listens on ``port`` at any of the addresses ``address`` names
    (``EADDRINUSE``: ``localhost`` may be both ``127.0.0.1`` and ``::1``); a port left in
    TIME_WAIT by an earlier run is free. Other trouble is :func:`address_problem`'s."""
    try:
        results = _bind_each(address, port)
    except OSError:
        return True
    return not any(r is not None and r.errno == errno.EADDRINUSE for r in results)


def address_problem(address: str) -> str | None:
    """Why the dashboard cannot be served on ``address`` (unknown, not this machine's), or
    ``None`` when at least one of its addresses can be bound."""
    try:
        results = _bind_each(address, 0)
    except socket.gaierror:
        return f"the address {address!r} is unknown"
    if any(r is None for r in results):
        return None
    err = next((r for r in results if r is not None), None)
    why = (err.strerror or str(err)) if err is not None else "it names no address"
    return f"cannot serve on {address}: {why}"


def _port(text: str) -> int:
    """``--port``: a TCP port, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {port}")
    return port


def free_port(preferred: int, address: str = "localhost") -> int:
    """``preferred`` when nothing listens there, else the next free one of the 20 after it, else
    a free port the OS picks."""
    for port in range(preferred, preferred + 21):
        if port_is_free(port, address):
            return port
    family, kind, proto, _, where = socket.getaddrinfo(address, 0, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as s:
        s.bind(where)
        return int(s.getsockname()[1])


LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
ANY_ADDRESS = ("0.0.0.0", "::", "")


def allowed_hosts(address: str = "localhost", lan_ip: str | None = None) -> list[str]:
    """The host names the dashboard answers to (``server.allowedHosts``, also enforced on every
    page and route by :class:`dashboard.common.server.AllowedHosts`): this machine's own names, the
    address it serves on, and its LAN address. A request naming another host (DNS rebinding:
    ``Host: evil.example``) is refused."""
    hosts = list(LOOPBACK_HOSTS)
    for extra in (address if address not in ANY_ADDRESS else None, lan_ip):
        if extra and extra.strip("[]") not in hosts:
            hosts.append(extra.strip("[]"))
    return hosts


def streamlit_command(
    port: int, address: str = "localhost", hosts: list[str] | None = None
) -> list[str]:
    """The command that serves the dashboard (headless, no usage statistics sent), answering
    only to ``hosts`` (default :func:`allowed_hosts` of ``address``)."""
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.headless",
        "true",
        "--server.address",
        address,
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
        "--client.toolbarMode",
        "minimal",
        # A failure of ours shows a generic message to the visitor, never a traceback or the
        # server's paths (the log keeps the details); the store's faults are one line of the
        # page's own (dashboard/common/faults.py). 1.67 takes full, stacktrace, type or none.
        "--client.showErrorDetails",
        "none",
        "--server.fileWatcherType",
        "none",
        # Not a full garbage collection after every run: a live page's poll is a run each
        # second, and gc.collect(2) over the dashboard's heap was most of its cost (bench/live.py).
        # Python's own collector still runs as objects are allocated.
        "--runner.postScriptGC",
        "false",
        # No "magic" (our pages write nothing by a bare expression): with it, each page's first
        # run builds Python AST objects (ast.parse), and on this Python (3.11.7) two threads
        # doing so at once can fail with "AST constructor recursion depth mismatch" (CPython
        # gh-106905, fixed in 3.11.8): a page's first visit showed "Script execution error".
        # Without it a page compiles from its source straight to code.
        "--runner.magicEnabled",
        "false",
    ]
    for host in hosts if hosts is not None else allowed_hosts(address):
        command += ["--server.allowedHosts", host]
    return command


PID_SUFFIX = "-dashboard"


def pid_file(db: str, analytics: str) -> Path:
    """The dashboard's pid file beside the store (``brag.db-dashboard``): ``PID URL``."""
    return Path(beside_store(db, PID_SUFFIX, analytics))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def running_dashboard(db: str, analytics: str) -> tuple[int, str] | None:
    """``(pid, url)`` of a dashboard that still serves this store (its pid file names a live
    process that answers at its address, or a live Streamlit); ``None`` when there is none or
    the file is stale (a dashboard killed before it could remove it)."""
    try:
        pid_text, url = pid_file(db, analytics).read_text(encoding="utf-8").split()[:2]
        pid = int(pid_text)
    except (OSError, ValueError):
        return None
    if pid == os.getpid() or not _alive(pid):
        return None
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
            if r.status == 200:
                return pid, url
    except OSError:
        pass
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return (pid, url) if b"streamlit" in cmdline else None


def lan_address() -> str | None:
    """This machine's address on its local network (the one its default route leaves by), or
    ``None`` when it has none but loopback. Sends nothing: a UDP socket is only pointed at a
    documentation address (RFC 5737) to learn which local address would be used."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found = str(s.getsockname()[0])
    except OSError:
        found = ""
    if not found or found.startswith("127.") or found == "0.0.0.0":
        try:
            found = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if found.startswith("127.") else found


def lan_banner(url: str) -> str:
    """What ``--lan`` prints: the address a second device opens and its QR code, for a
    terminal (:func:`present.qr.terminal`)."""
    from present import qr  # segno: only --lan draws a QR code (`brag dashboard` loads none)

    return (
        f"On the club's network: {url}\n"
        "Open it on a phone or tablet on the same Wi-Fi (or scan this code), then unlock "
        "recording with the organiser secret:\n" + qr.terminal(url)
    )


def serve(
    db: str, analytics: str, port: int | None, address: str = "localhost", lan: bool = False
) -> int:
    """Runs the dashboard in the foreground until Ctrl-C: this process becomes the Streamlit
    server (it returns only a refusal, 1: a secret shorter than :data:`present.secret.MIN_CHARS`,
    a bad address, a busy port, or a dashboard already serving this store). It answers only to
    the hosts it prints (:func:`allowed_hosts`). With ``lan`` it listens on every address
    (``0.0.0.0``) and prints the LAN address of the Record page with its QR code
    (:func:`lan_banner`); the Record page shows the same code."""
    address, problem = _refusal(db, analytics, port, address, lan)
    if problem:
        print(f"brag: {masked(problem)}", file=sys.stderr)
        return 1
    chosen = port if port is not None else free_port(DEFAULT_PORT, address)
    env = dict(os.environ, BRAG_DB=db, BRAG_ANALYTICS=analytics)
    host = f"[{address}]" if ":" in address else address  # an IPv6 address in a URL
    if lan:
        host = "localhost"
    url = f"http://{host if address not in ANY_ADDRESS else 'localhost'}:{chosen}"
    print(
        f"Bragbook dashboard: http://{host}:{chosen}  (store {shown_address(db)}; Ctrl-C stops it)"
    )
    ip = _announce_lan(env, chosen) if lan else None
    if not lan and address in ANY_ADDRESS:
        ip = lan_address()
    if not env.get("BRAG_ORGANISER_SECRET"):
        print("Recording is off (read-only): set BRAG_ORGANISER_SECRET to record at the table.")
    held, problem = hold_store(db, url)
    if problem:
        print(f"brag: {problem}", file=sys.stderr)
        return 1
    if held is not None:  # the server renews it (dashboard/common/instance.py)
        env["BRAG_HOLDER"], env["BRAG_HOLDER_URL"] = held.holder, url
    # This process becomes the server (exec, the same pid): a `kill -9` of `brag dashboard`
    # stops the server too, and its pid file names it while it runs.
    where = pid_file(db, analytics)
    try:
        where.write_text(f"{os.getpid()} {url}\n", encoding="utf-8")
        env["BRAG_PID_FILE"] = str(where)
    except OSError as err:  # a read-only folder: served all the same, without the check
        print(f"brag: no pid file {where} ({err.strerror}); served without it", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    command = streamlit_command(chosen, address, allowed_hosts(address, ip))
    os.execve(command[0], command, env)
    return 1  # pragma: no cover - execve does not return


def hold_store(db: str, url: str) -> tuple[Any, str | None]:
    """Takes the store at ``db`` for the dashboard about to serve it at ``url`` (a row of the
    store itself, :mod:`log.holding`: whatever folder, symlink or address reaches the store):
    ``(holder, None)``; ``(None, why)`` when another live dashboard holds it. A store not made
    yet is taken by the server once it is; one that cannot be asked now is served all the same
    (said on stderr)."""
    if not store_exists(db):
        return None, None
    mine = holding.me(url)
    try:
        with open_store(db) as store:
            other = holding.hold(store, mine)
    except BragError as err:
        print(f"brag: the store was not asked for another dashboard ({err})", file=sys.stderr)
        return None, None
    if other is not None:
        return None, (
            f"a dashboard (pid {other.pid} on {other.host}) already serves this store at "
            f"{other.url}; stop it first"
        )
    return mine, None


def _refusal(
    db: str, analytics: str, port: int | None, address: str, lan: bool
) -> tuple[str, str | None]:
    """The address to listen on (``lan``: every address) and why :func:`serve` refuses to serve
    there (``None``: it serves): a secret too short, ``--lan`` with another ``--address``, a
    bad address, a dashboard already serving this store, a busy port; in that order."""
    problem = secret_rule.problem(os.environ.get("BRAG_ORGANISER_SECRET"))
    if problem:
        return address, problem
    if lan:
        if address not in ("localhost", "0.0.0.0"):
            return address, "give --lan or --address, not both"
        address = "0.0.0.0"
    problem = address_problem(address)
    if problem:
        return address, problem
    other = running_dashboard(db, analytics)
    if other is not None:
        return address, (
            f"a dashboard (pid {other[0]}) already serves this store at {other[1]}; stop it first"
        )
    if port is not None and not port_is_free(port, address):
        return address, (
            f"port {port} on {address} is in use (another dashboard?); give another "
            "--port, or none to take a free one"
        )
    return address, None


def _announce_lan(env: dict[str, str], port: int) -> str | None:
    """``--lan``: prints the Record page's LAN address and its QR code (:func:`lan_banner`),
    and gives the address to the page (``BRAG_LAN_URL`` in ``env``); the machine's LAN
    address, ``None`` when it is on no network."""
    ip = lan_address()
    if ip is None:
        print("No network address found: this machine is on no network but itself.")
    else:
        env["BRAG_LAN_URL"] = f"http://{ip}:{port}"
        print(lan_banner(f"http://{ip}:{port}/record"))
    return ip


def cmd_dashboard(args: argparse.Namespace) -> int:
    if not store_exists(args.db):
        print(
            f"brag: no event store at {args.db} yet: the Record page makes it with the first "
            "session it records (brag run imports the bundled sessions)",
            file=sys.stderr,
        )
    return serve(args.db, _analytics_path(args), args.port, args.address, args.lan)


def bundled_logs(folder: str | Path) -> list[Path]:
    """The bundled session logs, in a stable order (sub-folders included)."""
    return sorted(Path(folder).rglob("*.jsonl"))


def import_bundled(store: Any, folder: str | Path) -> tuple[int, int, list[str]]:
    """Imports every bundled log; ``(sessions newly stored, already there, problems)``. A log
    whose session is stored with other events is reported, not overwritten."""
    new = same = 0
    problems: list[str] = []
    for path in bundled_logs(folder):
        try:
            result = store.import_log(str(path))
        except BragError as err:
            problems.append(f"{path}: {err}")
            continue
        if result.stored:
            new += 1
        else:
            same += 1
    return new, same, problems


def refresh_analytics(store: Any, path: str) -> str:
    """Brings the DuckDB projection at ``path`` up to date; a sentence saying what happened."""
    try:  # DuckDB: `brag dashboard` (the other command here) must not load it
        from analytics import projector
        from analytics.building import caught_up
    except ImportError as err:  # pragma: no cover - analytics is part of the package
        return f"analytics not available ({err})"

    # Caught up in one DuckDB transaction on the file (built beside it and renamed into place
    # only when new); a projection of another store is rebuilt when it is this store's default
    # file, else refused (analytics.owner).
    report, note = caught_up(
        path,
        store.url,
        lambda con: projector.refresh(store, con),
        rebuild=lambda con: projector.rebuild(store, con),
    )
    said = (
        f"analytics: {report.events:,} new {plural(report.events, 'event')} projected into {path}"
    )
    return f"{note}\n{said}" if note else said


def cmd_run(args: argparse.Namespace) -> int:
    analytics = _analytics_path(args)
    with open_store(args.db) as store:
        new, same, problems = import_bundled(store, args.data)
        if args.examples:
            n2, s2, p2 = import_bundled(store, EXAMPLES)
            new, same, problems = new + n2, same + s2, problems + p2
        print(f"bundled sessions: {new} imported, {same} already in {store.where}")
        for p in problems:
            print(f"  not imported: {p}", file=sys.stderr)
        try:
            print(refresh_analytics(store, analytics))
        except Exception as err:  # the app still runs; the Players page says what is wrong
            print(f"analytics not refreshed: {masked(str(err))}", file=sys.stderr)
    cmd_sessions(argparse.Namespace(db=args.db, json=False, results=args.results))
    if args.no_serve:
        return 1 if problems else 0
    return serve(args.db, analytics, args.port, args.address, args.lan)
