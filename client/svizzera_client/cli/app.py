"""The ``svizzera`` command: an evening from a terminal.

svizzera create players.txt      svizzera round      svizzera result 3 2-1
svizzera result (asks every result)   svizzera standings   svizzera final
svizzera follow   svizzera print   svizzera export
svizzera import club.trf   svizzera export --trf   svizzera check [club.trf]
svizzera forbid Anna Bruno [--soft]   svizzera forbid --list   svizzera forbid --remove 2
svizzera team Anna "Chess Club Lugano"   svizzera team --avoid hard
svizzera check-in [PLAYER...]
svizzera clock start [--minutes 25]   svizzera clock pause|resume|end   svizzera clock show
svizzera club create NAME   svizzera club players [QUERY]   svizzera club tournament FILE
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import TypeAdapter
from typer.core import TyperGroup

from svizzera_client.base import DEFAULT_SERVER
from svizzera_client.cli import render
from svizzera_client.cli.clubs import club_app
from svizzera_client.cli.inputs import InputError, parse_answer, parse_score, read_players
from svizzera_client.cli.seasons import season_app
from svizzera_client.cli.session import CommandError, Session
from svizzera_client.cli.store import Saved
from svizzera_client.client import Client
from svizzera_client.errors import ApiError
from svizzera_client.events import PlayerAddedEvent
from svizzera_client.models import (
    CheckRule,
    ClockAction,
    DecidedBy,
    FinalPhaseKind,
    Forfeit,
    FormatPreset,
    HandPairingWrite,
    InitialColour,
    MatchRead,
    PairingSystem,
    PlayerRead,
    PlayerUpdate,
    ResultWrite,
    Side,
    TeamRule,
    Tiebreak,
    TokenCreate,
    TournamentCreate,
    TournamentCreated,
    TournamentUpdate,
)
from svizzera_client.operations import CsvSeparator


class OneLineErrors(TyperGroup):
    """Usage errors as one line on stderr (``svizzera: …``) and status 2, not a panel."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            returned = super().main(
                args,
                prog_name or "svizzera",
                complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
            code = returned if isinstance(returned, int) else 0
        except typer.TyperException as exc:
            typer.echo(f"svizzera: {exc.format_message()} (see --help)", err=True)
            code = exc.exit_code
        except typer.Abort:
            typer.echo("svizzera: aborted", err=True)
            code = 1
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    cls=OneLineErrors,
    help="Run a Swiss-system tournament evening on a Svizzera server.",
    no_args_is_help=True,
    add_completion=False,
    # Click's help layout: typer's Rich panels print a type after every option, `<bool>` after
    # each flag too (--json, --trf, --help), as if it took a value.
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,  # locals may hold a token
)

app.add_typer(club_app, name="club")
app.add_typer(season_app, name="season")

