"""The annotations half of a SQL recorder (store version 4, :mod:`store.annotations`; the
``event`` column from version 6): mixed into :class:`store.sql.SqlRecorder` beside
:class:`store.catalogue.CatalogueReads`. A store of version 4 or 5 read as it is gives its rows
with ``event`` ``None`` (:mod:`log.annotations` resolves them as the migration would)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from events.errors import StoreError
from store.annotations import SELECT, SELECT_V5, Annotation, annotation_of
from store.schema import EVENT_COLUMN_VERSION, META, STORE_VERSION

__all__ = ["AnnotationReads"]


class AnnotationReads:
    """Reads a store's annotations; an older store read as it is has none."""

    version: int
    readonly: bool

    @property
    def where(self) -> str:
        raise NotImplementedError

    def sql(self, text: str) -> str:
        raise NotImplementedError

    def connection(self) -> Any:
        raise NotImplementedError

    def errors(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    @property
    def annotated(self) -> bool:
        """Whether the store has the annotations table (an older one read as it is has none)."""
        return int(self.version) >= 4

    def check_annotated(self) -> None:
        if not self.annotated:
            raise StoreError(f"{self.where}: store version {self.version} keeps no notes")

    def _annotated_now(self, conn: Any) -> bool:
        """Whether the annotations table is there: a reader opened on an older store looks
        again (a writer may have migrated it since; the version it reads is then its own, so a
        reader kept open reads the ``event`` column once a writer has made it, version 6)."""
        if (self.annotated and self.version >= EVENT_COLUMN_VERSION) or not self.readonly:
            return self.annotated
        try:
            got = conn.execute(f"SELECT value FROM {META} WHERE key = 'version'").fetchone()
        except Exception:  # a version 1 store has no marker: no annotations either
            return False
        text = str(got[0]) if got else ""
        if text.isascii() and text.isdigit() and 4 <= int(text) <= STORE_VERSION:
            self.version = int(text)
        return self.annotated

    def annotations_on(self, conn: Any, session: str) -> list[Annotation]:
        if not self._annotated_now(conn):
            return []
        select = SELECT if int(self.version) >= EVENT_COLUMN_VERSION else SELECT_V5
        cur = conn.execute(self.sql(f"{select} WHERE session = ? ORDER BY position"), (session,))
        return [annotation_of(r) for r in cur.fetchall()]

    def annotations(self, session: str) -> list[Annotation]:
        """The session's annotations in the order stored (none in a store older than 4)."""
        with self.errors():
            return self.annotations_on(self.connection(), session)
