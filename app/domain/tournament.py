"""The tournament: its state, and the commands that change it (``tournament.md``).

``Tournament`` holds settings, players, Swiss rounds and matches with their results; everything
else (status, standings, qualifiers, final ranking) is derived on demand. A command either
applies completely or raises a ``DomainError`` and changes nothing.
"""

from __future__ import annotations

import functools
import random
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Concatenate, ParamSpec, TypeVar

from app.domain import chess
from app.domain import final_phase as fp
from app.domain.colours import ColourRule, assign_colours
from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.errors import (
    AlreadyWithdrawn,
    ByeNotAllowed,
    DuplicateName,
    InvalidSettings,
    NoMoreRounds,
    NotEnoughQualifiers,
    RegistrationClosed,
    RepeatedName,
    RoundHasResults,
    RoundIncomplete,
    RoundLocked,
    TooFewPlayers,
    TooManyPlayers,
    UnknownGroup,
    UnknownMatch,
    UnknownPlayer,
    UnknownRound,
    WrongStatus,
)
from app.domain.final_matches import decided, matches_from, reformed_finals
from app.domain.formats import (
    MAX_PLAYERS,
    FinalPhaseKind,
    FormatPreset,
    GroupsSetting,
    ResolvedFormat,
    resolve_format,
)
from app.domain.groups import assign_groups, group_for_late_entry, name_key
from app.domain.matches import FINAL_STAGES, Match, MatchChanges, MatchId, SwissRound
from app.domain.pairing import PAIRING_SYSTEMS
from app.domain.pairing.base import Entrant, PairingContext, PairingHistory
from app.domain.pairing.dutch import pair_dutch
from app.domain.results import check_correctable, validate_result, winner_of
from app.domain.standings import StandingRow, SwissGame, compute_standings
from app.domain.types import (
    ByeKind,
    FideTitle,
    GroupName,
    InitialColour,
    Pair,
    PairingSystem,
    Player,
    PlayerId,
    PointsTable,
    RequestedBye,
    Result,
    Role,
    RoundNumber,
    Score,
    Stage,
    Status,
    Tiebreak,
)

