"""Where the command keeps what outlives one run: each tournament's organizer token (one file
per tournament, readable by its owner only) and the tournament the commands act on.

The folder is ``$SVIZZERA_CONFIG_DIR`` if set, else the user's config dir (platformdirs:
``~/.config/svizzera`` on Linux, ``~/Library/Application Support/svizzera`` on macOS).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import platformdirs


class StoreError(Exception):
    """A tournament the store does not know, or a token for another server."""


@dataclass(frozen=True, slots=True)
class Saved:
    """A tournament this user created (or took over with ``svizzera use --token-stdin``)."""

    id: str
    server: str
    name: str
    token: str


@dataclass(frozen=True, slots=True)
class SavedClub:
    """A club this user created: its key (it runs the club's register and tournaments)."""

    id: str
    server: str
    name: str
    key: str


class Store:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def default(cls) -> Store:
        configured = os.environ.get("SVIZZERA_CONFIG_DIR")
        return cls(Path(configured) if configured else platformdirs.user_config_path("svizzera"))

    def token_file(self, tournament_id: str) -> Path:
        return self.folder / "tournaments" / f"{tournament_id}.json"

    def save(self, saved: Saved) -> Path:
        """Write the tournament's token, owner-only (0600, in a 0700 folder); it becomes the
        current tournament."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = self.token_file(saved.id)
        path.parent.mkdir(mode=0o700, exist_ok=True)
        _write_private(path, json.dumps(asdict(saved)))
        self.select(saved.id)
        return path

    def token(self, tournament_id: str, server: str) -> str:
        """The organizer token of ``tournament_id`` on ``server``."""
        path = self.token_file(tournament_id)
        try:
            saved = Saved(**json.loads(path.read_text()))
        except FileNotFoundError:
            raise StoreError(
                f"no organizer token for tournament {tournament_id} "
                "(create it here, or: svizzera use ID --token-stdin)"
            ) from None
        except (ValueError, TypeError) as exc:
            raise StoreError(f"{path} is damaged: {exc}") from None
        if saved.server != server:
            raise StoreError(
                f"the token of tournament {tournament_id} is for {saved.server}, not {server}"
            )
        return saved.token

    def club_file(self, club_id: str) -> Path:
        return self.folder / "clubs" / f"{club_id}.json"

    def save_club(self, saved: SavedClub) -> Path:
        """Write the club's key, owner-only, as a tournament's token is; it becomes the current
        club."""
        path = self.club_file(saved.id)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _write_private(path, json.dumps(asdict(saved)))
        _write_private(self.folder / "current-club", saved.id + "\n")
        return path

    def club_key(self, club_id: str, server: str) -> str:
        """The key of ``club_id`` on ``server``."""
        path = self.club_file(club_id)
        try:
            saved = SavedClub(**json.loads(path.read_text()))
        except FileNotFoundError:
            raise StoreError(
                f"no key for club {club_id} (create it here: svizzera club create)"
            ) from None
        except (ValueError, TypeError) as exc:
            raise StoreError(f"{path} is damaged: {exc}") from None
        if saved.server != server:
            raise StoreError(f"the key of club {club_id} is for {saved.server}, not {server}")
        return saved.key

    def current_club(self) -> str | None:
        try:
            club_id = (self.folder / "current-club").read_text().strip()
        except FileNotFoundError:
            return None
        return club_id or None

    def current(self) -> str | None:
        try:
            tournament_id = (self.folder / "current").read_text().strip()
        except FileNotFoundError:
            return None
        return tournament_id or None

    def select(self, tournament_id: str) -> None:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _write_private(self.folder / "current", tournament_id + "\n")


def _write_private(path: Path, text: str) -> None:
    """Replace ``path`` atomically with a file only its owner can read or write."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")  # mode 0600
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
