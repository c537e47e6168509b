"""The ``svizzera`` command against the real server: a whole evening (Typer's runner, in
process), its problems (one line on stderr, a non-zero status), the saved token, and the
installed console script itself."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import typer
from evening import PLAYERS, SEED, check_final, check_swiss, score
from live_server import LiveServer
from typer.core import TyperGroup
from typer.testing import CliRunner, Result

from svizzera_client import Client, Forbidden
from svizzera_client.cli import app
from svizzera_client.events import ClockPausedEvent, ClockStartedEvent
from svizzera_client.models import (
    ClaimWrite,
    FinalPhaseRead,
    MatchRead,
    PlayerCreate,
    PlayerUpdate,
    RoundRead,
    StandingsRead,
    TournamentCreate,
)

Run = Callable[..., Result]
SCRIPT = Path(sys.executable).parent / "svizzera"


@pytest.fixture
def svizzera(server: LiveServer, tmp_path: Path) -> Run:
    """``svizzera ARGS…`` against the test server, with its own config dir; every run's
    output is kept in ``svizzera.outputs`` (``run.outputs``) for the token check."""
    outputs: list[str] = []
    env: Mapping[str, str | None] = {
        "SVIZZERA_SERVER": server.url,
        "SVIZZERA_CONFIG_DIR": str(tmp_path / "config"),
        "SVIZZERA_TOURNAMENT": None,
        "COLUMNS": "120",
    }

    def run(*args: str, input: str | None = None, status: int = 0) -> Result:
        result = CliRunner().invoke(app, list(args), input=input, env=env)
        outputs.append(result.stdout + result.stderr)
        assert result.exit_code == status, (args, result.stdout, result.stderr)
        return result

    run.outputs = outputs  # type: ignore[attr-defined]
    return run


def as_json(result: Result) -> Any:
    """The JSON document the command printed (last: the runner echoes typed input to stdout)."""
    return json.loads(result.stdout.splitlines()[-1])


def one_line_problem(result: Result) -> str:
    """The problem line (the only line on stderr), with nothing on stdout."""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and not result.stdout, (result.stdout, result.stderr)
    return lines[0]


def test_an_evening_through_the_command(svizzera: Run, tmp_path: Path) -> None:
    rated = {name: 1500 + 10 * i for i, name in enumerate(PLAYERS)}
    players = tmp_path / "friday.csv"
    players.write_text("name,rating\n" + "".join(f"{n},{r}\n" for n, r in rated.items()))
    created = as_json(
        svizzera("create", str(players), "--name", "CLI evening", "--seed", str(SEED), "--json")
    )
    assert {p["name"]: p["rating"] for p in created["players"]} == rated
    assert [p["name"] for p in created["players"]] == list(reversed(PLAYERS))  # by rating
    assert "organizer_token" not in created
    token_file = Path(created["token_file"])
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700
    token = json.loads(token_file.read_text())["token"]

    played: list[MatchRead] = []
    # round 1 board by board, rounds 2-4 with the interactive mode
    round_ = RoundRead.model_validate(as_json(svizzera("round", "--json")))
    for match in round_.matches:
        home, away = score(1, match.board)
        saved = as_json(svizzera("result", str(match.board), f"{home}-{away}", "--json"))
        played.append(MatchRead.model_validate(saved))
    for number in (2, 3, 4):
        round_ = RoundRead.model_validate(as_json(svizzera("round", "--json")))
        assert round_.number == number
        answers = "".join("{}-{}\n".format(*score(number, m.board)) for m in round_.matches)
        recorded = as_json(svizzera("result", "--json", input=answers))
        assert [m["board"] for m in recorded] == [1, 2, 3, 4]
        played += [MatchRead.model_validate(m) for m in recorded]
    shown = svizzera("round", "--show").stdout
    assert "Round 4" in shown and all(name in shown for name in PLAYERS)

    standings = StandingsRead.model_validate(as_json(svizzera("standings", "--json")))
    check_swiss(standings, played)
    table = svizzera("standings").stdout
    assert "Standings after round 4" in table
    assert table.index(standings.rows[0].name) < table.index(standings.rows[7].name)

    phase = as_json(svizzera("final", "--json"))
    assert [m["stage"] for m in phase["matches"]] == ["semifinal", "semifinal"]
    semis = as_json(svizzera("result", "--json", input="1-1\n1-1 home\n1-1 home penalties\n"))
    assert [m["result"]["winner"] for m in semis] == ["home", "home"]  # "1-1" alone refused
    svizzera("result", "1", "3-0")  # the final
    svizzera("result", "2", "3-0")  # the third-place final
    final = FinalPhaseRead.model_validate(as_json(svizzera("final", "--show", "--json")))
    check_final(final, standings)

    svizzera("export", "-o", str(tmp_path / "standings.csv"))
    saved = (tmp_path / "standings.csv").read_bytes()
    assert saved.startswith(b"\xef\xbb\xbfrank,player_id,")  # the BOM, for spreadsheets
    lines = saved.decode("utf-8-sig").splitlines()
    assert len(lines) == 9 and lines[1].split(",")[3] == standings.rows[0].name
    svizzera("export", "--sep", "semicolon", "-o", str(tmp_path / "classifica.csv"))
    italian = (tmp_path / "classifica.csv").read_bytes().decode("utf-8-sig").splitlines()
    assert [line.split(";")[:4] for line in italian] == [line.split(",")[:4] for line in lines]
    piped = svizzera("export", "-o", "-").stdout  # no BOM on a pipe
    assert piped.startswith("rank,player_id,") and piped.splitlines() == lines
    svizzera("print", "--no-open", "-o", str(tmp_path / "page.html"), "--lang", "it")
    page = (tmp_path / "page.html").read_text()
    assert "CLI evening" in page and 'lang="it"' in page

    followed = svizzera("follow", "--json", "--timeout", "1").stdout.splitlines()
    types = [json.loads(line)["type"] for line in followed]
    assert types[0] == "tournament.created" and types[-1] == "tournament.finished"
    assert types.count("result.recorded") == 16 + 4
    last = svizzera("follow", "--after", str(len(types) - 1), "--timeout", "1").stdout
    assert last.startswith(f"#{len(types)} tournament.finished: 1. ")

    assert all(token not in output for output in svizzera.outputs)  # type: ignore[attr-defined]


def test_every_problem_is_one_line_and_a_failure(svizzera: Run, tmp_path: Path) -> None:
    assert "no_tournament" in one_line_problem(svizzera("round", status=1))
    assert "cannot read" in one_line_problem(svizzera("create", "missing.txt", status=1))
    players = tmp_path / "four.txt"
    players.write_text("[red]Anna\nBruno, 1800\n\n# a comment\nCarla\nDario\n")
    svizzera("create", str(players))
    previewed = as_json(svizzera("round", "--preview", "--json"))
    assert "Preview only, nothing saved" in svizzera("round", "--preview").stdout
    assert as_json(svizzera("round", "--json")) == previewed
    assert as_json(svizzera("round", "--undo", "--json")) == {"undone": 1}
    # Player ids count from 1 in the order of the file.
    pairing = tmp_path / "pairing.json"
    pairing.write_text(json.dumps({"boards": [{"home": 1, "away": 2}, {"home": 3, "away": 4}]}))
    by_hand = as_json(svizzera("round", "--pair-by-hand", str(pairing), "--json"))
    assert by_hand["manual"] is True
    assert [(m["home"], m["away"]) for m in by_hand["matches"]] == [(1, 2), (3, 4)]
    pairing.write_text(json.dumps({"boards": [{"home": 1, "away": 3}, {"home": 4, "away": 2}]}))
    replaced = svizzera("round", "--pair-by-hand", str(pairing), "--replace").stdout
    assert "Paired by hand." in replaced
    assert as_json(svizzera("round", "--show", "--json"))["matches"][0]["away"] == 3
    pairing.write_text("{")
    assert "(bad_pairing_file)" in one_line_problem(
        svizzera("round", "--pair-by-hand", str(pairing), status=1)
    )
    assert as_json(svizzera("round", "--undo", "--json")) == {"undone": 1}
    assert "[red]Anna" in svizzera("round").stdout  # names are not read as Rich markup
    explained = as_json(svizzera("round", "--explain", "1", "--json"))
    assert explained["system"] == "nearest" and len(explained["placements"]) == 2
    assert "Why round 1 is paired so" in svizzera("round", "--explain", "1", "--lang", "it").stdout
    assert "(round_incomplete)" in one_line_problem(svizzera("round", status=1))
    problem = json.loads(one_line_problem(svizzera("round", "--json", status=1)))
    assert problem["error"]["code"] == "round_incomplete" and problem["error"]["status"] == 409
    assert "(board_not_found)" in one_line_problem(svizzera("result", "9", "2-1", status=1))
    assert "(invalid_input)" in one_line_problem(svizzera("result", "1", "two", status=1))
    assert "(no_score)" in one_line_problem(svizzera("result", "1", status=1))
    svizzera("result", "1", "2-1")
    assert "(already_recorded)" in one_line_problem(svizzera("result", "1", "0-0", status=1))
    assert "0–0" in svizzera("result", "1", "0-0", "--correct").stdout
    unwritable = svizzera("export", "-o", str(tmp_path / "no" / "such.csv"), status=1)
    assert "(file_error)" in one_line_problem(unwritable)
    unreachable = svizzera("standings", "--server", "http://127.0.0.1:9", status=1)
    assert "cannot reach http://127.0.0.1:9" in one_line_problem(unreachable)
    # the saved token goes only to the server it came from
    other_name = svizzera("round", "--server", "http://localhost:9", status=1)
    assert "(no_token)" in one_line_problem(other_name)
    usage = one_line_problem(svizzera("result", "1", "1-1", "--winner", "sideways", status=2))
    assert usage.startswith("svizzera: ") and "--winner" in usage


def test_the_group_variant(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "club.txt"
    players.write_text("".join(f"{name}, {1900 - 10 * i}\n" for i, name in enumerate(PLAYERS)))
    created = as_json(svizzera("create", str(players), "--groups", "seeded", "--json"))
    assert sorted(p["group"] for p in created["players"]) == ["A"] * 4 + ["B"] * 4
    paired = as_json(svizzera("round", "--json"))
    assert sorted(m["group"] for m in paired["matches"]) == ["A", "A", "B", "B"]
    assert "Group" in svizzera("round", "--show").stdout
    group_a = as_json(svizzera("standings", "--group", "A", "--json"))
    assert group_a["group"] == "A" and len(group_a["rows"]) == 4


def test_a_chess_tiebreak_has_its_column(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "club.txt"
    players.write_text("".join(f"{name}\n" for name in PLAYERS))
    created = svizzera("create", str(players), "--tiebreak", "sonneborn_berger", "--json")
    assert as_json(created)["tiebreak_criteria"][:2] == ["points", "sonneborn_berger"]
    svizzera("round")
    svizzera("result", "--json", input="1-0\n0-0\n0-1\n1-0\n")
    standings = StandingsRead.model_validate(as_json(svizzera("standings", "--json")))
    table = svizzera("standings").stdout
    assert "S-B" in table and "order: points, sonneborn_berger, buchholz" in table
    # After one round a winner's Sonneborn-Berger is the loser's 0 points, a draw's half of 1.
    assert sorted(row.sonneborn_berger for row in standings.rows) == [0] * 6 + [0.5] * 2


def test_a_double_forfeit_by_option_and_at_the_prompt(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "club.txt"
    players.write_text("".join(f"{name}\n" for name in PLAYERS))
    svizzera("create", str(players), "--json")
    svizzera("round")
    saved = as_json(svizzera("result", "1", "--forfeit", "both", "--json"))
    assert saved["result"]["forfeit"] == "both" and saved["result"]["winner"] is None
    recorded = as_json(svizzera("result", "--json", input="forfeit both\n1-0\n0-0\n"))
    assert [m["result"]["forfeit"] for m in recorded] == ["both", None, None]
    shown = svizzera("round", "--show").stdout
    assert shown.count("neither side showed") == 2
    rows = as_json(svizzera("standings", "--json"))["rows"]
    assert sorted((r["points"], r["losses"]) for r in rows)[:4] == [(0, 1)] * 4


def test_use_takes_over_a_tournament_with_its_token(
    svizzera: Run, server: LiveServer, tmp_path: Path
) -> None:
    players = tmp_path / "two.txt"
    players.write_text("Anna\nBruno\n")
    created = as_json(svizzera("create", str(players), "--json"))
    token = json.loads(Path(created["token_file"]).read_text())["token"]
    elsewhere = {"SVIZZERA_SERVER": server.url, "SVIZZERA_CONFIG_DIR": str(tmp_path / "other")}
    runner = CliRunner()
    use = ["use", created["id"], "--token-stdin"]
    refused = runner.invoke(app, use, input="wrong\n", env=elsewhere)
    assert refused.exit_code == 1 and "(forbidden)" in refused.stderr
    taken = runner.invoke(app, use, input=token + "\n", env=elsewhere)
    assert taken.exit_code == 0 and token not in taken.stdout
    paired = runner.invoke(app, ["round", "--json"], env=elsewhere)
    assert paired.exit_code == 0 and json.loads(paired.stdout)["number"] == 1


def test_a_scorekeeper_token_and_a_rotated_organizer_token(
    svizzera: Run, server: LiveServer, tmp_path: Path
) -> None:
    players = tmp_path / "four.txt"
    players.write_text("Anna\nBruno\nCarla\nDario\n")
    created = as_json(svizzera("create", str(players), "--json"))
    token_file = Path(created["token_file"])
    old = json.loads(token_file.read_text())["token"]
    made = as_json(svizzera("token", "scorekeeper", "--label", "table 1", "--json"))
    assert made["label"] == "table 1" and made["token"] != old
    svizzera("round")

    keeper = {"SVIZZERA_SERVER": server.url, "SVIZZERA_CONFIG_DIR": str(tmp_path / "keeper")}
    runner = CliRunner()
    use = ["use", created["id"], "--token-stdin", "--scorekeeper"]
    assert runner.invoke(app, use, input=made["token"] + "\n", env=keeper).exit_code == 0
    assert runner.invoke(app, ["result", "1", "2-1"], env=keeper).exit_code == 0
    refused = runner.invoke(app, ["round"], env=keeper)  # results only
    assert refused.exit_code == 1 and "(forbidden)" in refused.stderr

    rotated = svizzera("token", "rotate")
    new = json.loads(token_file.read_text())["token"]
    assert new != old and new not in rotated.stdout
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    svizzera("result", "2", "0-0")  # the saved new token works
    with Client(server.url, tokens={created["id"]: old}) as stale, pytest.raises(Forbidden):
        stale.list_tokens(created["id"])


def test_the_console_script(server: LiveServer, tmp_path: Path) -> None:
    env = {**os.environ, "SVIZZERA_CONFIG_DIR": str(tmp_path), "SVIZZERA_SERVER": server.url}
    shown = subprocess.run([SCRIPT, "--help"], capture_output=True, text=True, env=env)
    assert shown.returncode == 0
    for command in ("create", "round", "result", "standings", "final", "follow", "print", "export"):
        assert command in shown.stdout
    failed = subprocess.run(
        [SCRIPT, "standings", "--tournament", "nope"], capture_output=True, text=True, env=env
    )
    assert failed.returncode == 1 and not failed.stdout
    assert failed.stderr.splitlines() == [
        "svizzera: no tournament 'nope': check the id (the one its creation answered; "
        "GET /v1/tournaments lists them) (tournament_not_found)"
    ]


def test_forbidden_pairs_and_teams(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "four.txt"
    players.write_text("Anna\nBruno\nCarla\nDario\n")
    svizzera("create", str(players), "--rounds", "3", "--final-phase", "none")
    made = as_json(svizzera("forbid", "anna", "2", "--json"))
    assert made == {"id": 1, "players": [1, 2], "kind": "hard"}
    assert "soft forbidden pair 2" in svizzera("forbid", "Carla", "Dario", "--soft").stdout
    listed = svizzera("forbid", "--list")
    assert "Anna – Bruno" in listed.stdout and "Carla – Dario" in listed.stdout
    refused = svizzera("forbid", "Anna", "Bruno", status=1)
    assert "(duplicate_forbidden_pair)" in one_line_problem(refused)
    assert "(player_not_found)" in one_line_problem(svizzera("forbid", "Anna", "Zoe", status=1))
    svizzera("forbid", "--remove", "2")
    assert [p["id"] for p in as_json(svizzera("forbid", "--list", "--json"))] == [1]
    paired = as_json(svizzera("round", "--json"))
    assert sorted(sorted((m["home"], m["away"])) for m in paired["matches"]) != [[1, 2], [3, 4]]
    assert [1, 2] not in [sorted((m["home"], m["away"])) for m in paired["matches"]]
    teamed = as_json(svizzera("team", "Carla", "Club A", "--avoid", "soft", "--json"))
    assert teamed["team"] == "Club A"
    assert as_json(svizzera("team", "Carla", "--json"))["team"] is None


def test_the_check_in_list_decides_round_1(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "club.txt"
    players.write_text("Ada\nBo\nCy\nDi\nEd\n")
    created = as_json(svizzera("create", str(players), "--checked-in-only", "--json"))
    assert created["pair_checked_in_only"] is True
    shown = as_json(svizzera("check-in", "ada", "4", "Cy", "--json"))
    assert [p["name"] for p in shown if p["checked_in"]] == ["Ada", "Cy", "Di"]
    assert "2 of 5 players checked in" in svizzera("check-in", "Di", "--out").stdout
    assert "│ 4  │ 4   │ Di   │            │" in svizzera("check-in").stdout
    refused = svizzera("check-in", "Zed", status=1)
    assert "(player_not_found)" in one_line_problem(refused)
    round_1 = as_json(svizzera("round", "--json"))
    named = {p["id"]: p["name"] for p in shown}
    assert {named[p] for m in round_1["matches"] for p in (m["home"], m["away"])} == {"Ada", "Cy"}
    late = svizzera("check-in", "Bo", status=1)
    assert "(registration_closed)" in one_line_problem(late)
    assert "1 of 1 rounds checked by nearest, 0 differ" in svizzera("check").stdout


def test_client_check_in(client: Client) -> None:
    created = client.create_tournament(
        TournamentCreate(
            name="Club", players=[PlayerCreate(name=n) for n in "ABCD"], pair_checked_in_only=True
        )
    )
    assert created.pair_checked_in_only is True
    player = client.update_player(created.id, 2, PlayerUpdate(checked_in=True))
    assert player.checked_in is True
    assert [p.checked_in for p in client.list_players(created.id)] == [False, True, False, False]


def test_the_round_clock(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "four.txt"
    players.write_text("Anna\nBruno\nCarla\nDario\n")
    created = as_json(svizzera("create", str(players), "--round-minutes", "25", "--json"))
    assert created["round_duration"] == 1500
    assert "(round_not_found)" in one_line_problem(
        svizzera("clock", "show", "--round", "1", status=1)
    )
    svizzera("round")
    assert svizzera("clock", "show").stdout.strip() == "Round 1: not started, 25:00 left"
    started = as_json(svizzera("clock", "start", "--json"))
    assert (started["round"], started["state"], started["duration_ms"]) == (1, "running", 1_500_000)
    assert svizzera("clock", "pause").stdout.startswith("Round 1: paused, 2")
    assert "(clock_not_running)" in one_line_problem(svizzera("clock", "pause", status=1))
    assert svizzera("clock", "resume").stdout.startswith("Round 1: running, 2")
    assert as_json(svizzera("clock", "end", "--json"))["state"] == "ended"
    assert svizzera("clock", "start", "--minutes", "0.5").stdout.strip() == (
        "Round 1: running, 0:30 left"
    )
    followed = svizzera("follow", "--timeout", "1").stdout
    assert "clock.started: Round 1: running, 25:00 left" in followed
    assert "clock.ended: Round 1: ended, 2" in followed


def test_client_clock(client: Client) -> None:
    players = [PlayerCreate(name=n) for n in "ABCD"]
    created = client.create_tournament(TournamentCreate(name="Clocked", players=players))
    client.generate_round(created.id)
    assert client.get_clock(created.id, 1).state == "not_started"
    started = client.change_clock(created.id, 1, "start", duration=60)
    assert (started.state, started.remaining_ms, started.time_up) == ("running", 60_000, False)
    assert started.ends_at == started.measured_at + timedelta(minutes=1)
    assert started.remaining_at(started.measured_at + timedelta(seconds=45)) == 15_000
    assert started.remaining_at(started.measured_at + timedelta(hours=1)) == 0
    paused = client.change_clock(created.id, 1, "pause", if_match=started.etag)
    assert paused.remaining_at(paused.measured_at + timedelta(hours=1)) == paused.remaining_ms
    read = client.get_clock(created.id, 1)
    assert (read.state, read.remaining_ms) == ("paused", paused.remaining_ms)
    assert read.etag == f"W/{paused.etag}"
    events = [e for e in client.events(created.id, timeout=1) if e.type.startswith("clock.")]
    assert [type(e) for e in events] == [ClockStartedEvent, ClockPausedEvent]
    clocks = [e.data.clock for e in events if isinstance(e, ClockStartedEvent | ClockPausedEvent)]
    assert [c.model_dump() for c in clocks] == [started.model_dump(), paused.model_dump()]


def every_command(group: TyperGroup, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The commands, each as the words that name it; a group (with no options but --help) and
    then what it holds."""
    found: list[tuple[str, ...]] = [prefix]
    for name, command in group.commands.items():
        if isinstance(command, TyperGroup):
            found += every_command(command, (*prefix, name))
        else:
            found.append((*prefix, name))
    return found


