"""The club's register of players' names (issue 35 item 2): the merges and renames kept beside
the log (:mod:`store.register`), folded into one answer, :meth:`Register.resolve`: the name a
recorded name goes by now. The logs are never rewritten; the statistics key each recorded name
by its resolved name (:mod:`analytics.register`), so a merge moves them and its undo moves them
back.

- ``merge A into B``: ``A`` (a recorded name) is ``B`` (a name in use) from now on;
- ``rename A to B``: the player ``A`` is called ``B`` (a name no one uses);
- ``undo``: the latest merge or rename still in force no longer holds (itself a fact).

Names are matched by their :func:`events.text.normal` form, as everywhere (one name, one
player). A merge of two players seated in one session is refused (RULES 1.3: two seats are two
players); a session recorded later that seats both keeps their names apart
(:meth:`Register.seats`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from events.errors import PlainError
from events.text import inert, normal
from store.register import Kind, RegisterFact

__all__ = ["Register", "Seated", "merge", "register_of", "rename", "seated_of", "undo"]


@dataclass(frozen=True)
class Register:
    """The register's ``facts`` (oldest first) folded: what holds now."""

    facts: tuple[RegisterFact, ...] = ()
    _map: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        m: dict[str, str] = {}
        for f in self.in_force():
            m.pop(normal(f.target), None)  # the target is a name in use again (a rename back)
            m[normal(f.name)] = f.target
        object.__setattr__(self, "_map", m)

    @property
    def version(self) -> int:
        """The last fact's position (0: an empty register): the statistics record it and are
        re-keyed when it moves."""
        return self.facts[-1].position if self.facts else 0

    def in_force(self) -> list[RegisterFact]:
        """The merges and renames not undone, oldest first."""
        undone = {f.undoes for f in self.facts if f.kind == "undo"}
        return [f for f in self.facts if f.kind != "undo" and f.position not in undone]

    def resolve(self, name: str) -> str:
        """The name ``name`` (as recorded) goes by now: itself unless merged or renamed (then
        the last name of the chain).

        >>> from store.register import RegisterFact as F
        >>> at = datetime(2026, 12, 5, tzinfo=UTC)
        >>> r = Register((F(1, "merge", "Jaen", "Jean", None, at, "o"),
        ...               F(2, "rename", "Jean", "Jean Smith", None, at, "o")))
        >>> r.resolve("jaen"), r.resolve("Jean"), r.resolve("Bob")
        ('Jean Smith', 'Jean Smith', 'Bob')
        """
        seen = set()
        key = normal(name)
        while key in self._map and key not in seen:
            seen.add(key)
            name = self._map[key]
            key = normal(name)
        return name

    def key(self, name: str) -> str:
        """The statistics' key of ``name``: the normal form of :meth:`resolve`."""
        return normal(self.resolve(name))

    def seats(self, seats: Sequence[str]) -> dict[str, str]:
        """Each of one session's ``seats`` -> the name it goes by in that session: resolved,
        unless two seats would be one name (RULES 1.3), then those stay as recorded."""
        out = {s: self.resolve(s) for s in seats}
        keys = [normal(v) for v in out.values()]
        return {s: v if keys.count(normal(v)) == 1 else s for s, v in out.items()}

    def also(self, name: str, recorded: Iterable[str]) -> list[tuple[str, RegisterFact]]:
        """The names of ``recorded`` (as the log has them) that now go by ``name``, other than
        ``name``'s own spellings, each with the fact in force that made it so."""
        out = []
        facts = self.in_force()
        for r in dict.fromkeys(recorded):
            if normal(r) == normal(name) or self.key(r) != normal(name):
                continue
            why = next((f for f in reversed(facts) if normal(f.name) == normal(r)), None)
            if why is not None:
                out.append((r, why))
        return out

    def last_in_force(self) -> RegisterFact | None:
        """The fact an undo undoes: the latest in force."""
        facts = self.in_force()
        return facts[-1] if facts else None