MAX_NAME_LENGTH = 80


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings chosen at creation (``tournament.md``, "Settings").

    ``initial_colour`` (``dutch`` only) is round 1's colour, ``None`` for drawn from the seed;
    ``allowed_byes`` the byes a player may ask for, ``None`` for the system's default.
    """

    seed: int
    pairing: PairingSystem = PairingSystem.NEAREST
    tiebreak: Tiebreak | None = None
    points: PointsTable = field(default_factory=PointsTable.default)
    format: FormatPreset = FormatPreset.STANDARD
    swiss_rounds: int | None = None
    final_phase: FinalPhaseKind | None = None
    groups: GroupsSetting | None = None
    initial_colour: InitialColour | None = None
    allowed_byes: frozenset[ByeKind] | None = None

    @property
    def byes_allowed(self) -> frozenset[ByeKind]:
        """Both kinds for ``dutch``, none for the other systems, unless chosen."""
        if self.allowed_byes is not None:
            return self.allowed_byes
        return frozenset(ByeKind) if self.pairing is PairingSystem.DUTCH else frozenset()

    @property
    def final_phase_in_use(self) -> FinalPhaseKind | None:
        """As chosen; ``none`` for ``dutch`` when not chosen (else the format table decides)."""
        if self.final_phase is None and self.pairing is PairingSystem.DUTCH:
            return FinalPhaseKind.NONE
        return self.final_phase

    def check(self) -> None:
        """``dutch`` pairs one field (no groups); ``initial_colour`` belongs to ``dutch``."""
        if self.pairing is PairingSystem.DUTCH and self.groups is not None:
            raise InvalidSettings("the dutch system pairs one field: no groups")
        if self.pairing is not PairingSystem.DUTCH and self.initial_colour is not None:
            raise InvalidSettings("initial_colour belongs to the dutch system: leave it out")

    @property
    def tiebreak_in_use(self) -> Tiebreak:
        """``buchholz`` for ``nearest`` and ``lim`` for ``lim`` unless chosen."""
        if self.tiebreak is not None:
            return self.tiebreak
        return Tiebreak.LIM if self.pairing is PairingSystem.LIM else Tiebreak.BUCHHOLZ


@dataclass(frozen=True, slots=True)
class NewPlayer:
    name: str
    rating: int | None = None
    title: FideTitle | None = None
    fide_id: int | None = None


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _command(
    method: Callable[Concatenate[Tournament, _P], _R],
) -> Callable[Concatenate[Tournament, _P], _R]:
    """Mark a method that changes the state: the memoized standings are dropped around it."""

    @functools.wraps(method)
    def run(self: Tournament, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        self._standings_memo = None
        try:
            return method(self, *args, **kwargs)
        finally:
            self._standings_memo = None

    return run


class Tournament:
    """A tournament's state. Build it with the constructor (from storage) or ``create``;
    change it only by its commands, which keep the memoized standings honest."""

    def __init__(
        self,
        settings: Settings,
        players: Iterable[Player],
        *,
        rounds: Iterable[SwissRound] = (),
        matches: Iterable[Match] = (),
        final_phase_started: bool = False,
    ) -> None:
        self.settings = settings
        self.players: dict[PlayerId, Player] = {p.id: p for p in players}
        self.rounds: list[SwissRound] = list(rounds)
        self.matches: dict[MatchId, Match] = {m.id: m for m in matches}
        self.final_phase_started = final_phase_started
        self._standings_memo: tuple[StandingRow, ...] | None = None

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def create(cls, settings: Settings, players: Sequence[NewPlayer]) -> Tournament:
        """A new tournament in registration; start numbers and groups assigned, format checked."""
        settings.check()
        tournament = cls(settings, ())
        seen: set[str] = set()
        for number, new in enumerate(players, start=1):
            player = Player(
                PlayerId(number),
                _clean_name(new.name),
                number,
                new.rating,
                title=new.title,
                fide_id=new.fide_id,
            )
            if name_key(player.name) in seen:
                raise RepeatedName(
                    f"a player named {player.name!r} is listed twice: list each player once, "
                    "and tell namesakes apart (an initial, a town)"
                )
            seen.add(name_key(player.name))
            tournament.players[player.id] = player
        tournament._renumber(strict=True)
        return tournament

    # -- derived state --------------------------------------------------------------------

    @property
    def format(self) -> ResolvedFormat:
        """The format in force: as planned, until an early final phase drops the remaining
        Swiss rounds (``swiss_rounds`` is then the number played)."""
        planned = self.planned_format
        if self.final_phase_started and self.current_round < planned.swiss_rounds:
            return replace(planned, swiss_rounds=self.current_round)
        return planned

    @property
    def planned_format(self) -> ResolvedFormat:
        """The format the settings decide for the players entered before round 1."""
        return resolve_format(
            sum(1 for p in self.players.values() if p.entered_round == 1),
            preset=self.settings.format,
            swiss_rounds=self.settings.swiss_rounds,
            final_phase=self.settings.final_phase_in_use,
            groups=self.settings.groups,
        )

    @property
    def current_round(self) -> int:
        return len(self.rounds)

    @property
    def status(self) -> Status:
        if not self.rounds:
            return Status.REGISTRATION
        if self.final_phase_started:
            return Status.FINISHED if self._final_ranking_ready() else Status.FINAL_PHASE
        fmt = self.format
        if (
            fmt.final_phase is FinalPhaseKind.NONE
            and self.current_round == fmt.swiss_rounds
            and self._round_complete(self.current_round)
        ):
            return Status.FINISHED
        return Status.SWISS

    def round_matches(self, number: int) -> list[Match]:
        return sorted(
            (m for m in self.matches.values() if m.stage is Stage.SWISS and m.round == number),
            key=lambda m: m.board,
        )

    def final_matches(self) -> list[Match]:
        order = {stage: i for i, stage in enumerate(FINAL_STAGES)}
        return sorted(
            (m for m in self.matches.values() if m.stage is not Stage.SWISS),
            key=lambda m: (order[m.stage], m.board),
        )

    def standings(self, group: GroupName | None = None) -> tuple[StandingRow, ...]:
        """The standings rows in order (of one group, ranked within it, if ``group`` is given)."""
        rows = self._all_standings()
        if group is None:
            return rows
        if not self.format.groups or group not in ("A", "B"):
            raise UnknownGroup(
                f"this tournament has no group {group!r}: ask for group A or B"
                if self.format.groups
                else f"this tournament has no group {group!r} (it plays without groups): "
                "leave out `group`"
            )
        in_group = [r for r in rows if self.players[r.player_id].group == group]
        return tuple(replace(r, rank=i) for i, r in enumerate(in_group, start=1))

    def qualified(self) -> frozenset[PlayerId]:
        """Who goes to the final phase: fixed once it started, provisional before.

        Nobody before round 1: the provisional qualifiers would only be the first start
        numbers, which suggests a result nobody has played.
        """
        if self.status is Status.REGISTRATION:
            return frozenset()
        if self.final_phase_started:
            opening = [m for m in self.final_matches() if m.stage is Stage.SEMIFINAL]
            opening = opening or [m for m in self.final_matches() if m.stage is Stage.FINAL]
            return frozenset(pid for m in opening for pid in (m.home, m.away))
        return frozenset(self._qualifiers())

    def _qualifiers(self) -> list[PlayerId]:
        fmt = self.format
        order = [r.player_id for r in self._all_standings()]
        return fp.select_qualifiers(
            order,
            self._active_ids(),
            count=fmt.qualifier_count,
            groups=self._groups() if fmt.groups else None,
        )

    def final_ranking(self) -> list[PlayerId] | None:
        """Places 1..N once decided (``tournament.md``, "Final ranking"), else ``None``."""
        fmt = self.format
        cross = self._cross_order()
        if fmt.final_phase is FinalPhaseKind.NONE:
            return cross if self.status is Status.FINISHED else None
        if not self.final_phase_started:
            return None
        return fp.final_ranking(
            cross,
            final=self._decided(Stage.FINAL),
            third_place=self._decided(Stage.THIRD_PLACE),
            kind=fmt.final_phase,
            active=self._active_ids(),
        )

    # -- registration commands ------------------------------------------------------------

    @_command
    def change_settings(self, settings: Settings) -> None:
        """Settings can change only in registration; the new ones must fit the players."""
        self._require_registration(
            "settings are fixed now; to change them, undo the rounds (while none has a result)"
        )
        settings.check()
        for player in self.players.values():
            for bye in player.requested_byes:
                if bye.kind not in settings.byes_allowed:
                    raise InvalidSettings(
                        f"{player.name} asked for a {bye.kind} bye in round {bye.round}: "
                        "cancel it before forbidding that kind"
                    )
        previous = self.settings
        self.settings = settings
        try:
            self._renumber(strict=True)
        except Exception:
            self.settings = previous
            raise

    @_command
    def add_player(self, new: NewPlayer) -> Player:
        """Add a player: in registration, or as a late entry until half the rounds are generated.

        A late entrant starts with 0 points, the next start number and (with groups) joins the
        smaller group.
        """
        name = _clean_name(new.name)
        self._check_new_name(name)
        if len(self.players) >= MAX_PLAYERS:
            raise TooManyPlayers(
                f"a tournament takes at most {MAX_PLAYERS} players: this one is full"
            )
        pid = PlayerId(max(self.players, default=0) + 1)
        if self.status is Status.REGISTRATION:
            self.players[pid] = Player(
                pid, name, len(self.players) + 1, new.rating, title=new.title, fide_id=new.fide_id
            )
            self._renumber()
            return self.players[pid]
        if self.final_phase_started or 2 * self.current_round >= self.format.swiss_rounds:
            raise RegistrationClosed(
                "late entry closes once half the Swiss rounds are generated: no player can be "
                "added to this tournament any more"
            )
        group = group_for_late_entry(self._groups()) if self.format.groups else None
        player = Player(
            pid,
            name,
            max(p.start_number for p in self.players.values()) + 1,
            new.rating,
            group=group,
            entered_round=RoundNumber(self.current_round + 1),
            title=new.title,
            fide_id=new.fide_id,
        )
        if self.settings.pairing is PairingSystem.DUTCH:
            self.players = chess.place_late_entry(self.players, player)
        else:
            self.players[pid] = player
        return self.players[pid]

    @_command
    def rename_player(self, player_id: PlayerId, name: str) -> Player:
        player = self._player(player_id)
        cleaned = _clean_name(name)
        self._check_new_name(cleaned, ignore=player_id)
        self.players[player_id] = replace(player, name=cleaned)
        renumbered = (
            self.settings.groups is not None or self.settings.pairing is PairingSystem.DUTCH
        )
        if renumbered and self.status is Status.REGISTRATION:
            self._renumber()
        return self.players[player_id]

    @_command
    def remove_player(self, player_id: PlayerId) -> None:
        """Delete a player during registration (start numbers close up)."""
        self._player(player_id)
        self._require_registration("withdraw the player instead of deleting them")
        if len(self.players) <= 2:
            raise TooFewPlayers(
                "a tournament needs at least 2 players: add another player before deleting "
                "this one, or delete the tournament"
            )
        previous = dict(self.players)
        del self.players[player_id]
        try:
            self._renumber()
        except Exception as refused:
            self.players = previous
            if isinstance(refused, InvalidSettings):
                # the settings were valid: it is the players left that fall short of them
                raise TooFewPlayers(f"without this player: {refused}") from refused
            raise

    @_command
    def withdraw_player(self, player_id: PlayerId) -> Player:
        """Withdraw a player: not paired from the next round on; their results stay, the byes
        they asked for in later rounds go."""
        player = self._player(player_id)
        if player.withdrawn:
            raise AlreadyWithdrawn(
                f"{player.name} has already withdrawn; a withdrawal cannot be undone"
            )
        if self.status is Status.REGISTRATION:
            raise WrongStatus(
                "before round 1 a player is deleted, not withdrawn: DELETE the player instead"
            )
        if self.status is Status.FINISHED:
            raise WrongStatus(
                "the tournament is finished: its results stand, nobody can withdraw any more"
            )
        current = self.current_round
        self.players[player_id] = replace(
            player,
            withdrawn_after=RoundNumber(current),
            requested_byes=tuple(b for b in player.requested_byes if b.round <= current),
        )
        return self.players[player_id]

    @_command
    def request_bye(self, player_id: PlayerId, number: RoundNumber, kind: ByeKind) -> Player:
        """A player announces they will not play Swiss round ``number`` and asks for a bye of
        ``kind`` (C.04.1 Art. 3, C.04.2: a requested bye, given before the round is paired).

        The round must be one of the format's rounds not generated yet, the player not
        withdrawn, and ``kind`` one the settings allow; asking again replaces the kind.
        """
        player = self._player(player_id)
        if player.withdrawn:
            raise AlreadyWithdrawn(
                f"{player.name} has withdrawn and is paired in no later round: no bye is needed"
            )
        self._check_future_round(number)
        if kind not in self.settings.byes_allowed:
            allowed = ", ".join(sorted(self.settings.byes_allowed)) or "none"
            raise ByeNotAllowed(
                f"this tournament does not give {kind} byes (allowed: {allowed}): ask for an "
                "allowed kind, or change the tournament's allowed_byes first"
            )
        kept = [b for b in player.requested_byes if b.round != number]
        byes = tuple(sorted([*kept, RequestedBye(number, kind)], key=lambda b: b.round))
        self.players[player_id] = replace(player, requested_byes=byes)
        return self.players[player_id]

    @_command
    def cancel_bye(self, player_id: PlayerId, number: RoundNumber) -> Player:
        """Take back a requested bye of a round not generated yet (nothing to take back is
        fine: the player will be paired in that round either way)."""
        player = self._player(player_id)
        self._check_future_round(number)
        byes = tuple(b for b in player.requested_byes if b.round != number)
        self.players[player_id] = replace(player, requested_byes=byes)
        return self.players[player_id]

    # -- rounds ---------------------------------------------------------------------------

    @_command
    def generate_round(self, *, deadline: Deadline = NO_DEADLINE) -> SwissRound:
        """Generate the next Swiss round, in every group, by the tournament's pairing system.

        Past ``deadline`` the pairing raises ``PairingTimeout`` and nothing is changed.
        """
        if self.final_phase_started:
            raise WrongStatus(
                "the final phase has started, so no Swiss round follows: record the final "
                "phase's results instead"
            )
        fmt = self.format
        if self.current_round >= fmt.swiss_rounds:
            raise NoMoreRounds(
                f"all {fmt.swiss_rounds} Swiss rounds have been generated: "
                + (
                    "once their results are in, the standings are final"
                    if fmt.final_phase is FinalPhaseKind.NONE
                    else "start the final phase once their results are in"
                )
            )
        if self.rounds and not self._round_complete(self.current_round):
            raise RoundIncomplete(self._incomplete(f"generating round {self.current_round + 1}"))
        number = RoundNumber(self.current_round + 1)
        if self.settings.pairing is PairingSystem.DUTCH:
            return self._generate_dutch(number, deadline)
        rows = self._all_standings()
        groups: list[GroupName | None] = [GroupName("A"), GroupName("B")] if fmt.groups else [None]
        history = self._history()
        roles = self._roles()
        board = 0
        new_matches: list[Match] = []
        byes: list[PlayerId] = []
        rematches: list[Pair] = []
        paths: list[tuple[GroupName | None, tuple[str, ...]]] = []
        next_id = self._next_match_id()
        for group in groups:
            entrants = [
                Entrant(r.player_id, r.points, r.byes, self.players[r.player_id].start_number)
                for r in rows
                if self._pairable(r.player_id, group)
            ]
            if len(entrants) < 2:
                raise TooFewPlayers(
                    "fewer than 2 active players are left to pair"
                    + (f" in group {group}" if group else "")
                    + ": add a late entry, or start the final phase"
                )
            stream = f"{self.settings.seed}/round/{number}/{group or '-'}"
            pairing = PAIRING_SYSTEMS[self.settings.pairing](
                entrants,
                history,
                PairingContext(
                    round_number=number,
                    later_rounds=fmt.swiss_rounds - number,
                    rng_seed=stream,
                    points=self.settings.points,
                    deadline=deadline,
                ),
            )
            seatings = assign_colours(
                pairing.pairs,
                pairing_order=[e.id for e in entrants],
                roles=roles,
                lot_home_to_better=random.Random(f"{stream}/lot").random() < 0.5,
            )
            for seat in seatings:
                board += 1
                new_matches.append(
                    Match(
                        next_id, Stage.SWISS, number, group, board, seat.home, seat.away, seat.rule
                    )
                )
                next_id += 1
            if pairing.bye is not None:
                byes.append(pairing.bye)
            rematches.extend(pairing.rematch_pairs)
            paths.append((group, pairing.path))
        swiss_round = SwissRound(number, tuple(byes), tuple(rematches), tuple(paths))
        self.rounds.append(swiss_round)
        self.matches.update((m.id, m) for m in new_matches)
        return swiss_round

    def _generate_dutch(self, number: RoundNumber, deadline: Deadline) -> SwissRound:
        """The round by the FIDE (Dutch) System (``app.domain.chess``): one field, White at
        home, the boards in the engine's order."""
        round_input = chess.dutch_input(
            self.players.values(),
            self.matches.values(),
            self.rounds,
            total_rounds=self.format.swiss_rounds,
            initial=chess.initial_colour(self.settings.initial_colour, self.settings.seed),
            points=self.settings.points,
        )
        if sum(1 for p in round_input.players if p.present) < 2:
            raise TooFewPlayers("fewer than 2 active players are left to pair")
        pairing = pair_dutch(round_input, deadline=deadline)
        next_id = self._next_match_id()
        new_matches = [
            Match(next_id + i, Stage.SWISS, number, None, i + 1, b.white, b.black, ColourRule.FIDE)
            for i, b in enumerate(pairing.boards)
        ]
        byes = (pairing.bye,) if pairing.bye is not None else ()
        swiss_round = SwissRound(number, byes, (), ((None, (PairingSystem.DUTCH.value,)),))
        self.rounds.append(swiss_round)
        self.matches.update((m.id, m) for m in new_matches)
        return swiss_round

    @_command
    def undo_round(self, number: RoundNumber) -> SwissRound:
        """Take back the latest Swiss round (every group's), while none of its results is
        recorded and the final phase has not started: the organizer's remedy for a round
        generated too early. A player entered late or withdrawn since that round was generated
        keeps that change, now for the round that will be generated in its place."""
        if not 1 <= number <= self.current_round:
            raise UnknownRound(
                f"round {number} has not been generated: "
                + (
                    f"the latest round is {self.current_round}"
                    if self.current_round
                    else "no round has been generated yet"
                )
            )
        if number != self.current_round:
            raise RoundLocked(
                f"only the latest round can be undone: undo round {self.current_round} first"
            )
        if self.final_phase_started:
            raise WrongStatus(
                "the final phase has started: its Swiss rounds cannot be undone any more"
            )
        matches = self.round_matches(number)
        recorded = [m.id for m in matches if m.result is not None]
        if recorded:
            raise RoundHasResults(
                f"round {number} has {len(recorded)} recorded result(s) (matches "
                f"{', '.join(map(str, recorded))}): clear them first to undo the round"
            )
        for match in matches:
            del self.matches[match.id]
        for player in list(self.players.values()):
            if player.entered_round > number:
                player = replace(player, entered_round=RoundNumber(number))
            if player.withdrawn_after == number:
                player = replace(player, withdrawn_after=RoundNumber(number - 1))
            self.players[player.id] = player
        return self.rounds.pop()

    # -- results --------------------------------------------------------------------------

    @_command
    def record_result(self, match_id: MatchId, result: Result) -> MatchChanges:
        """Record or correct a result (``tournament.md``, "Corrections")."""
        match = self._match(match_id)
        result = validate_result(match, result)
        self._check_correctable(match, new_winner=winner_of(match, result))
        updated = replace(match, result=result)
        self.matches[match_id] = updated
        if match.stage is Stage.SEMIFINAL:
            return self._reform_finals(updated)
        return MatchChanges((updated,))

    @_command
    def clear_result(self, match_id: MatchId) -> MatchChanges:
        """Clear a result, under the same correction rules as recording one."""
        match = self._match(match_id)
        if match.result is None:
            return MatchChanges(())
        self._check_correctable(match, new_winner=None)
        updated = replace(match, result=None)
        self.matches[match_id] = updated
        if match.stage is Stage.SEMIFINAL:
            return self._reform_finals(updated)
        return MatchChanges((updated,))

    @_command
    def start_final_phase(self) -> MatchChanges:
        """Start the final phase, after the last Swiss round or early after a complete round.

        The qualifiers are the first active players of the standings of this moment; the
        remaining Swiss rounds are dropped.
        """
        fmt = self.format
        if self.final_phase_started:
            raise WrongStatus("the final phase has already started: record its results")
        if fmt.final_phase is FinalPhaseKind.NONE:
            raise WrongStatus(
                "this tournament has no final phase: its standings after the last Swiss round "
                "are the final result"
            )
        if not self.rounds:
            raise WrongStatus(
                "the final phase follows at least one Swiss round: generate round 1 first"
            )
        if not self._round_complete(self.current_round):
            raise RoundIncomplete(self._incomplete("starting the final phase"))
        qualifiers = self._qualifiers()
        if len(qualifiers) < fmt.qualifier_count:
            raise NotEnoughQualifiers(
                f"the final phase needs {fmt.qualifier_count} active qualifiers and only "
                f"{len(qualifiers)} players are still active: it cannot be played"
            )
        groups = self._groups() if fmt.groups else None
        fixtures = fp.opening_fixtures(qualifiers, fmt.final_phase, groups=groups)
        new = matches_from(fixtures, next_id=self._next_match_id())
        self.matches.update((m.id, m) for m in new)
        self.final_phase_started = True
        return MatchChanges(tuple(new))

    # -- internals ------------------------------------------------------------------------

    def _all_standings(self) -> tuple[StandingRow, ...]:
        if self._standings_memo is None:
            self._standings_memo = self._compute_standings()
        return self._standings_memo

    def _compute_standings(self) -> tuple[StandingRow, ...]:
        games = [
            SwissGame(m.round, m.home, m.away, m.result)
            for m in self.matches.values()
            if m.stage is Stage.SWISS and m.round is not None
        ]
        byes = [(r.number, pid) for r in self.rounds for pid in r.byes]
        return compute_standings(
            list(self.players.values()),
            games,
            byes,
            rounds_played=self.current_round,
            points=self.settings.points,
            tiebreak=self.settings.tiebreak_in_use,
            requested_byes=self._requested_byes(),
        )

    def _requested_byes(self) -> list[tuple[RoundNumber, PlayerId, Score]]:
        """The byes asked for in the rounds generated so far, with what each scores."""
        points = self.settings.points
        return [
            (bye.round, p.id, chess.bye_points(bye.kind, points))
            for p in self.players.values()
            for bye in p.requested_byes
            if bye.round <= self.current_round and p.in_round(bye.round)
        ]

    def _cross_order(self) -> list[PlayerId]:
        order = [r.player_id for r in self._all_standings()]
        return fp.cross_order(order, self._groups() if self.format.groups else None)

    def _groups(self) -> dict[PlayerId, GroupName]:
        return {pid: p.group for pid, p in self.players.items() if p.group is not None}

    def _active_ids(self) -> frozenset[PlayerId]:
        return frozenset(pid for pid, p in self.players.items() if not p.withdrawn)

    def _pairable(self, pid: PlayerId, group: GroupName | None) -> bool:
        player = self.players[pid]
        if player.requested_bye(RoundNumber(self.current_round + 1)) is not None:
            return False
        return not player.withdrawn and (group is None or player.group == group)

    def _history(self) -> PairingHistory:
        met: dict[PlayerId, set[PlayerId]] = {}
        for m in self.matches.values():
            if m.stage is Stage.SWISS:
                met.setdefault(m.home, set()).add(m.away)
                met.setdefault(m.away, set()).add(m.home)
        return PairingHistory({pid: frozenset(s) for pid, s in met.items()})

    def _roles(self) -> dict[PlayerId, list[Role | None]]:
        rounds = self.current_round
        roles: dict[PlayerId, list[Role | None]] = {pid: [None] * rounds for pid in self.players}
        for m in self.matches.values():
            if m.stage is Stage.SWISS and m.round is not None:
                roles[m.home][m.round - 1] = Role.HOME
                roles[m.away][m.round - 1] = Role.AWAY
        return roles

    def _round_complete(self, number: int) -> bool:
        return all(m.result is not None for m in self.round_matches(number))

    def _decided(self, stage: Stage) -> fp.Decided | None:
        for m in self.final_matches():
            if m.stage is stage and (result := decided(m)) is not None:
                return result
        return None

    def _final_ranking_ready(self) -> bool:
        """Every final-phase match has a result, the last ones (the finals) included."""
        matches = self.final_matches()
        return any(m.stage is Stage.FINAL for m in matches) and all(
            m.result is not None for m in matches
        )

    def _seeding(self) -> dict[PlayerId, int]:
        """The better rank in a final: the qualifiers' order (group position among them)."""
        qualified = self.qualified()
        order = [r.player_id for r in self._all_standings() if r.player_id in qualified]
        groups = self._groups() if self.format.groups else None
        return {pid: i for i, pid in enumerate(fp.cross_order(order, groups))}

    def _next_match_id(self) -> MatchId:
        return max(self.matches, default=0) + 1

    def _reform_finals(self, semifinal: Match) -> MatchChanges:
        """Form, re-form or remove the finals after a semifinal result changed."""
        changes = reformed_finals(
            self.final_matches(), self._seeding(), next_id=self._next_match_id()
        )
        for match_id in changes.removed:
            del self.matches[match_id]
        self.matches.update((m.id, m) for m in changes.written)
        return MatchChanges((semifinal, *changes.written), changes.removed)

    def _check_correctable(self, match: Match, *, new_winner: PlayerId | None) -> None:
        check_correctable(
            match,
            new_winner=new_winner,
            current_round=self.current_round,
            final_phase_started=self.final_phase_started,
            final_matches=self.final_matches(),
        )

    def _player(self, player_id: PlayerId) -> Player:
        player = self.players.get(player_id)
        if player is None:
            raise UnknownPlayer(
                f"no player {player_id} in this tournament: use an id from its player list"
            )
        return player

    def _match(self, match_id: MatchId) -> Match:
        match = self.matches.get(match_id)
        if match is None:
            raise UnknownMatch(
                f"no match {match_id} in this tournament: use an id from its rounds or its "
                "final phase"
            )
        return match

    def _check_future_round(self, number: RoundNumber) -> None:
        """A requested bye names a Swiss round of the format that is not generated yet."""
        if self.final_phase_started:
            raise WrongStatus(
                "the final phase has started, so no Swiss round follows: a bye belongs to a "
                "Swiss round"
            )
        if number <= self.current_round:
            raise RoundLocked(
                f"round {number} has already been paired: a bye is asked for before its round"
            )
        if number > self.format.swiss_rounds:
            raise UnknownRound(
                f"this tournament has {self.format.swiss_rounds} Swiss rounds: name one of "
                "those not paired yet"
            )

    def _incomplete(self, doing: str) -> str:
        """``RoundIncomplete``'s text: which matches still need a result, and what then."""
        number = self.current_round
        open_ids = [str(m.id) for m in self.round_matches(number) if m.result is None]
        return (
            f"round {number} still has matches without result ({', '.join(open_ids)}): "
            f"record every result of round {number} before {doing}"
        )

    def _require_registration(self, remedy: str) -> None:
        if self.status is not Status.REGISTRATION:
            raise RegistrationClosed(f"round 1 has been generated: {remedy}")

    def _check_new_name(self, name: str, *, ignore: PlayerId | None = None) -> None:
        key = name_key(name)
        for pid, p in self.players.items():
            if pid != ignore and name_key(p.name) == key:
                raise DuplicateName(
                    f"a player named {p.name!r} is already in the tournament: tell the two "
                    "apart (an initial, a town)"
                )

    def _renumber(self, *, strict: bool = False) -> None:
        """Start numbers 1..N (by rating when everyone has one; ``dutch``: C.04.2 Art. 2,
        ``chess.pairing_key``) and groups, in registration.

        ``strict`` also refuses manual groups that name nobody (checked when settings are set,
        not when a player is renamed or removed later).
        """
        players = sorted(self.players.values(), key=lambda p: p.id)
        if self.settings.pairing is PairingSystem.DUTCH:
            players.sort(key=chess.pairing_key)
        elif players and all(p.rating is not None for p in players):
            players.sort(key=lambda p: -(p.rating or 0))
        renumbered = [replace(p, start_number=i) for i, p in enumerate(players, start=1)]
        self.players = {p.id: p for p in sorted(renumbered, key=lambda p: p.id)}
        _ = self.format
        if self.settings.groups is not None:
            groups = assign_groups(
                renumbered, self.settings.groups, seed=self.settings.seed, strict=strict
            )
            self.players = {pid: replace(p, group=groups[pid]) for pid, p in self.players.items()}
        else:
            self.players = {pid: replace(p, group=None) for pid, p in self.players.items()}


def _clean_name(name: str) -> str:
    """Whitespace runs become one space; 1 to 80 characters, none of them a control character."""
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= MAX_NAME_LENGTH:
        raise InvalidSettings(
            f"a player name has 1 to {MAX_NAME_LENGTH} characters: "
            + ("write one" if not cleaned else f"shorten it (this one has {len(cleaned)})")
        )
    if any(unicodedata.category(c) == "Cc" for c in cleaned):
        raise InvalidSettings("a player name has no control characters: remove them")
    return cleaned
