"""One run of a command: its client, the saved tokens, the output (tables or ``--json``), and the
rule that every problem ends it with one line on stderr and exit status 1."""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

import typer
from pydantic import BaseModel
from rich.console import Console, RenderableType

from svizzera_client.cli.inputs import InputError
from svizzera_client.cli.store import Store, StoreError
from svizzera_client.client import Client
from svizzera_client.errors import ApiError, SvizzeraError, TransportError

console = Console(highlight=False, markup=False)  # names are shown as typed, brackets too


class CommandError(Exception):
    """A problem the command finds itself (no tournament chosen, no such board, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


START_A_SERVER = (
    "no Svizzera server answers there: start one with `make run` in the svizzera folder "
    "(it serves http://localhost:8000), or give another address with --server URL or "
    "SVIZZERA_SERVER"
)
"""What to do when the server cannot be reached: usually, nobody has started it yet."""

PROBLEMS = (SvizzeraError, CommandError, InputError, StoreError, OSError)
"""What a command reports in one line; anything else is a bug, and shows its traceback."""


class Session:
    def __init__(self, server: str, *, as_json: bool, tournament: str | None = None) -> None:
        self.server = server.rstrip("/")
        self.as_json = as_json
        self.store = Store.default()
        self._tournament = tournament
        try:
            self.client = Client(self.server)
        except ValueError as exc:  # the address itself, before any request
            self.fail(CommandError("invalid_server", f"{exc}: check --server or SVIZZERA_SERVER"))

    def __enter__(self) -> Session:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.client.close()
        if isinstance(exc, PROBLEMS):
            self.fail(exc)

    def fail(self, exc: Exception) -> None:
        """Say what went wrong in one line on stderr, and exit with status 1."""
        status: int | None = None
        if isinstance(exc, ApiError):
            code, message, status = exc.code, exc.detail or exc.title, exc.status
        elif isinstance(exc, CommandError):
            code, message = exc.code, str(exc)
        elif isinstance(exc, InputError):
            code, message = "invalid_input", str(exc)
        elif isinstance(exc, StoreError):
            code, message = "no_token", str(exc)
        elif isinstance(exc, TransportError):
            code, message = "unreachable", f"{exc}; {START_A_SERVER}"
        elif isinstance(exc, OSError):
            code, message = "file_error", f"{exc.filename or ''}: {exc.strerror or exc}"
        else:
            code, message = "unreachable", str(exc)
        if self.as_json:
            problem = {"code": code, "detail": message, "status": status}
            typer.echo(json.dumps({"error": problem}, ensure_ascii=False), err=True)
        else:
            typer.echo(f"svizzera: {message} ({code})", err=True)
        raise typer.Exit(1)

    def tournament_id(self) -> str:
        """``--tournament`` (or ``$SVIZZERA_TOURNAMENT``), else the one created or used last."""
        chosen = self._tournament or self.store.current()
        if chosen is None:
            raise CommandError(
                "no_tournament", "no tournament chosen: svizzera create FILE, or --tournament ID"
            )
        return chosen

    def authorize(self) -> str:
        """The tournament, with its saved organizer token given to the client."""
        tournament_id = self.tournament_id()
        self.client.tokens[tournament_id] = self.store.token(tournament_id, self.server)
        return tournament_id

    def has_token(self, tournament_id: str) -> bool:
        """Whether the organizer token of ``tournament_id`` on this server is saved here."""
        try:
            self.store.token(tournament_id, self.server)
        except StoreError:
            return False
        return True

    def show(self, data: BaseModel | list[Any] | dict[str, Any], *human: RenderableType) -> None:
        """``data`` as one JSON document with ``--json``; otherwise the ``human`` renderings."""
        if self.as_json:
            typer.echo(json.dumps(_plain(data), ensure_ascii=False))
        else:
            for part in human:
                console.print(part)


def _plain(data: Any) -> Any:
    if isinstance(data, BaseModel):
        return data.model_dump(mode="json")
    if isinstance(data, list):
        return [_plain(item) for item in data]
    if isinstance(data, dict):
        return {key: _plain(value) for key, value in data.items()}
    return data
