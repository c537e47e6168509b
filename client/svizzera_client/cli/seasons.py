"""``svizzera season …``: a club's season tables from a terminal.

svizzera season create "Winter" --scoring places [--places 25,18,15] [--best 8]
svizzera season join SEASON_ID [--tournament ID]    svizzera season standings SEASON_ID [--csv]
svizzera season rename SEASON_ID NAME               svizzera season rule SEASON_ID --scoring points
svizzera season delete SEASON_ID (its tournaments stay, in no season)
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from svizzera_client.base import DEFAULT_SERVER
from svizzera_client.cli.clubs import Club, Json, Server, authorize, chosen_club
from svizzera_client.cli.session import CommandError, Session
from svizzera_client.models import SeasonCreate, SeasonScoring, SeasonStandingsRead, SeasonUpdate

season_app = typer.Typer(
    help="A club's season tables: its evenings summed up by one scoring rule.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def standings_table(read: SeasonStandingsRead) -> Table:
    table = Table(
        "#", "Name", "Score", "Evenings", "Counted", "Best place", "H2H", title=read.season.name
    )
    for r in read.rows:
        h2h = "" if r.head_to_head is None else f"{r.head_to_head:g}"
        table.add_row(
            str(r.rank), r.name, f"{r.score:g}", str(r.evenings), str(r.counted),
            str(r.best_place), h2h,
        )  # fmt: skip
    return table


@season_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The season's name.")],
    scoring: Annotated[
        str, typer.Option(help="places (points by final place), points or average.")
    ] = "places",
    places: Annotated[
        str | None, typer.Option(help="places: points of places 1, 2, … as 25,18,15,…")
    ] = None,
    best: Annotated[int | None, typer.Option(help="Count each player's best N evenings.")] = None,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Create a season of the club (its key is the one saved by svizzera club create)."""
    if scoring not in ("places", "points", "average"):
        raise typer.BadParameter("places, points or average", param_hint="--scoring")
    table = place_points(places)
    rule: SeasonScoring = scoring  # type: ignore[assignment]
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        made = s.client.create_season(
            club_id, SeasonCreate(name=name, scoring=rule, place_points=table, best=best)
        )
        s.show(
            made,
            f"Created season {made.name}: {made.id} ({made.scoring}).",
            f"Next: svizzera season join {made.id} (the current tournament joins it)",
        )


def place_points(places: str | None) -> list[int] | None:
    try:
        return [int(p) for p in places.split(",")] if places else None
    except ValueError:
        raise typer.BadParameter("whole numbers split by commas", param_hint="--places") from None


@season_app.command("rename")
def rename(
    season_id: Annotated[int, typer.Argument(help="The season's id.")],
    name: Annotated[str, typer.Argument(help="Its new name.")],
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Rename a season of the club (club key)."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        done = s.client.update_season(club_id, season_id, SeasonUpdate(name=name))
        s.show(done, f"Season {done.id} is {done.name}.")


@season_app.command("rule")
def change_rule(
    season_id: Annotated[int, typer.Argument(help="The season's id.")],
    scoring: Annotated[
        str | None, typer.Option(help="places (points by final place), points or average.")
    ] = None,
    places: Annotated[
        str | None, typer.Option(help="places: points of places 1, 2, … as 25,18,15,…")
    ] = None,
    best: Annotated[int | None, typer.Option(help="Count each player's best N evenings.")] = None,
    every_evening: Annotated[
        bool, typer.Option("--every-evening", help="Count every evening again (no --best).")
    ] = False,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Give a season another scoring rule (the options given): the table is ranked by it at
    once."""
    if scoring is not None and scoring not in ("places", "points", "average"):
        raise typer.BadParameter("places, points or average", param_hint="--scoring")
    if best is not None and every_evening:
        raise typer.BadParameter("--best or --every-evening, not both", param_hint="--best")
    fields: dict[str, object] = {}
    if scoring is not None:
        fields["scoring"] = scoring
    if places:
        fields["place_points"] = place_points(places)
    if best is not None or every_evening:
        fields["best"] = best
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        done = s.client.update_season(club_id, season_id, SeasonUpdate.model_validate(fields))
        counted = f"best {done.best} evenings" if done.best else "every evening"
        s.show(done, f"Season {done.name} scores by {done.scoring}, {counted}.")


@season_app.command("delete")
def delete(
    season_id: Annotated[int, typer.Argument(help="The season's id.")],
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Delete a season of the club (club key): its tournaments stay, in no season."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        s.client.delete_season(club_id, season_id)
        s.show({"deleted": season_id}, f"Season {season_id} deleted; its tournaments stay.")


@season_app.command("join")
def join(
    season_id: Annotated[int, typer.Argument(help="The season's id (0: leave its season).")],
    tournament: Annotated[
        str | None, typer.Option(help="Tournament id (default: the current one).")
    ] = None,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Put a tournament of the club in a season (finished or not); 0 takes it out."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        tid = tournament or s.store.current()
        if tid is None:
            raise CommandError("no_tournament", "no tournament chosen: --tournament ID")
        # its saved organizer token, else the club's key (an organizer of each of its evenings)
        s.client.tokens[tid] = (
            s.store.token(tid, s.server) if s.has_token(tid) else s.client.club_keys[club_id]
        )
        done = s.client.set_tournament_season(tid, season_id or None)
        s.show(done, f"{done.name} is in season {done.season_id}." if done.season_id else
               f"{done.name} is in no season.")  # fmt: skip


@season_app.command("standings")
def standings(
    season_id: Annotated[int, typer.Argument(help="The season's id.")],
    csv: Annotated[bool, typer.Option("--csv", help="Print the CSV instead.")] = False,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The season table (public: no key needed)."""
    with Session(server, as_json=json) as s:
        club_id = chosen_club(s, club)
        if csv:
            typer.echo(s.client.export_season_standings(club_id, season_id), nl=False)
            return
        read = s.client.get_season_standings(club_id, season_id)
        waiting = [e.name for e in read.evenings if not e.counted]
        note = f"Not counted yet: {', '.join(waiting)}." if waiting else ""
        s.show(read, standings_table(read), note)