Server = Annotated[
    str,
    typer.Option("--server", envvar="SVIZZERA_SERVER", help="The Svizzera server's base URL."),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON (for scripts) instead of tables.")]
CreateKey = Annotated[
    str | None,
    typer.Option(envvar="SVIZZERA_CREATE_KEY", help="The server's key to create, if any."),
]
Tournament = Annotated[
    str | None,
    typer.Option(
        "--tournament",
        "-t",
        envvar="SVIZZERA_TOURNAMENT",
        help="Tournament id (default: the one created or used last).",
    ),
]


@app.command()
def create(
    players_file: Annotated[
        Path,
        typer.Argument(
            help="Names, one a line (a rating may follow a comma), or a CSV with name and rating."
        ),
    ],
    name: Annotated[str | None, typer.Option(help="Default: the file's name.")] = None,
    pairing: PairingSystem | None = None,
    tiebreak: Tiebreak | None = None,
    format_: Annotated[FormatPreset | None, typer.Option("--format")] = None,
    rounds: Annotated[int | None, typer.Option(help="Swiss rounds (default: by format).")] = None,
    final_phase: FinalPhaseKind | None = None,
    top_cut_size: Annotated[
        int | None,
        typer.Option(
            help="--final-phase top_cut: how many qualify (2 to 64); double_elimination: 4 to 16."
        ),
    ] = None,
    third_place: Annotated[
        bool,
        typer.Option(
            "--third-place", help="--final-phase top_cut: the semifinal losers play for 3rd."
        ),
    ] = False,
    grand_final_reset: Annotated[
        bool | None,
        typer.Option(
            "--grand-final-reset/--no-grand-final-reset",
            help="--final-phase double_elimination: the grand final is played again if the "
            "losers' bracket winner wins it (default: yes).",
        ),
    ] = None,
    groups: Annotated[
        Literal["draw", "seeded", "pots"] | None,
        typer.Option(help="Two groups, filled by draw, by seeding or from pots."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Drives every draw (default: random).")] = None,
    initial_colour: Annotated[
        InitialColour | None,
        typer.Option(help="dutch: round 1's colour for the top seed (default: draw)."),
    ] = None,
    checked_in_only: Annotated[
        bool,
        typer.Option(
            "--checked-in-only",
            help="Round 1 pairs only the players checked in (svizzera check-in).",
        ),
    ] = False,
    round_minutes: Annotated[
        float | None,
        typer.Option(help="A round's time, what svizzera clock start counts down."),
    ] = None,
    player_results: Annotated[
        bool,
        typer.Option(
            "--player-results",
            help="Players report results with their board's code (svizzera print: the cards).",
        ),
    ] = False,
    teams: Annotated[
        bool,
        typer.Option(
            "--teams",
            help="Doubles: each entry a team of two (a line 'A / B', or a .csv with "
            "member_1 and member_2).",
        ),
    ] = False,
    create_key: CreateKey = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Create a tournament from a players file; its organizer token is saved for you."""
    with Session(server, as_json=json) as s:
        settings = {
            "name": name or players_file.stem,
            "players": read_players(players_file, teams=teams),
            "entry": "team" if teams else None,
            "pairing": pairing,
            "tiebreak": tiebreak,
            "format": format_,
            "swiss_rounds": rounds,
            "final_phase": final_phase,
            "top_cut_size": top_cut_size,
            "third_place": third_place or None,
            "grand_final_reset": grand_final_reset,
            "groups": None if groups is None else {"assignment": groups},
            "seed": seed,
            "initial_colour": initial_colour,
            "pair_checked_in_only": checked_in_only or None,
            "round_duration": None if round_minutes is None else seconds_of(round_minutes),
            "player_results": player_results or None,
        }
        body = TournamentCreate.model_validate(
            {key: value for key, value in settings.items() if value is not None}
        )
        s.client.create_key = create_key
        created = s.client.create_tournament(body)
        show_created(
            s,
            created,
            f"Created {created.name}: {created.id} ({created.format.swiss_rounds} "
            f"Swiss rounds, final phase: {created.format.final_phase}).",
        )


@app.command("import")
def import_(
    trf_file: Annotated[Path, typer.Argument(help="A FIDE Tournament Report File (.trf).")],
    create_key: CreateKey = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Create a dutch tournament from a TRF, with every round it holds; its organizer token is
    saved for you."""
    with Session(server, as_json=json) as s:
        s.client.create_key = create_key
        created = s.client.import_trf(trf_file.read_bytes())
        show_created(
            s,
            created,
            f"Imported {created.name}: {created.id} (round {created.current_round} of "
            f"{created.format.swiss_rounds}, status {created.status}).",
        )


@app.command()
def check(
    trf_file: Annotated[
        Path | None,
        typer.Argument(help="A TRF to check (none: the tournament, on the server)."),
    ] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Pair every round again from the rounds before it and show the rounds that differ, with
    both pairings: a TRF by dutch, the tournament by its own system. Nothing is stored.
    Exit status 0 when every round pairs as played, 2 when some differ, 1 on an error."""
    with Session(server, as_json=json, tournament=tournament) as s:
        if trf_file is not None:
            checked = s.client.check_trf(trf_file.read_bytes())
        else:
            checked = s.client.check_tournament(s.tournament_id())
        names = {p.id: p.name for p in checked.players}
        s.show(
            checked,
            *(render.difference_table(d, names) for d in checked.differences),
            render.check_summary(checked),
        )
    if checked.rounds_differing:
        raise typer.Exit(2)


@app.command("check-in")
def check_in(
    players: Annotated[
        list[str] | None,
        typer.Argument(help="Player ids or names (none: show the check-in list)."),
    ] = None,
    out: Annotated[
        bool, typer.Option("--out", help="Take the players off the list instead.")
    ] = False,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Check players in for round 1 (before it is paired); with --checked-in-only at creation,
    round 1 pairs only them and the others miss round 1 only."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize() if players else s.tournament_id()
        listed = s.client.list_players(tournament_id)
        for wanted in players or []:
            player = find_player(listed, wanted)
            s.client.update_player(tournament_id, player.id, PlayerUpdate(checked_in=not out))
        if players:
            listed = s.client.list_players(tournament_id)
        here = sum(1 for p in listed if p.checked_in)
        s.show(
            listed,
            render.check_in_table(listed),
            f"{here} of {len(listed)} players checked in.",
        )


def show_created(s: Session, created: TournamentCreated, headline: str) -> None:
    """Save a new tournament's organizer token for the user and show the tournament without it."""
    token_file = s.store.save(Saved(created.id, s.server, created.name, created.organizer_token))
    shown = created.model_dump(mode="json", exclude={"organizer_token"})
    s.show(
        {**shown, "token_file": str(token_file)},
        render.players_table(created.players),
        headline,
        f"The organizer token is saved in {token_file} (only you can read it).",
        "Next: svizzera round",
    )


@app.command("round")
def round_(
    show: Annotated[bool, typer.Option("--show", help="Show the latest round, pair none.")] = False,
    undo: Annotated[
        bool, typer.Option("--undo", help="Take back the latest round (no result recorded yet).")
    ] = False,
    preview: Annotated[
        bool, typer.Option("--preview", help="Show the next round as it would be paired now.")
    ] = False,
    explain: Annotated[
        int | None,
        typer.Option("--explain", metavar="ROUND", help="Show why round ROUND is paired so."),
    ] = None,
    lang: Annotated[
        str | None, typer.Option(help="--explain: the sentences' language (en, it, sk, cs).")
    ] = None,
    pair_by_hand: Annotated[
        Path | None,
        typer.Option(
            "--pair-by-hand",
            help='Pair the next round as a JSON file gives it: {"boards": [{"home": 1, '
            '"away": 4}, …], "byes": [5], "accept": ["rematch"]}.',
        ),
    ] = None,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace", help="With --pair-by-hand: replace the latest round's pairing instead."
        ),
    ] = False,
    accept: Annotated[
        list[str] | None,
        typer.Option("--accept", help="A rule to accept breaking (repeatable), e.g. rematch."),
    ] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Pair the next Swiss round and show it (--show: the latest round, as it stands;
    --preview: the next round as pairing it now would give, nothing saved;
    --undo: take the latest round back, to pair it again;
    --explain N: why each board and bye of round N is paired so;
    --pair-by-hand FILE: the next round as the file gives it, or with --replace the latest
    round paired again so, while none of its results is recorded)."""
    with Session(server, as_json=json, tournament=tournament) as s:
        if explain is not None:
            explanation = s.client.round_explanation(s.tournament_id(), explain, lang=lang)
            s.show(explanation, render.explanation_table(explanation))
            return
        if pair_by_hand is not None:
            tournament_id = s.authorize()
            body = hand_pairing(pair_by_hand, accept or [])
            if replace:
                number = s.client.get_tournament(tournament_id).current_round
                paired = s.client.replace_pairing(tournament_id, number, body)
            else:
                paired = s.client.pair_round_by_hand(tournament_id, body)
            names = render.names_of(s.client.list_players(tournament_id))
            notes = [f"{c.severity}: {c.sentence} ({c.rule})" for c in paired.checks]
            s.show(paired, render.round_table(paired, names), "Paired by hand.", *notes)
            return
        if undo:
            tournament_id = s.authorize()
            number = s.client.get_tournament(tournament_id).current_round
            s.client.undo_round(tournament_id, number)
            s.show({"undone": number}, f"Round {number} taken back.")
            return
        if show:
            tournament_id = s.tournament_id()
            current = s.client.get_tournament(tournament_id).current_round
            if current == 0:
                raise CommandError("no_round", "no round yet: svizzera round pairs the first")
            paired = s.client.get_round(tournament_id, current)
        elif preview:
            tournament_id = s.authorize()
            paired = s.client.preview_round(tournament_id)
        else:
            tournament_id = s.authorize()
            paired = s.client.generate_round(tournament_id)
        names = render.names_of(s.client.list_players(tournament_id))
        note = ["Preview only, nothing saved: svizzera round pairs this round."] if preview else []
        s.show(paired, render.round_table(paired, names), *note)


def hand_pairing(path: Path, accept: list[str]) -> HandPairingWrite:
    """The body of a pairing by hand from a JSON file, with ``accept`` added."""
    try:
        body = HandPairingWrite.model_validate_json(path.read_bytes())
    except (OSError, ValueError) as unreadable:
        raise CommandError(
            "bad_pairing_file",
            f"{path}: not a pairing ({'; '.join(str(unreadable).splitlines())}); write "
            '{"boards": [{"home": 1, "away": 4}], "byes": [5]}',
        ) from unreadable
    try:
        extra = TypeAdapter(list[CheckRule]).validate_python(accept)
    except ValueError as unknown:
        raise CommandError(
            "bad_accept", f"--accept takes a rule code (rematch, colour, …): {unknown}"
        ) from unknown
    return body.model_copy(update={"accept": sorted({*body.accept, *extra})})


@app.command()
def result(
    board: Annotated[
        int | None, typer.Argument(help="Board of the current round (none: ask every result).")
    ] = None,
    score: Annotated[str | None, typer.Argument(help="Home–away goals, like 2-1.")] = None,
    winner: Annotated[
        Side | None,
        typer.Option(help="Winner of a level final-phase score."),
    ] = None,
    decided_by: DecidedBy | None = None,
    forfeit: Annotated[
        Forfeit | None, typer.Option(help="The side that did not show, or both.")
    ] = None,
    correct: Annotated[
        bool, typer.Option("--correct", help="Change a result already recorded.")
    ] = False,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Record a result (BOARD SCORE), or, without arguments, every missing one of the round.

    In the final phase BOARD is a board of the stage being played: the first with a match
    still to play (the final and the third-place final count as one), else the last.
    """
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize()
        title, matches = current_matches(s.client, tournament_id)
        names = render.names_of(s.client.list_players(tournament_id))
        if board is None:
            pending = [m for m in matches if m.result is None]
            recorded = ask_results(s, tournament_id, pending, names)
            _, matches = current_matches(s.client, tournament_id)
            s.show(recorded, render.matches_table(matches, names, title=title))
            return
        match = next((m for m in matches if m.board == board), None)
        if match is None:
            raise CommandError("board_not_found", f"{title} has no board {board}")
        if match.result is not None and not correct:
            raise CommandError(
                "already_recorded",
                f"board {board} already has {render.result_text(match.result)}; "
                "add --correct to change it",
            )
        if forfeit is not None:
            body = ResultWrite(forfeit=forfeit)
        elif score is None:
            raise CommandError("no_score", "give the score (like 2-1) or --forfeit home|away|both")
        else:
            body = parse_score(score, winner=winner, decided_by=decided_by)
        saved = s.client.record_result(tournament_id, match.id, body)
        s.show(
            saved,
            f"Board {board}: {render.sides_text(names, saved)} {render.result_text(saved.result)}",
        )


def current_matches(client: Client, tournament_id: str) -> tuple[str, list[MatchRead]]:
    """The matches results are entered for now: the latest Swiss round, or the latest stage of
    the final phase."""
    tournament = client.get_tournament(tournament_id)
    if tournament.final_phase_started:
        matches = client.get_final_phase(tournament_id).matches  # stage by stage
        stages: dict[str, list[MatchRead]] = {}
        for m in matches:
            stages.setdefault("final" if m.stage == "third_place" else m.stage, []).append(m)
        playing = [group for group in stages.values() if any(m.result is None for m in group)]
        return "Final phase", (playing or list(stages.values()) or [[]])[0 if playing else -1]
    if tournament.current_round == 0:
        raise CommandError("no_round", "no round yet: svizzera round pairs the first")
    return (
        f"Round {tournament.current_round}",
        client.get_round(tournament_id, tournament.current_round).matches,
    )


def ask_results(
    s: Session, tournament_id: str, pending: list[MatchRead], names: render.Names
) -> list[MatchRead]:
    """Ask the result of each match in ``pending``, record each as it comes (Enter skips one,
    ``q`` stops). A refused result is said and asked again."""
    recorded: list[MatchRead] = []
    typer.echo(
        "Type each score like 2-1 ('1-1 home' for a level final-phase match, "
        "'forfeit away' when away did not show, 'forfeit both' when neither did); Enter "
        "skips, q stops.",
        err=True,
    )
    for match in pending:
        question = f"Board {match.board}  {render.sides_text(names, match)}"
        while True:
            try:
                answer = typer.prompt(question, default="", show_default=False, err=True).strip()
            except typer.Abort:  # end of input
                return recorded
            if answer.lower() in {"q", "quit"}:
                return recorded
            if not answer:
                break
            try:
                recorded.append(
                    s.client.record_result(tournament_id, match.id, parse_answer(answer))
                )
                break
            except InputError as exc:
                typer.echo(f"  {exc}", err=True)
            except ApiError as exc:
                if exc.status not in (409, 422):
                    raise
                typer.echo(f"  {exc.detail} ({exc.code})", err=True)
    return recorded


@app.command()
def standings(
    group: Annotated[
        str | None, typer.Option(help="One group (A or B) of the group variant.")
    ] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The standings: rank, points, Buchholz, qualifiers (✓)."""
    with Session(server, as_json=json, tournament=tournament) as s:
        table = s.client.get_standings(s.tournament_id(), group=group)
        s.show(table, render.standings_table(table))


@app.command()
def claims(
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The boards players reported and nobody settled yet: waiting for the opponent, or
    disputed (both claims shown); `svizzera result` settles one."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize()
        boards = s.client.list_claims(tournament_id)
        names = render.names_of(s.client.list_players(tournament_id))
        s.show(boards, render.claims_table(boards, names))


@app.command()
def final(
    show: Annotated[
        bool, typer.Option("--show", help="Show the final phase, start nothing.")
    ] = False,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Start the final phase and show its matches (--show: as it stands, with the ranking)."""
    with Session(server, as_json=json, tournament=tournament) as s:
        if show:
            tournament_id = s.tournament_id()
            phase = s.client.get_final_phase(tournament_id)
        else:
            tournament_id = s.authorize()
            phase = s.client.start_final_phase(tournament_id)
        names = render.names_of(s.client.list_players(tournament_id))
        s.show(phase, *render.final_phase_tables(phase, names))


@app.command()
def bracket(
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The final phase as a bracket: every match, each side its player or where it comes from."""
    with Session(server, as_json=json, tournament=tournament) as s:
        drawn = s.client.get_bracket(s.tournament_id())
        s.show(drawn, *render.bracket_tables(drawn))


@app.command()
def follow(
    after: Annotated[int, typer.Option(help="Start after this event id (0: from the start).")] = 0,
    timeout: Annotated[
        float | None, typer.Option(help="Stop after this many seconds (default: never).")
    ] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Follow the tournament live: one line per event (--json: one JSON envelope per line).
    A dropped connection is resumed where it stopped; Ctrl-C ends."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.tournament_id()
        names = render.names_of(s.client.list_players(tournament_id))
        try:
            for event in s.client.events(tournament_id, after=after, timeout=timeout):
                if isinstance(event, PlayerAddedEvent):
                    names[event.data.player.id] = event.data.player.name
                typer.echo(event.model_dump_json() if json else render.event_line(event, names))
        except KeyboardInterrupt:
            pass


@app.command("print")
def print_(
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Default: svizzera-ID.html.")
    ] = None,
    open_: Annotated[bool, typer.Option("--open/--no-open", help="Open it in a browser.")] = True,
    lang: Annotated[
        Literal["en", "it", "sk", "cs"] | None, typer.Option(help="The page's language.")
    ] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Save the printable page (standings, every round, the final phase) and open it; with
    the organizer token saved here and players reporting results, the table cards too."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.tournament_id()
        if s.has_token(tournament_id):
            s.authorize()
        page = s.client.get_print_page(tournament_id, lang=lang)
        path = output or Path(f"svizzera-{tournament_id}.html")
        path.write_text(page, encoding="utf-8")
        if open_:
            typer.launch(path.resolve().as_uri())
        s.show({"file": str(path)}, f"Saved {path}")


@app.command()
def export(
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Default: standings-ID.csv (tournament-ID.trf); '-' for stdout."
        ),
    ] = None,
    trf: Annotated[
        bool, typer.Option("--trf", help="The whole tournament as a FIDE TRF, not the standings.")
    ] = False,
    sep: Annotated[
        CsvSeparator,
        typer.Option(help="semicolon: ';' between cells and decimal commas (it, sk, cs)."),
    ] = "comma",
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Export the standings as CSV, or the tournament as a TRF (--trf)."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.tournament_id()
        if trf:
            body = s.client.export_trf(tournament_id)
            default = Path(f"tournament-{tournament_id}.trf")
        else:
            body = s.client.export_standings(tournament_id, sep=sep)
            default = Path(f"standings-{tournament_id}.csv")
        if output == Path("-"):
            typer.echo(body, nl=False)
            return
        path = output or default
        # newline="": a TRF's lines end with CR, kept as they are. A CSV file starts with the
        # byte order mark the server sends (the client drops it): spreadsheets then read UTF-8.
        encoding = "utf-8" if trf else "utf-8-sig"
        with path.open("w", encoding=encoding, newline="") as file:
            file.write(body)
        rows = len(body.splitlines()) - (0 if trf else 1)
        s.show({"file": str(path), "rows": rows}, f"Saved {path}")


def find_player(players: Sequence[PlayerRead], who: str) -> PlayerRead:
    """A player by id (digits) or by name (any case)."""
    for player in players:
        if (who.isdigit() and player.id == int(who)) or player.name.casefold() == who.casefold():
            return player
    raise CommandError("player_not_found", f"no player {who!r}: give an id or a name as listed")


@app.command()
def forbid(
    first: Annotated[str | None, typer.Argument(help="A player: id or name.")] = None,
    second: Annotated[str | None, typer.Argument(help="The other player.")] = None,
    soft: Annotated[
        bool, typer.Option("--soft", help="Avoid unless the round cannot be paired otherwise.")
    ] = False,
    list_: Annotated[bool, typer.Option("--list", help="List the forbidden pairs.")] = False,
    remove: Annotated[
        int | None, typer.Option("--remove", help="Take pair ID off the list.")
    ] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Keep two players apart: never paired (hard, the default), or only when the round
    cannot be paired otherwise (--soft). --list shows the pairs, --remove ID takes one off."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize()
        players = s.client.list_players(tournament_id)
        names = render.names_of(players)
        if remove is not None:
            s.client.delete_forbidden_pair(tournament_id, remove)
            s.show({"removed": remove}, f"Forbidden pair {remove} taken off the list.")
            return
        if list_:
            pairs = s.client.list_forbidden_pairs(tournament_id)
            s.show(pairs, render.forbidden_table(pairs, names))
            return
        if first is None or second is None:
            raise CommandError("usage", "name two players (or --list, --remove ID)")
        a, b = find_player(players, first), find_player(players, second)
        made = s.client.forbid_pair(tournament_id, a.id, b.id, "soft" if soft else "hard")
        s.show(made, f"{a.name} and {b.name}: {made.kind} forbidden pair {made.id}.")


@app.command()
def team(
    player: Annotated[str | None, typer.Argument(help="A player: id or name.")] = None,
    name: Annotated[
        str | None, typer.Argument(help="The team (club, school, family); none: no team.")
    ] = None,
    avoid: Annotated[
        TeamRule | None,
        typer.Option(help="Two players of one team: off, soft (avoid) or hard (never)."),
    ] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Put a player in a team (no team name: in none); --avoid sets whether players of one
    team are kept apart."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize()
        if avoid is not None:
            changed = s.client.update_tournament(
                tournament_id, TournamentUpdate(avoid_same_team=avoid)
            )
            s.show(changed, f"Players of one team: {changed.avoid_same_team}.")
        if player is not None:
            found = find_player(s.client.list_players(tournament_id), player)
            updated = s.client.update_player(tournament_id, found.id, PlayerUpdate(team=name))
            s.show(
                updated,
                f"{updated.name}: " + (f"team {updated.team}" if updated.team else "no team"),
            )


clock_app = typer.Typer(
    help="The round clock: start, pause, resume, end; the live page counts it down."
)
app.add_typer(clock_app, name="clock")
RoundOption = Annotated[
    int | None, typer.Option("--round", help="The round (default: the latest).")
]


def seconds_of(minutes: float) -> int:
    """Minutes as whole seconds (the API's unit), at least one."""
    return max(round(minutes * 60), 1)


def change_clock(
    action: ClockAction,
    number: int | None,
    tournament: str | None,
    server: str,
    json: bool,
    *,
    minutes: float | None = None,
) -> None:
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize()
        if number is None:
            number = s.client.get_tournament(tournament_id).current_round
        duration = None if minutes is None else seconds_of(minutes)
        clock = s.client.change_clock(tournament_id, number, action, duration=duration)
        s.show(clock, render.clock_line(clock))


@clock_app.command("start")
def clock_start(
    minutes: Annotated[
        float | None,
        typer.Option(help="The round's time (default: the tournament's round duration)."),
    ] = None,
    number: RoundOption = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Start the round's clock (again after end: a new count)."""
    change_clock("start", number, tournament, server, json, minutes=minutes)


@clock_app.command("pause")
def clock_pause(
    number: RoundOption = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Pause the round's clock: the time left waits."""
    change_clock("pause", number, tournament, server, json)


@clock_app.command("resume")
def clock_resume(
    number: RoundOption = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Count on from where the clock was paused."""
    change_clock("resume", number, tournament, server, json)


@clock_app.command("end")
def clock_end(
    number: RoundOption = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Stop the round's clock for good (the round itself goes on until its results are in)."""
    change_clock("end", number, tournament, server, json)


@clock_app.command("show")
def clock_show(
    number: RoundOption = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """The round's clock now: its state and the time left."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.tournament_id()
        if number is None:
            number = s.client.get_tournament(tournament_id).current_round
        clock = s.client.get_clock(tournament_id, number)
        s.show(clock, render.clock_line(clock))


token_app = typer.Typer(help="Scorekeeper tokens, and a new organizer token.")
app.add_typer(token_app, name="token")


@token_app.command("scorekeeper")
def token_scorekeeper(
    label: Annotated[str | None, typer.Option(help="Who or which table it is for.")] = None,
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Make a scorekeeper token (records and clears results, nothing else) and show it, this
    once, to hand over: svizzera use ID --token-stdin --scorekeeper on their side."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize()
        made = s.client.create_token(tournament_id, TokenCreate(label=label))
        s.show(made, f"Scorekeeper token {made.id} for tournament {tournament_id}:", made.token)


@token_app.command("rotate")
def token_rotate(
    tournament: Tournament = None,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Replace the organizer token (the old one stops working at once) and save the new one."""
    with Session(server, as_json=json, tournament=tournament) as s:
        tournament_id = s.authorize()
        rotated = s.client.rotate_organizer_token(tournament_id)
        found = s.client.get_tournament(tournament_id)
        path = s.store.save(Saved(found.id, s.server, found.name, rotated.organizer_token))
        s.show({"token_file": str(path)}, f"New organizer token saved in {path}.")


@app.command()
def use(
    tournament_id: Annotated[str, typer.Argument(help="The tournament's id.")],
    token_stdin: Annotated[
        bool, typer.Option("--token-stdin", help="Read its organizer token from stdin and save it.")
    ] = False,
    scorekeeper: Annotated[
        bool,
        typer.Option(
            "--scorekeeper", help="The token is a scorekeeper's (results only): save it as is."
        ),
    ] = False,
    server: Server = DEFAULT_SERVER,
    json: Json = False,
) -> None:
    """Make TOURNAMENT_ID the tournament the other commands act on."""
    with Session(server, as_json=json, tournament=tournament_id) as s:
        found = s.client.get_tournament(tournament_id)
        if token_stdin:
            token = sys.stdin.readline().strip()
            s.client.tokens[found.id] = token
            if not scorekeeper:
                s.client.list_audit(found.id)  # organizer only: proves the token
            s.store.save(Saved(found.id, s.server, found.name, token))
        else:
            s.store.select(found.id)
        s.show(found, f"Now using {found.name} ({found.id}), {found.status}.")