def test_help_lists_flags_without_a_type_and_options_with_theirs(tmp_path: Path) -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    commands = every_command(group)
    assert ("token", "scorekeeper") in commands and len(commands) >= 14
    env = {"SVIZZERA_CONFIG_DIR": str(tmp_path), "COLUMNS": "120"}
    for command in commands:
        shown = CliRunner().invoke(app, [*command, "--help"], env=env).stdout
        usage = shown.strip().splitlines()[0]
        assert usage.startswith("Usage: ") and " ".join(command) in usage, command
        assert "<bool>" not in shown, command  # a flag takes no value
        assert "\n  --help  " in shown, command
        if command not in ((), ("token",), ("clock",), ("club",), ("season",)):  # groups: --help
            assert "\n  --server <str>  " in shown, command  # an option takes one, and says so
            assert "\n  --json  " in shown, command
    export = CliRunner().invoke(app, ["export", "--help"], env=env).stdout
    assert "\n  --trf  " in export
    result = CliRunner().invoke(app, ["result", "--help"], env=env).stdout
    assert "\n  --correct  " in result and "--no-correct" not in result


def nothing_listens() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_an_unreachable_server_says_how_to_start_one(tmp_path: Path) -> None:
    nowhere = nothing_listens()
    env = {**os.environ, "SVIZZERA_CONFIG_DIR": str(tmp_path), "SVIZZERA_SERVER": nowhere}
    players = tmp_path / "four.txt"
    players.write_text("Anna\nBruno\nCarla\nDario\n")
    for command in (["create", str(players)], ["standings", "-t", "x"], ["follow", "-t", "x"]):
        failed = subprocess.run([SCRIPT, *command], capture_output=True, text=True, env=env)
        assert failed.returncode == 1 and not failed.stdout, command
        (line,) = failed.stderr.splitlines()  # one line, no traceback
        assert line.startswith(f"svizzera: cannot reach {nowhere}: "), line
        assert "start one with `make run`" in line and "--server URL or SVIZZERA_SERVER" in line
        assert line.endswith("(unreachable)")
    for address, why in (("localhost:8000", "one looks like"), ("http://x:port", "Invalid port")):
        env["SVIZZERA_SERVER"] = address
        failed = subprocess.run([SCRIPT, "standings"], capture_output=True, text=True, env=env)
        assert failed.returncode == 1 and not failed.stdout
        (line,) = failed.stderr.splitlines()
        assert line.startswith(f"svizzera: {address!r} is not a server address") and why in line
        assert line.endswith("check --server or SVIZZERA_SERVER (invalid_server)")


