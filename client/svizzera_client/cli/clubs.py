"""``svizzera club …``: a club, its player register and its tournaments from a terminal.

svizzera club create "Circolo Rovereto"     svizzera club players [QUERY]
svizzera club add Müller --alias Mueller    svizzera club merge KEEP MERGED
svizzera club tournament players.txt (names, @ID)   svizzera club tournaments [--status swiss]
svizzera club keys [--new LABEL | --rotate ID | --revoke ID]
svizzera club ratings [--history ID] [--system elo|glicko2] [--k 24]
svizzera club events [--after N] [--follow [--timeout S]]
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from svizzera_client.base import DEFAULT_SERVER
from svizzera_client.cli import render
from svizzera_client.cli.inputs import InputError, read_players
from svizzera_client.cli.session import CommandError, Session
from svizzera_client.cli.store import Saved, SavedClub
from svizzera_client.errors import Forbidden
from svizzera_client.events import parse_club_event
from svizzera_client.models import (
    ClubCreate,
    ClubKeyRead,
    ClubPlayerCreate,
    ClubPlayerRead,
    ClubRatingRead,
    ClubTournamentCreate,
    ClubUpdate,
    FideTitle,
    PairingSystem,
    PlayerCreate,
    RatingStepRead,
    RatingSystem,
    RegisterPlayer,
    Status,
    TokenCreate,
    TournamentRead,
)

club_app = typer.Typer(
    help="A club: its player register and its tournaments (the key is saved for you).",
    no_args_is_help=True,
    rich_markup_mode=None,
)

Server = Annotated[
    str,
    typer.Option("--server", envvar="SVIZZERA_SERVER", help="The Svizzera server's base URL."),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON (for scripts) instead of tables.")]
Club = Annotated[
    str | None,
    typer.Option("--club", envvar="SVIZZERA_CLUB", help="Club id (default: the one created last)."),
]


def chosen_club(s: Session, club: str | None) -> str:
    """The club chosen: ``--club``, else the last created."""
    club_id = club or s.store.current_club()
    if club_id is None:
        raise CommandError("no_club", "no club chosen: svizzera club create NAME, or --club ID")
    return club_id


def authorize(s: Session, club: str | None) -> str:
    """The club chosen (``chosen_club``), its saved key given to the client."""
    club_id = chosen_club(s, club)
    s.client.club_keys[club_id] = s.store.club_key(club_id, s.server)
    return club_id


def register_table(entries: list[ClubPlayerRead]) -> Table:
    table = Table("Id", "Name", "Aliases", "Rating", title="Register")
    for e in entries:
        rating = "" if e.rating is None else str(e.rating)
        table.add_row(str(e.id), e.name, ", ".join(e.aliases), rating)
    return table


def keys_table(keys: list[ClubKeyRead]) -> Table:
    table = Table("Id", "Label", "Created", "Revoked", title="Club keys")
    for k in keys:
        revoked = "" if k.revoked_at is None else f"{k.revoked_at:%Y-%m-%d %H:%M}"
        table.add_row(str(k.id), k.label or "", f"{k.created_at:%Y-%m-%d %H:%M}", revoked)
    return table


def tournaments_table(items: list[TournamentRead]) -> Table:
    table = Table("Id", "Name", "Status", "Players", "Created", title="Tournaments")
    for t in items:
        created = f"{t.created_at:%Y-%m-%d}"
        table.add_row(t.id, t.name, t.status, str(t.player_count), created)
    return table


@club_app.command("create")
def create_club(
    name: Annotated[str, typer.Argument(help="The club's name.")],
    create_key: Annotated[
        str | None,
        typer.Option(envvar="SVIZZERA_CREATE_KEY", help="The server's key to create, if any."),
    ] = None,
    rating_system: Annotated[
        RatingSystem, typer.Option(help="How the club rates its players.")
    ] = "elo",
    elo_k: Annotated[int, typer.Option(help="Elo's K factor (1–100).")] = 20,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Create a club; its key is saved for you (only you can read it)."""
    with Session(server, as_json=json) as s:
        s.client.create_key = create_key
        body = ClubCreate(name=name, rating_system=rating_system, elo_k=elo_k)
        made = s.client.create_club(body)
        path = s.store.save_club(SavedClub(made.id, s.server, made.name, made.key.key))
        shown = made.model_dump(mode="json")
        shown["key"].pop("key")
        s.show(
            {**shown, "key_file": str(path)},
            f"Created club {made.name}: {made.id}.",
            f"The club key is saved in {path} (only you can read it).",
            "Next: svizzera club add NAME, or svizzera club tournament players.txt",
        )


