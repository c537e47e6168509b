"""/health: liveness and database reachability."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from app.api.schemas import Health

router = APIRouter(tags=["health"])


@router.get(
    "/health",
    operation_id="health-read",
    summary="Liveness and database reachability",
    response_model=Health,
    responses={503: {"model": Health, "description": "The database is unreachable"}},
)
def health(request: Request) -> JSONResponse:
    """200 while the database answers; 503 (same body, `degraded`) when it does not."""
    try:
        with request.app.state.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError:
        body = Health(status="degraded", database="unreachable")
        return JSONResponse(body.model_dump(), status_code=503)
    return JSONResponse(Health(status="ok", database="ok").model_dump())