def test_players_report_results_and_the_organizer_sees_the_dispute(
    svizzera: Run, tmp_path: Path, server: LiveServer
) -> None:
    players = tmp_path / "club.txt"
    players.write_text("Ada\nBo\nCy\nDi\n")
    created = as_json(svizzera("create", str(players), "--player-results", "--json"))
    assert created["player_results"] is True
    matches = as_json(svizzera("round", "--json"))["matches"]
    page = tmp_path / "cards.html"
    svizzera("print", "--no-open", "-o", str(page))
    codes = re.findall(r"data-code>([0-9A-Z-]+)<", page.read_text())
    assert len(codes) == len(matches) == 2
    first = matches[0]
    with Client(server.url) as players_client:  # players hold no token
        claim = ClaimWrite(code=codes[0], side="home", home=2, away=0)
        assert players_client.create_claim(created["id"], first["id"], claim).step == "claimed"
        other = ClaimWrite(code=codes[0], side="away", home=0, away=2)
        assert players_client.create_claim(created["id"], first["id"], other).state == "disputed"
    shown = as_json(svizzera("claims", "--json"))
    assert [(b["match"]["id"], b["state"]) for b in shown] == [(first["id"], "disputed")]
    table = svizzera("claims").stdout
    assert "disputed" in table and "2–0" in table and "0–2" in table
    events = svizzera("follow", "--timeout", "1").stdout
    assert "report.disputed: round 1, board 1: disputed, the organizer decides" in events
