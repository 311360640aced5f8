"""The command line's own refusal: :class:`CommandError`, turned into its line and exit status
by :func:`brag.cli.main` (the one place that does so for every error)."""

from __future__ import annotations

from events.errors import PlainError

__all__ = ["CommandError"]


class CommandError(PlainError):
    """A command refuses its arguments or what they name (``--deals`` without ``--player``, a
    session or table the statistics do not know, a file that cannot be written): one line,
    ``brag: message`` (``brag export: message`` with ``command="export"``), exit status 1.

    Like argparse's usage errors it leaves :func:`brag.cli.main` as ``SystemExit`` carrying that
    line (a caller of ``main`` sees it so); every other error of the family is printed and
    ``main`` returns 1."""

    rule_name = "CLI"

    def __init__(self, message: str, *, command: str | None = None) -> None:
        self.command = command
        super().__init__(message)

    def one_line(self) -> str:
        """``brag: message`` or ``brag COMMAND: message``."""
        return f"brag {self.command}: {self.message}" if self.command else f"brag: {self.message}"
