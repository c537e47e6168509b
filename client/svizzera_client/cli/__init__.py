"""The ``svizzera`` command line (``svizzera --help``)."""

import typer

from svizzera_client.cli.app import app


def main() -> None:
    """The console script: run the command, exit with its status."""
    typer.main.get_command(app)()


__all__ = ["app", "main"]
