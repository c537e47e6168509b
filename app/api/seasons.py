"""/v1/clubs/{id}/seasons: a club's season tables (create with a club key; read, list, the
standings and their CSV in public, as the evenings they sum up are), and
/v1/tournaments/{id}/season: a tournament joining or leaving one (docs/clubs.md, "Seasons")."""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from typing import Annotated

from fastapi import APIRouter, Header, Path, Response, status

from app.api import paging
from app.api.cache import body_etag, conditional
from app.api.clubs import KEY_WRITE, ClubId, ClubKeyDep, IfNoneMatch
from app.api.deps import OrganizerDep, ReadCacheDep, SessionDep
from app.api.pages import CsvSeparatorDep
from app.api.responses import WRITE, problems
from app.api.routing import CommittingRoute
from app.api.season_schemas import SeasonCreate, SeasonUpdate, TournamentSeason
from app.inputs import MAX_INTEGER
from app.printing.season_csv import render_season_csv
from app.read_models import (
    SeasonEveningRead,
    SeasonPage,
    SeasonRead,
    SeasonStandingRow,
    SeasonStandingsRead,
    TournamentRead,
    exact_number,
)
from app.services import season_changes, seasons, tournaments, views

router = APIRouter(tags=["seasons"], route_class=CommittingRoute)
SeasonIdPath = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="The season's id")]
PREFIX = "/v1/clubs/{club_id}/seasons"
TIEBREAKS = ["evenings", "best_place", "head_to_head"]
SeasonIfMatch = Annotated[
    str | None, Header(description="Refuse with 412 unless the season is at this ETag")
]
SEASON_WRITE = problems(401, 403, 404, 412, 413, 503)


def season_read(season: seasons.Season) -> SeasonRead:
    rule = season.rule
    return SeasonRead(
        id=season.id,
        club_id=season.club_id,
        name=season.name,
        scoring=rule.scoring.value,
        place_points=list(rule.place_points),
        best=rule.best,
        version=season.version,
        created_at=season.created_at,
        standings=f"/v1/clubs/{season.club_id}/seasons/{season.id}/standings",
    )


def standings_read(table: seasons.Table) -> SeasonStandingsRead:
    return SeasonStandingsRead(
        season=season_read(table.season),
        evenings=[
            SeasonEveningRead(
                tournament_id=e.tournament_id,
                name=e.name,
                status=e.status,
                created_at=e.created_at,
                counted=e.counted,
            )
            for e in table.evenings
        ],
        tiebreaks=TIEBREAKS,
        rows=[
            SeasonStandingRow(
                rank=line.row.rank,
                club_player_id=line.row.player,
                name=line.name,
                score=exact_number(line.row.score),
                evenings=line.row.evenings,
                counted=line.row.counted,
                best_place=line.row.best_place,
                points=exact_number(line.row.points),
                matches=line.row.matches,
                head_to_head=None
                if line.row.head_to_head is None
                else exact_number(line.row.head_to_head),
            )
            for line in table.lines
        ],
    )


def table_tag(key: Hashable) -> str:
    """The standings' ETag: a hash of what they depend on (``seasons.table_key``)."""
    return '"' + hashlib.sha256(repr(key).encode()).hexdigest()[:32] + '"'


@router.post(
    PREFIX,
    status_code=status.HTTP_201_CREATED,
    operation_id="seasons-create",
    summary="Create a season (club key)",
    response_model=SeasonRead,
    responses=KEY_WRITE,
)
def create_season(
    body: SeasonCreate, write: ClubKeyDep, session: SessionDep, response: Response
) -> SeasonRead:
    """A season of the club and its scoring rule: points by final `places` (a table, by default
    25-18-15-12-10-8-6-4-2-1), the sum of `points`, or the `average` per round played,
    optionally over each player's `best` N evenings. Its tournaments join it when made
    (`season_id`) or later (`PUT /v1/tournaments/{id}/season`)."""
    season = seasons.create(
        session,
        write,
        name=body.name,
        scoring=body.scoring,
        place_points=body.place_points,
        best=body.best,
    )
    response.headers["Location"] = f"/v1/clubs/{season.club_id}/seasons/{season.id}"
    response.headers["ETag"] = f'"{season.version}"'
    return season_read(season)


