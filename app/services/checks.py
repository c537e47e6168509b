"""The checker (``POST /v1/check``): a tournament's rounds paired again and compared, from a TRF
body or a stored tournament. Nothing is written."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.collector import paused
from app.db import release_connection
from app.domain.checker import check_rounds
from app.domain.deadline import Deadline
from app.domain.trf import read_trf
from app.domain.trf_import import decode_trf, import_trf
from app.read_models import CheckRead
from app.services import access, storage, views

_SEED = 0
"""The imported tournament's seed: it drives no draw of a round already paired."""


def check_trf(body: bytes, *, deadline: Deadline) -> CheckRead:
    """The rounds of a TRF (read as ``POST /v1/tournaments`` reads one: a ``dutch`` tournament),
    each paired again by ``dutch``. A file that does not read refuses with ``InvalidTrf``."""
    with paused():  # the file read as ``trf.create`` reads it, each round paired again
        imported = import_trf(read_trf(decode_trf(body)), seed=_SEED)
        report = check_rounds(imported.tournament, deadline=deadline)
    return views.check(imported.tournament, report, name=imported.name, tournament_id=None)


def check_tournament(session: Session, tournament_id: str, *, deadline: Deadline) -> CheckRead:
    """A stored tournament's rounds, each paired again by its own system. The rows are read
    first and the connection given back before the pairing, which holds none."""
    header = access.read_header(session, tournament_id)
    tournament = storage.load(session, tournament_id)
    release_connection(session)
    with paused():  # every round paired again: as ``rounds._paired``
        report = check_rounds(tournament, deadline=deadline)
    return views.check(tournament, report, name=header.name, tournament_id=header.id)
