"""Tournaments as Tournament Report Files: the export (and the import, ``app.domain.trf_*``)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.domain.trf import write_trf
from app.domain.trf_export import export_trf
from app.services import storage


def export(session: Session, tournament_id: str, *, name: str) -> tuple[int, str]:
    """The tournament's TRF text, and the version it was written from."""
    version, tournament = storage.load_versioned(session, tournament_id)
    return version, write_trf(export_trf(tournament, name=name))