@router.get(
    PREFIX,
    operation_id="seasons-list",
    summary="List the club's seasons, oldest first",
    response_model=SeasonPage,
    responses=problems(304, 404),
)
def list_seasons(
    club_id: ClubId,
    session: SessionDep,
    limit: paging.Limit = 20,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Public, as the club's tournaments are. The ETag is the page's hash."""
    found = seasons.page(session, club_id, after=paging.decode_id(cursor), limit=limit + 1)
    page = SeasonPage(
        items=[season_read(s) for s in found[:limit]],
        next_cursor=paging.next_cursor([s.id for s in found], limit),
    )
    body = page.model_dump_json().encode()
    return conditional(body, body_etag(body), if_none_match)


@router.get(
    PREFIX + "/{season_id}",
    operation_id="seasons-read",
    summary="Read a season",
    response_model=SeasonRead,
    responses=problems(304, 404),
)
def read_season(
    club_id: ClubId, season_id: SeasonIdPath, session: SessionDep, if_none_match: IfNoneMatch = None
) -> Response:
    """Its name and scoring rule, and where its standings are."""
    season = seasons.read(session, club_id, season_id)
    body = season_read(season).model_dump_json().encode()
    return conditional(body, f'"{season.version}"', if_none_match)


@router.patch(
    PREFIX + "/{season_id}",
    operation_id="seasons-update",
    summary="Rename a season, change its scoring rule (club key)",
    response_model=SeasonRead,
    responses=SEASON_WRITE,
)
def update_season(
    season_id: SeasonIdPath,
    body: SeasonUpdate,
    write: ClubKeyDep,
    session: SessionDep,
    response: Response,
    if_match: SeasonIfMatch = None,
) -> SeasonRead:
    """The fields given: `name`, `scoring`, `place_points`, `best` (`null`: every evening
    counts). A new rule ranks the table by it at once (nothing is stored per rule) and emits
    `season.updated` (`reason: "settings"`); the same values again change nothing. Audited in
    the club's trail as `seasons-update`. `If-Match` with the season's ETag refuses a change
    made meanwhile (412)."""
    fields = body.model_dump(exclude_unset=True)
    season = season_changes.update_season(session, write, season_id, fields, if_match=if_match)
    response.headers["ETag"] = f'"{season.version}"'
    return season_read(season)


@router.delete(
    PREFIX + "/{season_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="seasons-delete",
    summary="Delete a season; its tournaments stay, in no season (club key)",
    responses=SEASON_WRITE,
)
def delete_season(
    season_id: SeasonIdPath,
    write: ClubKeyDep,
    session: SessionDep,
    if_match: SeasonIfMatch = None,
) -> Response:
    """The season and its table go; its tournaments (finished or not) leave it and stay, with
    their results and ratings, each as `PUT /v1/tournaments/{id}/season` with `null` would take
    it out (its version moves, its trail has `tournaments-season`). `season.deleted` in the
    club's events, `seasons-delete` in its trail. 503 `busy` if a tournament that joined just
    now is being written: try again."""
    season_changes.delete_season(session, write, season_id, if_match=if_match)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    PREFIX + "/{season_id}/standings",
    operation_id="season-standings-read",
    summary="The season table",
    response_model=SeasonStandingsRead,
    responses=problems(304, 404),
)
def read_season_standings(
    club_id: ClubId,
    season_id: SeasonIdPath,
    session: SessionDep,
    cache: ReadCacheDep,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Every register entry that played a finished evening of the season, by the season's
    rule, then evenings played (more first), best place (lower first) and head to head (points
    in games among the players still tied); players equal on all of them share a rank. Only
    finished evenings count; the others are listed in `evenings` with `counted: false`. A
    merge of two register entries reads through: one line, as if they had always been one."""
    season = seasons.read(session, club_id, season_id)
    found = seasons.evenings_of(session, season)
    key = seasons.table_key(session, season, found)
    tag = table_tag(key)

    def render() -> bytes:
        table = seasons.table(session, season, found)
        return standings_read(table).model_dump_json().encode()

    if if_none_match is not None and _names(tag, if_none_match):
        return conditional(b"", tag, if_none_match)  # 304, without computing the table
    body = cache.get_or_render(key, render)
    return Response(body, media_type="application/json", headers={"ETag": tag})


def _names(tag: str, if_none_match: str) -> bool:
    tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
    return "*" in tags or tag in tags


@router.get(
    PREFIX + "/{season_id}/export.csv",
    operation_id="season-standings-export",
    summary="The season table as CSV",
    response_class=Response,
    responses={
        **problems(404),
        200: {"content": {"text/csv": {}}, "description": "The season table's rows"},
    },
)
def export_season_csv(
    club_id: ClubId,
    season_id: SeasonIdPath,
    session: SessionDep,
    separator: CsvSeparatorDep,
) -> Response:
    """The season table as CSV (UTF-8 with a byte order mark), one line per player in rank
    order, as the tournament's `export.csv` is written (`sep=semicolon` or `lang=it`, `sk`,
    `cs` for spreadsheets with a decimal comma)."""
    season = seasons.read(session, club_id, season_id)
    found = seasons.evenings_of(session, season)
    csv = render_season_csv(seasons.table(session, season, found), separator=separator)
    return Response(
        "\ufeff" + csv,
        media_type="text/csv; charset=utf-8",
        headers={
            "ETag": table_tag(seasons.table_key(session, season, found)),
            "Content-Disposition": f'attachment; filename="season-{club_id}-{season_id}.csv"',
        },
    )


@router.put(
    "/v1/tournaments/{tournament_id}/season",
    operation_id="tournament-season-set",
    summary="Put the tournament in a season of its club (or out of one)",
    response_model=TournamentRead,
    responses={**WRITE, **problems(422)},
)
def set_tournament_season(
    body: TournamentSeason, write: OrganizerDep, session: SessionDep
) -> TournamentRead:
    """The tournament (of a club) counts in the club's season `season_id` from now, finished
    or not; `null` takes it out of its season. The tournament's organizer token or a key of its
    club. 422 `not_a_club_tournament` for a tournament without a club, 404 `season_not_found`
    for a season of another club, 409 `season_full` past 366 tournaments."""
    seasons.join(session, write, body.season_id)
    return views.tournament(tournaments.summaries(session, [write.tournament_id])[0])
