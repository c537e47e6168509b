"""The TRF through the client and the ``svizzera`` command: ``export_trf`` / ``export --trf``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from live_server import LiveServer
from typer.testing import CliRunner, Result

from svizzera_client import Client
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
