"""A package's public names loaded on first use (PEP 562), so that importing the package, or one
of its modules, loads none of the others: what ``brag``'s start-up needs (bench/cli.py).

One mechanism for :mod:`engine`, :mod:`log` and :mod:`analytics`; each writes::

    _NAMES = LazyNames(__name__, _WHERE, __all__)

    def __getattr__(name: str) -> Any:
        return _NAMES.get(name)

    def __dir__() -> list[str]:
        return _NAMES.dir()
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["LazyNames"]


class LazyNames:
    """The names of package ``package``: ``where`` maps a public name to the module defining it
    (``{"replay": "engine.fold"}``: the name ``replay`` of that module), or, for a name in
    ``modules``, to the module that is the name (``{"queries": "analytics.queries"}``); any other
    name is a submodule of the package (``engine.state``), loaded as ``import`` would load it."""

    def __init__(
        self,
        package: str,
        where: Mapping[str, str],
        public: Iterable[str],
        modules: Iterable[str] = (),
    ) -> None:
        self.package, self.where, self.public = package, where, tuple(public)
        self.modules = frozenset(modules)

    def get(self, name: str) -> Any:
        """The value of ``package.name``, imported now and kept in the package; raises
        ``AttributeError`` for a name that is neither public nor a submodule."""
        module = self.where.get(name)
        if module is None:
            try:
                return importlib.import_module(f"{self.package}.{name}")
            except ModuleNotFoundError as err:
                if err.name != f"{self.package}.{name}":
                    raise
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        value = importlib.import_module(module)
        if name not in self.modules:
            value = getattr(value, name)
        vars(sys.modules[self.package])[name] = value
        return value

    def dir(self) -> list[str]:
        """What ``dir(package)`` lists: the names loaded so far and every public one."""
        return sorted({*vars(sys.modules[self.package]), *self.public})
