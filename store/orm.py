"""The ``events`` table as SQLModel declares it (:class:`EventRecord`), and its DDL in a SQLAlchemy
dialect. Imported by what creates a store's table or compares one with it in full
(:func:`store.schema.create_table_sql`, :func:`store.schema.sqlite_reference`): SQLModel and
SQLAlchemy take a quarter of a second to import, which a reader that checks the marker and the
version (:mod:`store.sql`) never pays."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateTable
from sqlmodel import Field, SQLModel

__all__ = ["EventRecord", "create_table_sql"]


class EventRecord(SQLModel, table=True):
    """One stored event (the only SQLModel class; events themselves are pydantic models).

    ``position`` is global and never reused (SQLite ``AUTOINCREMENT``, a PostgreSQL sequence);
    ``(session, seq)`` and ``id`` are unique. ``payload`` is the event's content as JSON (without
    ``type`` and envelope; PostgreSQL ``json``, not ``jsonb``, so the text and its key order are
    kept as written, e.g. ``nets`` in seat order); ``at`` is kept as the ISO text recorded (its
    offset is information); ``stored_at`` is UTC."""

    __tablename__ = "events"  # store.schema.TABLE (which imports this module, never the reverse)
    __table_args__ = (
        UniqueConstraint("session", "seq", name="events_session_seq_key"),
        UniqueConstraint("id", name="events_id_key"),
        CheckConstraint("seq >= 1", name="events_seq_check"),
        CheckConstraint("v >= 1", name="events_v_check"),
        {"sqlite_autoincrement": True},
    )

    position: int | None = Field(
        default=None,
        sa_column=Column(
            "position",
            BigInteger().with_variant(Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
    )
    session: str = Field(sa_column=Column("session", Text(), nullable=False))
    seq: int = Field(sa_column=Column("seq", Integer(), nullable=False))
    id: str = Field(
        sa_column=Column(
            "id",
            String(36).with_variant(postgresql.UUID(as_uuid=True), "postgresql"),
            nullable=False,
        )
    )
    type: str = Field(sa_column=Column("type", Text(), nullable=False))
    v: int = Field(sa_column=Column("v", Integer(), nullable=False))
    payload: str = Field(
        sa_column=Column(
            "payload", Text().with_variant(postgresql.JSON(), "postgresql"), nullable=False
        )
    )
    at: str | None = Field(default=None, sa_column=Column("at", Text(), nullable=True))
    by: str | None = Field(default=None, sa_column=Column("by", Text(), nullable=True))
    stored_at: datetime = Field(
        sa_column=Column(
            "stored_at",
            Text().with_variant(postgresql.TIMESTAMP(timezone=True), "postgresql"),
            nullable=False,
        )
    )


def create_table_sql(dialect: Any) -> str:
    table = EventRecord.__table__  # type: ignore[attr-defined]  # SQLModel sets it on table=True classes, untyped
    return str(CreateTable(table, if_not_exists=True).compile(dialect=dialect))