@club_app.command("players")
def players(
    query: Annotated[
        str | None, typer.Argument(help="Part of a name or alias (accents, case aside).")
    ] = None,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 50,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Search the register (all of it, in name order, without QUERY)."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        page = s.client.search_club_players(club_id, q=query, limit=limit)
        more = " (more: narrow the search)" if page.next_cursor else ""
        s.show(page, register_table(page.items), f"{len(page.items)} found{more}.")


@club_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="The person's name.")],
    alias: Annotated[
        list[str] | None, typer.Option("--alias", help="Another name (repeat for more).")
    ] = None,
    rating: Annotated[int | None, typer.Option(help="Their rating.")] = None,
    title: Annotated[FideTitle | None, typer.Option(help="FIDE title.")] = None,
    fide_id: Annotated[int | None, typer.Option(help="FIDE id.")] = None,
    team: Annotated[str | None, typer.Option(help="Their team.")] = None,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Add a person to the register."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        body = ClubPlayerCreate(
            name=name, aliases=alias or [], rating=rating, title=title, fide_id=fide_id, team=team
        )
        entry = s.client.add_club_player(club_id, body)
        s.show(entry, register_table([entry]))


@club_app.command("merge")
def merge(
    keep: Annotated[int, typer.Argument(help="The entry that stays.")],
    merged: Annotated[int, typer.Argument(help="The entry that goes into it.")],
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """One person entered twice: MERGED's tournaments and names go to KEEP."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        entry = s.client.merge_club_players(club_id, keep, merged)
        played = len(entry.tournaments)
        s.show(entry, register_table([entry]), f"{entry.name} has played {played} tournaments.")


@club_app.command("tournament")
def tournament(
    players_file: Annotated[
        Path,
        typer.Argument(
            help="One player a line: a name (the register's entry of that name or alias, or a "
            "new one), or @ID for a register entry; a rating may follow a comma."
        ),
    ],
    name: Annotated[str | None, typer.Option(help="Default: the file's name.")] = None,
    pairing: PairingSystem | None = None,
    seed: Annotated[int | None, typer.Option(help="Drives every draw (default: random).")] = None,
    seed_by_rating: Annotated[
        bool,
        typer.Option(help="Register entries play with their club rating (seeding, numbers)."),
    ] = False,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Create a tournament of the club from a players file; its organizer token is saved and
    it becomes the current tournament (svizzera round, result, … then work on it)."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        entrants: list[RegisterPlayer | PlayerCreate] = []
        for player in read_players(players_file):
            if player.name.startswith("@"):
                if not player.name[1:].isdigit():
                    raise InputError(f"{player.name!r}: a register entry is @ and its id")
                entrants.append(RegisterPlayer(club_player_id=int(player.name[1:])))
            else:
                entrants.append(player)
        settings = {
            "pairing": pairing,
            "seed": seed,
            "seed_by": "club_rating" if seed_by_rating else None,
        }
        body = ClubTournamentCreate(
            name=name or players_file.stem,
            players=entrants,
            **{k: v for k, v in settings.items() if v is not None},  # type: ignore[arg-type]
        )
        made = s.client.create_club_tournament(club_id, body)
        path = s.store.save(Saved(made.id, s.server, made.name, made.organizer_token))
        shown = made.model_dump(mode="json", exclude={"organizer_token"})
        s.show(
            {**shown, "token_file": str(path)},
            f"Created {made.name}: {made.id}, a tournament of club {club_id} "
            f"({made.player_count} players).",
            "Next: svizzera round",
        )


@club_app.command("tournaments")
def tournaments(
    status: Annotated[Status | None, typer.Option(help="Only those in this status.")] = None,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 20,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The club's tournaments, newest first."""
    with Session(server, as_json=json) as s:
        club_id = chosen_club(s, club)
        page = s.client.list_club_tournaments(club_id, status=status, limit=limit)
        s.show(page, tournaments_table(page.items))


@club_app.command("keys")
def keys(
    new: Annotated[str | None, typer.Option("--new", metavar="LABEL", help="Make a key.")] = None,
    rotate: Annotated[
        int | None, typer.Option("--rotate", metavar="ID", help="A new secret for key ID.")
    ] = None,
    revoke: Annotated[
        int | None, typer.Option("--revoke", metavar="ID", help="Revoke key ID.")
    ] = None,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The club's keys; --new prints the new key once (give it to whom it is for), --rotate of
    the saved key saves the new one."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        said: list[str] = []
        if new is not None:
            made = s.client.create_club_key(club_id, TokenCreate(label=new))
            said.append(f"Key {made.id} ({new}): {made.key}  (shown this once)")
        if rotate is not None:
            rotated = s.client.rotate_club_key(club_id, rotate)
            said.append(f"Key {rotated.id} rotated: {rotated.key}  (shown this once)")
            try:
                s.client.list_club_keys(club_id)
            except Forbidden:  # it was the key saved here: keep the new one instead
                s.client.club_keys[club_id] = rotated.key
                name = s.client.get_club(club_id).name
                path = s.store.save_club(SavedClub(club_id, s.server, name, rotated.key))
                said.append(f"It was the key saved here: the new one is saved in {path}.")
        if revoke is not None:
            s.client.revoke_club_key(club_id, revoke)
            said.append(f"Key {revoke} revoked.")
        listed = s.client.list_club_keys(club_id)
        s.show(listed, *said, keys_table(listed))


def ratings_table(lines: list[ClubRatingRead], system: str) -> Table:
    glicko = system == "glicko2"
    columns = ["#", "Id", "Name", "Rating", *(["RD"] if glicko else []), "Games", "Last"]
    table = Table(*columns, title=f"Club ratings ({system})")
    for place, line in enumerate(lines, start=1):
        rd = [f"{line.deviation:.0f}"] if glicko and line.deviation is not None else []
        row = [str(place), str(line.club_player_id), line.name, f"{line.rating:.0f}", *rd]
        table.add_row(*row, str(line.games), f"{line.last_change:+.1f}")
    return table


def history_table(steps: list[RatingStepRead]) -> Table:
    table = Table("Tournament", "Before", "After", "Games", "Score", "Perf.", title="History")
    for step in steps:
        table.add_row(
            step.tournament_name,
            f"{step.rating_before:.0f}",
            f"{step.rating:.0f}",
            str(step.games),
            f"{step.score:g}",
            f"{step.performance:.0f}",
        )
    return table


@club_app.command("ratings")
def ratings(
    history: Annotated[
        int | None,
        typer.Option("--history", metavar="ID", help="Entry ID's rating after each tournament."),
    ] = None,
    system: Annotated[
        RatingSystem | None,
        typer.Option("--system", help="Change the rating system (rates the club again)."),
    ] = None,
    k: Annotated[
        int | None, typer.Option("--k", help="Change Elo's K factor (rates the club again).")
    ] = None,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 50,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The club's rating list, best first; --history ID one entry's history; --system and --k
    change the club's rating settings first."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        if system is not None or k is not None:
            s.client.rename_club(club_id, ClubUpdate(rating_system=system, elo_k=k))
        if history is not None:
            steps = s.client.get_rating_history(club_id, history, limit=min(limit, 100))
            s.show(steps, history_table(steps.items))
            return
        page = s.client.list_club_ratings(club_id, limit=min(limit, 100))
        more = " (more: --limit)" if page.next_cursor else ""
        s.show(
            page, ratings_table(page.items, page.rating_system), f"{len(page.items)} rated{more}."
        )


@club_app.command("events")
def events(
    after: Annotated[int, typer.Option(help="Only events after this id (0: from the first).")] = 0,
    follow: Annotated[
        bool, typer.Option("--follow", help="Then stay and print new events as they come.")
    ] = False,
    timeout: Annotated[
        float | None, typer.Option(help="With --follow: stop after this many seconds.")
    ] = None,
    limit: Annotated[int, typer.Option(help="Without --follow: at most this many.")] = 100,
    club: Club = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The club's events (ratings and season tables changed), one line each (--json: one JSON
    envelope per line with --follow). --follow streams them live, resuming a dropped
    connection where it stopped; Ctrl-C ends."""
    with Session(server, as_json=json) as s:
        club_id = authorize(s, club)
        if not follow:
            page = s.client.list_club_events(club_id, after=after, limit=min(limit, 500))
            lines = [
                render.club_event_line(parse_club_event(e.model_dump_json())) for e in page.items
            ]
            more = [f"More after {page.next_after}: --after {page.next_after}"]
            s.show(page, *lines, *(more if page.next_after else []))
            return
        try:
            for event in s.client.club_events(club_id, after=after, timeout=timeout):
                typer.echo(event.model_dump_json() if json else render.club_event_line(event))
        except KeyboardInterrupt:
            pass
