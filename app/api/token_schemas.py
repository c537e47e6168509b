"""Request and response bodies of the token endpoints (``/v1/tournaments/{id}/tokens``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.inputs import NO_CONTROL_CHARACTERS

Label = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=80, pattern=NO_CONTROL_CHARACTERS
    ),
]
"""Whose token or key it is, for the list (never secret)."""


class TokenCreate(BaseModel):
    """A scorekeeper token: it may record and clear results, nothing else. (A club key, made by
    ``POST /v1/clubs/{club_id}/keys``, takes the same body.)"""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"label": "Table 3"}]}
    )

    label: Label | None = Field(
        default=None, description="Whose token it is, for the organizer's list (never secret)"
    )


class TokenRead(BaseModel):
    """A scorekeeper token, without its secret."""

    id: int = Field(
        description="The token's id in this tournament (the audit trail's `scorekeeper:<id>`)"
    )
    kind: Literal["scorekeeper"] = Field(
        description="`scorekeeper`: records and clears results only"
    )
    label: str | None
    created_at: datetime
    revoked_at: datetime | None = Field(description="When it was revoked; null while it works")


class TokenCreated(TokenRead):
    """The new token, with its secret: shown this once, stored only as a hash."""

    token: str = Field(description="Send as `Authorization: Bearer …` to record results")


class OrganizerTokenRotated(BaseModel):
    """The new organizer token: shown this once; the old one no longer works."""

    organizer_token: str
