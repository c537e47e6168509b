"""The TRF through the client and the ``svizzera`` command: ``export_trf`` / ``export --trf``,
``import_trf`` / ``import FILE.trf``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from live_server import LiveServer
from typer.testing import CliRunner, Result

from svizzera_client import Client, InvalidRequest
from svizzera_client.cli import app
from svizzera_client.models import PlayerCreate, ResultWrite, TournamentCreate

Run = Callable[..., Result]


@pytest.fixture
def svizzera(server: LiveServer, tmp_path: Path) -> Run:
    env: Mapping[str, str | None] = {
        "SVIZZERA_SERVER": server.url,
        "SVIZZERA_CONFIG_DIR": str(tmp_path / "config"),
        "SVIZZERA_TOURNAMENT": None,
    }

    def run(*args: str, status: int = 0) -> Result:
        result = CliRunner().invoke(app, list(args), env=env)
        assert result.exit_code == status, (args, result.stdout, result.stderr)
        return result

    return run


def player_lines(trf: str) -> list[str]:
    return [line for line in trf.split("\r") if line.startswith("001 ")]


def test_a_played_round_is_in_the_trf(client: Client) -> None:
    names = ["Ada", "Bo", "Cy", "Di"]
    created = client.create_tournament(
        TournamentCreate(name="Club", players=[PlayerCreate(name=n) for n in names], seed=3)
    )
    round_ = client.generate_round(created.id)
    for match in round_.matches:
        client.record_result(created.id, match.id, ResultWrite(home=1, away=0))
    trf = client.export_trf(created.id)
    assert trf.startswith("012 Club\r") and trf.endswith("\r")
    lines = player_lines(trf)
    assert [line[14:47].strip() for line in lines] == names
    assert sorted(line[97 - 1] for line in lines) == ["b", "b", "w", "w"]  # column 97: colour
    assert sorted(line[99 - 1] for line in lines) == ["0", "0", "1", "1"]  # column 99: result


def test_export_trf_saves_the_file_as_served(svizzera: Run, client: Client, tmp_path: Path) -> None:
    created = client.create_tournament(
        TournamentCreate(name="Club", players=[PlayerCreate(name=n) for n in ("Ada", "Bo")])
    )
    path = tmp_path / "club.trf"
    svizzera("export", "--trf", "-o", str(path), "--tournament", created.id)
    assert path.read_bytes() == client.export_trf(created.id).encode()
    assert b"\n" not in path.read_bytes()


REFERENCE = Path(__file__).resolve().parents[2] / "tests" / "data" / "dutch"


def test_import_trf_creates_the_tournament_with_its_rounds(client: Client) -> None:
    text = (REFERENCE / "dutch_p0009_r05_s101.trf").read_bytes()
    created = client.import_trf(text)
    assert (created.pairing, created.current_round, created.status) == ("dutch", 5, "finished")
    assert created.organizer_token == client.tokens[created.id]
    back = client.export_trf(created.id)
    # every player record as in the file, up to its points (the rank is Svizzera's)
    assert [line[:84] for line in player_lines(back)] == [
        line[:84] for line in player_lines(text.decode())
    ]
    assert [line[91:] for line in player_lines(back)] == [
        line[91:] for line in player_lines(text.decode())
    ]


def test_a_bad_trf_is_an_invalid_request_naming_its_line(client: Client) -> None:
    with pytest.raises(InvalidRequest) as refused:
        client.import_trf("012 Club\r001    1      Ada\r001    1      Bo\r")
    assert refused.value.code == "invalid_trf"
    assert refused.value.detail.startswith("line 3, column 5: ")


def test_svizzera_import_makes_the_tournament_current(svizzera: Run, tmp_path: Path) -> None:
    shown = svizzera("import", str(REFERENCE / "dutch_p0012_r07_s101.trf"), "--json")
    created = json.loads(shown.stdout.splitlines()[-1])
    assert created["pairing"] == "dutch" and created["current_round"] == 7
    assert "organizer_token" not in created and Path(created["token_file"]).exists()
    path = tmp_path / "back.trf"
    svizzera("export", "--trf", "-o", str(path))
    assert path.read_bytes().startswith(b"012 AutoTest Tournament 101\r")
    refused = svizzera("import", str(tmp_path / "missing.trf"), status=1)
    assert "(file_error)" in refused.stderr


def test_check_trf_and_check_tournament_find_no_round_that_differs(client: Client) -> None:
    text = (REFERENCE / "dutch_p0012_r07_s101.trf").read_bytes()
    checked = client.check_trf(text)
    assert (checked.pairing, checked.rounds, checked.rounds_checked) == ("dutch", 7, 7)
    assert checked.rounds_differing == 0 and checked.differences == []
    created = client.import_trf(text)
    again = client.check_tournament(created.id)
    assert (again.tournament, again.rounds_checked, again.rounds_differing) == (created.id, 7, 0)
    with pytest.raises(InvalidRequest) as refused:
        client.check_trf("012 Club\r001    1      Ada\r001    1      Bo\r")
    assert refused.value.code == "invalid_trf"


def test_svizzera_check_shows_the_round_whose_colours_were_turned(
    svizzera: Run, tmp_path: Path
) -> None:
    """Round 7's first board, White and Black swapped in the file (columns 97 of both)."""
    lines = (REFERENCE / "dutch_p0012_r07_s101.trf").read_bytes().decode().split("\r")
    column = 91 + 6 * 10 + 5  # round 7's colour, from 0
    white = next(
        i for i, line in enumerate(lines) if line.startswith("001") and line[column] == "w"
    )
    black_rank = int(lines[white][column - 5 : column - 1])
    black = next(
        i for i, line in enumerate(lines) if line.startswith("001") and int(line[4:8]) == black_rank
    )
    for i, colour in ((white, "b"), (black, "w")):
        lines[i] = lines[i][:column] + colour + lines[i][column + 1 :]
    path = tmp_path / "turned.trf"
    path.write_bytes("\r".join(lines).encode())
    shown = json.loads(svizzera("check", str(path), "--json", status=2).stdout)
    assert (shown["rounds_checked"], shown["rounds_differing"]) == (7, 1)
    [difference] = shown["differences"]
    assert difference["round"] == 7 and difference["other_opponents"] == []
    white_rank = int(lines[white][4:8])
    assert difference["swapped_colours"] == [{"home": black_rank, "away": white_rank}]
    human = svizzera("check", str(path), status=2).stdout
    assert "Round 7 differs" in human and "7 of 7 rounds checked by dutch, 1 differ" in human
    svizzera("import", str(REFERENCE / "dutch_p0012_r07_s101.trf"))
    assert "0 differ" in svizzera("check").stdout