def register_of(recorder: Any) -> Register:
    """The register of the store ``recorder`` (a store or an :class:`log.EventStore`) now."""
    inner = getattr(recorder, "recorder", recorder)
    return Register(tuple(inner.register_facts()))


@dataclass(frozen=True, slots=True)
class Seated:
    """What a merge or rename checks names against: the names recorded in the store
    (``players``) and each session's seats (``sessions``)."""

    players: Sequence[str]
    sessions: Sequence[Sequence[str]] = ()


def seated_of(store: Any) -> Seated:
    """The names recorded in ``store`` (a :class:`log.EventStore`) and each session's seats,
    from its listing (the catalogue)."""
    infos = store.sessions()
    players = list(dict.fromkeys(p for i in infos for p in i.players))
    return Seated(players, [i.players for i in infos])


def _in_use(reg: Register, players: Sequence[str]) -> dict[str, str]:
    """Each name in use now (a resolved recorded name) by its normal form."""
    return {normal(reg.resolve(p)): reg.resolve(p) for p in players}


def _named(name: str, players: Iterable[str]) -> str:
    """The name of ``players`` that ``name`` is (its normal form); else a
    :class:`~events.errors.PlainError` offering the nearest ("did you mean Jean?")."""
    players = list(players)
    found = next((p for p in players if normal(p) == normal(name)), None)
    if found is None:
        from log.near import nearest

        offer = nearest(name, players)
        hint = f"; did you mean {inert(offer)}?" if offer else ""
        raise PlainError(f"no player named {inert(name)}{hint}")
    return found


def _write(store: Any, kind: Kind, name: str, target: str, undoes: int | None,
           by: str) -> RegisterFact:  # fmt: skip
    inner = getattr(store, "recorder", store)
    with inner.transaction() as tx:
        return tx.register().add(kind, name, target, undoes, datetime.now(UTC), by)  # type: ignore[no-any-return]  # the store's own RegisterFact


def merge(store: Any, name: str, into: str, seated: Seated, *, by: str) -> RegisterFact:
    """Records ``merge name into into``; :class:`~events.errors.PlainError` in one sentence for
    a name not recorded (with the nearest offered), one merged into itself, or two players
    seated in one session (RULES 1.3)."""
    reg = register_of(store)
    a = _named(name, seated.players)
    b = _named(into, _in_use(reg, seated.players).values())
    if reg.key(a) == normal(b):
        raise PlainError(f"{inert(a)} is {inert(b)} already")
    for seats in seated.sessions:
        keys = {reg.key(s) for s in seats}
        if reg.key(a) in keys and normal(b) in keys:
            raise PlainError(
                f"{inert(a)} and {inert(b)} sat in one session, so they are two players "
                "(RULES 1.3); not merged"
            )
    return _write(store, "merge", a, b, None, by)


def rename(store: Any, name: str, to: str, seated: Seated, *, by: str) -> RegisterFact:
    """Records ``rename name to to``; :class:`~events.errors.PlainError` for a name not in use,
    or a new name someone already goes by (merge them instead)."""
    reg = register_of(store)
    in_use = _in_use(reg, seated.players)
    a = _named(name, in_use.values())
    to = to.strip()
    if not to or len(to) > 64 or inert(to) != to:
        raise PlainError("A player's name is 1 to 64 printable characters (FORMAT.md bounds).")
    if normal(to) in in_use and normal(to) != normal(a):
        raise PlainError(f"{inert(to)} is a player already: merge {inert(a)} into them instead")
    if to == a:
        raise PlainError(f"{inert(a)} is called {inert(to)} already")
    return _write(store, "rename", a, to, None, by)


def undo(store: Any, *, by: str) -> RegisterFact:
    """Records the undoing of the latest merge or rename in force (returns the undo, naming the
    fact undone); :class:`~events.errors.PlainError` when there is none."""
    last = register_of(store).last_in_force()
    if last is None:
        raise PlainError("nothing to undo: no merge or rename is in force")
    return _write(store, "undo", last.name, last.target, last.position, by)
