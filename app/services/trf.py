"""Tournaments as Tournament Report Files: the export, and the import that creates one."""

from __future__ import annotations

import secrets

from sqlalchemy.orm import Session

from app.collector import paused
from app.domain.trf import read_trf, write_trf
from app.domain.trf_export import export_trf
from app.domain.trf_import import decode_trf, import_trf
from app.services import storage, tournaments


def export(session: Session, tournament_id: str, *, name: str) -> tuple[int, str]:
    """The tournament's TRF text, and the version it was written from."""
    version, tournament = storage.load_versioned(session, tournament_id)
    return version, write_trf(export_trf(tournament, name=name))


def create(session: Session, body: bytes) -> tournaments.Created:
    """A ``dutch`` tournament with the whole history of a TRF (``app.domain.trf_import``), a
    fresh seed and organizer token. A file that does not read refuses with ``InvalidTrf``
    before anything is written.

    The cyclic collector is paused meanwhile (``app.collector``): a megabyte of file is some
    200,000 objects alive until the rows are written, which it would scan in full, for nothing,
    once or twice."""
    with paused():
        imported = import_trf(
            read_trf(decode_trf(body)), seed=secrets.randbelow(tournaments.SEED_LIMIT)
        )
        return tournaments.insert_new(
            session,
            name=imported.name,
            tournament=imported.tournament,
            source="trf",
            rounds=imported.tournament.current_round,
        )
