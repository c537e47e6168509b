"""The tournament and the commands that change it (``tournament.md``).

``Tournament`` is the one entry point for commands: registration, rounds, results and the final
phase. Its state, and what is derived from it, is ``TournamentState``
(``app.domain.tournament_state``). A command either applies completely or raises a
``DomainError`` and changes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Concatenate, ParamSpec, TypeVar

from app.domain import chess
from app.domain import final_phase as fp
from app.domain.attendance import checked_in
from app.domain.bracket import crossed_seeds
from app.domain.bracket_matches import later_matches, progressed
from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.errors import (
    AlreadyWithdrawn,
    InvalidSettings,
    NotEnoughQualifiers,
    NotForDyp,
    RegistrationClosed,
    RoundIncomplete,
    TooFewPlayers,
    TooManyPlayers,
    UnknownForbiddenPair,
    WrongStatus,
)
from app.domain.final_matches import matches_from, reformed_finals
from app.domain.forbidden import (
    ForbiddenPair,
    ForbiddenPairId,
    PairKind,
    clean_team,
    new_pair,
    pair_constraints,
)
from app.domain.formats import FinalPhaseKind, max_players
from app.domain.groups import group_for_late_entry
from app.domain.manual_rounds import HandPairing, hand_round
from app.domain.matches import Match, MatchChanges, MatchId, SwissRound
from app.domain.pairing.constrained import pair_constrained
from app.domain.pairing.interface import Constraints, RoundRequest
from app.domain.pairing.registry import SYSTEMS
from app.domain.pairing_checks import Board
from app.domain.registration import (
    NewPlayer,
    check_new_members,
    check_new_name,
    clean_members,
    clean_name,
    listed_players,
    start_numbers,
    with_groups,
)
from app.domain.requested_byes import (
    check_allowed,
    check_future_round,
    with_bye,
    without_bye,
)
from app.domain.results import with_result
from app.domain.round_actions import RoundAction, require
from app.domain.settings import Settings
from app.domain.tournament_state import TournamentState
from app.domain.types import (
    ByeKind,
    GroupName,
    Player,
    PlayerId,
    Result,
    RoundNumber,
    Stage,
    Status,
)

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


class Tournament(TournamentState):
    """A tournament. Build it with the constructor (from storage) or ``create``; change it
    only by its commands, which keep the memoized standings honest."""

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def create(cls, settings: Settings, players: Sequence[NewPlayer]) -> Tournament:
        """A new tournament in registration; start numbers and groups assigned, format checked."""
        settings.check()
        tournament = cls(settings, listed_players(players, settings.entry))
        tournament._renumber(strict=True)
        return tournament

    # -- registration commands ------------------------------------------------------------

    @_command
    def change_settings(self, settings: Settings) -> None:
        """Settings can change only in registration, but for ``avoid_same_team``, which acts on
        the rounds not paired yet, and ``round_duration``, which acts on the clocks started
        afterwards (both until the tournament is finished); the new ones must fit the
        players."""
        settings.check()
        kept = replace(
            settings,
            avoid_same_team=self.settings.avoid_same_team,
            round_duration=self.settings.round_duration,
        )
        if kept == self.settings:
            if settings != self.settings and self.status is Status.FINISHED:
                raise WrongStatus("the tournament is finished: no round is left to pair")
            self.settings = settings
            return
        self._require_registration(
            "settings are fixed now; to change them, undo the rounds (while none has a result)"
        )
        check_allowed(self.players.values(), settings.byes_allowed)
        if SYSTEMS[settings.pairing].capabilities.drawn_partners and self.forbidden_pairs:
            raise NotForDyp(
                "this tournament lists forbidden pairs, which a DYP draw does not keep apart: "
                "delete them first, then choose the format `dyp`"
            )
        previous = self.settings, self.players
        self.settings = settings
        try:
            self._renumber(strict=True)
        except Exception:
            self.settings, self.players = previous  # a refused change leaves nothing behind
            raise

    @_command
    def add_player(self, new: NewPlayer) -> Player:
        """Add a player: in registration, or as a late entry until half the rounds are generated.

        A late entrant starts with 0 points, the next start number and (with groups) joins the
        smaller group.
        """
        name = clean_name(new.name)
        check_new_name(self.players.values(), name)
        members = clean_members(new.members, self.settings.entry)
        check_new_members(self.players.values(), members)
        most = max_players(self.settings.format)
        if len(self.players) >= most:
            raise TooManyPlayers(f"a tournament takes at most {most} players: this one is full")
        pid = PlayerId(max(self.players, default=0) + 1)
        if self.status is Status.REGISTRATION:
            self.players[pid] = Player(
                pid,
                name,
                len(self.players) + 1,
                new.rating,
                title=new.title,
                fide_id=new.fide_id,
                team=clean_team(new.team),
                members=members,
            )
            self._renumber()
            return self.players[pid]
        if self.final_phase_started or self.format.late_entry_closed(self.current_round):
            raise RegistrationClosed(
                "late entry closes once "
                + ("the last round is" if self.drawn_partners else "half the Swiss rounds are")
                + " generated: no player can be added to this tournament any more"
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
            team=clean_team(new.team),
            members=members,
        )
        if SYSTEMS[self.settings.pairing].capabilities.fide_numbers:
            self.players = chess.place_late_entry(self.players, player)
        else:
            self.players[pid] = player
        return self.players[pid]

    @_command
    def rename_player(self, player_id: PlayerId, name: str) -> Player:
        player = self._player(player_id)
        cleaned = clean_name(name)
        check_new_name(self.players.values(), cleaned, ignore=player_id)
        self.players[player_id] = replace(player, name=cleaned)
        renumbered = (
            self.settings.groups is not None
            or SYSTEMS[self.settings.pairing].capabilities.fide_numbers
        )
        if renumbered and self.status is Status.REGISTRATION:
            self._renumber()
        return self.players[player_id]

    @_command
    def set_team(self, player_id: PlayerId, team: str | None) -> Player:
        """Put a player in a team (``None`` or blank: in none), at any time: it acts on the
        rounds not paired yet."""
        player = self._player(player_id)
        self.players[player_id] = replace(player, team=clean_team(team))
        return self.players[player_id]

    @_command
    def set_members(self, player_id: PlayerId, members: Sequence[str]) -> Player:
        """Name a team entry's two players anew (a substitute), at any time: the team keeps
        its entry, results and standing."""
        player = self._player(player_id)
        cleaned = clean_members(members, self.settings.entry)
        check_new_members(self.players.values(), cleaned, ignore=player_id)
        self.players[player_id] = replace(player, members=cleaned)
        return self.players[player_id]

    @_command
    def forbid_pair(self, a: PlayerId, b: PlayerId, kind: PairKind) -> ForbiddenPair:
        """List two players as a forbidden pair (``docs/rules.md``, "Forbidden pairings"), at
        any time: it acts on the rounds not paired yet."""
        self.refuse_drawn_partners("listing forbidden pairs")
        pair = new_pair(self.forbidden_pairs, self.players, a, b, kind)
        self.forbidden_pairs[pair.id] = pair
        return pair

    @_command
    def allow_pair(self, pair_id: ForbiddenPairId) -> ForbiddenPair:
        """Take a forbidden pair off the list (the rounds already paired stay as they are)."""
        pair = self.forbidden_pairs.pop(pair_id, None)
        if pair is None:
            raise UnknownForbiddenPair(
                f"no forbidden pair {pair_id} in this tournament: use an id from its list"
            )
        return pair

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
        previous_pairs = dict(self.forbidden_pairs)
        del self.players[player_id]
        self.forbidden_pairs = {
            k: f for k, f in self.forbidden_pairs.items() if player_id not in f.players
        }
        try:
            self._renumber()
        except Exception as refused:
            self.players = previous
            self.forbidden_pairs = previous_pairs
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
        self.players[player_id] = with_bye(player, number, kind, allowed=self.settings.byes_allowed)
        return self.players[player_id]

    @_command
    def cancel_bye(self, player_id: PlayerId, number: RoundNumber) -> Player:
        """Take back a requested bye of a round not generated yet (nothing to take back is
        fine: the player will be paired in that round either way)."""
        player = self._player(player_id)
        self._check_future_round(number)
        self.players[player_id] = without_bye(player, number)
        return self.players[player_id]

    @_command
    def check_in(self, player_id: PlayerId, value: bool) -> Player:
        """Put a player on (``value``) or off the check-in list of round 1, in registration
        (``docs/rules.md``, "Absences"). Where the settings pair checked-in players only, round
        1 pairs those on the list; the others miss round 1 only."""
        player = self._player(player_id)
        self._require_registration(
            "the check-in list was for round 1: a player not checked in then is paired from "
            "round 2 on; withdraw them, or ask a bye for them, if they are not here"
        )
        self.players[player_id] = checked_in(player, value)
        return self.players[player_id]

    # -- rounds ---------------------------------------------------------------------------

    @_command
    def generate_round(self, *, deadline: Deadline = NO_DEADLINE) -> SwissRound:
        """Generate the next Swiss round, in every group, by the tournament's pairing system.

        Past ``deadline`` the pairing raises ``PairingTimeout`` and nothing is changed.
        """
        number = RoundNumber(self.current_round + 1)
        require(RoundAction.GENERATE, self.situation(number))
        fmt = self.format
        if not self.rounds and self.settings.pair_checked_in_only:
            self._check_enough_checked_in()
        request = RoundRequest(
            number=number,
            players=self.players,
            matches=tuple(self.matches.values()),
            rounds=tuple(self.rounds),
            standings=self._all_standings(),
            settings=self.settings,
            swiss_rounds=fmt.swiss_rounds,
            groups=fmt.groups,
            next_id=self._next_match_id(),
        )
        system = SYSTEMS[self.settings.pairing]
        generated = pair_constrained(
            system.pair_round, request, self.constraints(request.number), deadline=deadline
        )
        self.rounds.append(generated.swiss_round)
        self.matches.update((m.id, m) for m in generated.matches)
        return generated.swiss_round

    def constraints(self, number: RoundNumber) -> Constraints:
        """The forbidden pairs among the players paired in round ``number``: the explicit
        ones, and the teams' by ``avoid_same_team`` (``forbidden.pair_constraints``)."""
        paired = (
            p
            for p in self.players.values()
            if p.in_round(number) and p.requested_bye(number) is None
        )
        return Constraints(
            pair_constraints(paired, self.forbidden_pairs.values(), self.settings.avoid_same_team)
        )

    @_command
    def undo_round(self, number: RoundNumber) -> SwissRound:
        """Take back the latest Swiss round (every group's), while none of its results is
        recorded and the final phase has not started: the organizer's remedy for a round
        generated too early. A player entered late or withdrawn since that round was generated
        keeps that change, now for the round that will be generated in its place."""
        require(RoundAction.UNDO, self.situation(number))
        matches = self.round_matches(number)
        for match in matches:
            del self.matches[match.id]
        for player in list(self.players.values()):
            if player.entered_round > number:
                player = replace(player, entered_round=RoundNumber(number))
            if player.withdrawn_after == number:
                player = replace(player, withdrawn_after=RoundNumber(number - 1))
            self.players[player.id] = player
        return self.rounds.pop()

    @_command
    def pair_by_hand(self, pairing: HandPairing) -> SwissRound:
        """Make the next Swiss round from the arbiter's boards and byes (``manual_rounds``):
        the way on when the system finds no pairing, or the arbiter's own. Allowed when
        generating is (``round_actions``); every player of the round placed exactly once, the
        rules checked, an ``error`` refused unless accepted; the round and its boards are
        ``manual``."""
        number = RoundNumber(self.current_round + 1)
        self.refuse_drawn_partners("pairing by hand")
        require(RoundAction.PAIR_BY_HAND, self.situation(number))
        made = hand_round(
            self,
            number,
            pairing,
            next_id=self._next_match_id(),
            forbidden=self.constraints(number).pairs,
        )
        self.rounds.append(made.swiss_round)
        self.matches.update((m.id, m) for m in made.matches)
        return made.swiss_round

    @_command
    def repair_by_hand(
        self,
        number: RoundNumber,
        pairing: HandPairing,
    ) -> SwissRound:
        """Replace the boards and byes of the latest Swiss round, while none of its results is
        recorded (``round_actions``), by the arbiter's: checked as ``pair_by_hand`` on the
        tournament as it stood before the round.

        A board with the same home and away as one of the round keeps that match (its id and
        ``manual`` as it was); the other boards are new matches, ``manual``, with new ids.
        A player who withdrew after the round was paired is no longer in it; a player who
        entered late after it was paired may be placed in it (and then counts from it on).
        """
        self.refuse_drawn_partners("pairing by hand")
        require(RoundAction.REPAIR_BY_HAND, self.situation(number))
        old = self.round_matches(number)
        before = self._before_latest_round(placed=pairing.placed)
        made = hand_round(
            before,
            number,
            pairing,
            next_id=self._next_match_id(),
            kept={Board(m.home, m.away): m for m in old},
            optional=[p.id for p in before.players.values() if p.entered_round == number + 1],
            # every player: a late entrant placed now is not in the round yet for ``constraints``
            forbidden=pair_constraints(
                before.players.values(),
                self.forbidden_pairs.values(),
                self.settings.avoid_same_team,
            ),
        )
        for match in old:
            del self.matches[match.id]
        self.matches.update((m.id, m) for m in made.matches)
        self.players = before.players
        self.rounds[-1] = made.swiss_round
        return made.swiss_round

    # -- results --------------------------------------------------------------------------

    @_command
    def record_result(self, match_id: MatchId, result: Result) -> MatchChanges:
        """Record or correct a result (``tournament.md``, "Corrections")."""
        match = self._match(match_id)
        updated = self._with_result(match, result)
        self.matches[match_id] = updated
        return self._progress(updated)

    @_command
    def clear_result(self, match_id: MatchId) -> MatchChanges:
        """Clear a result, under the same correction rules as recording one."""
        match = self._match(match_id)
        if match.result is None:
            return MatchChanges(())
        updated = self._with_result(match, None)
        self.matches[match_id] = updated
        return self._progress(updated)

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
        if fmt.final_phase.sized:
            return self._start_top_cut(qualifiers, groups)
        fixtures = fp.opening_fixtures(qualifiers, fmt.final_phase, groups=groups)
        new = matches_from(fixtures, next_id=self._next_match_id())
        self.matches.update((m.id, m) for m in new)
        self.final_phase_started = True
        return MatchChanges(tuple(new))

    # -- internals ------------------------------------------------------------------------

    def _before_latest_round(self, *, placed: Collection[PlayerId]) -> TournamentState:
        """The tournament as it stood before its latest round was paired, for pairing that
        round again: a withdrawal since is in force for it (as ``undo_round``), and a late
        entrant of the next round who is ``placed`` enters with it."""
        number = RoundNumber(self.current_round)
        players = []
        for player in self.players.values():
            if player.withdrawn_after == number:
                player = replace(player, withdrawn_after=RoundNumber(number - 1))
            if player.entered_round == number + 1 and player.id in placed:
                player = replace(player, entered_round=number)
            players.append(player)
        return TournamentState(
            self.settings,
            players,
            rounds=self.rounds[:-1],
            matches=[
                m for m in self.matches.values() if m.stage is not Stage.SWISS or m.round != number
            ],
            final_phase_started=self.final_phase_started,
        )

    def _start_top_cut(
        self, qualifiers: list[PlayerId], groups: dict[PlayerId, GroupName] | None
    ) -> MatchChanges:
        """The top cut's (or double elimination's) seeds are fixed now; its first matches are
        those whose two players are known (a seed with a bye waits for the next round)."""
        size = self.format.qualifier_count
        self.final_seeds = tuple(crossed_seeds(qualifiers, groups, size) if groups else qualifiers)
        self.final_phase_started = True
        changes = progressed(
            self.bracket(),
            self.final_seeds,
            (),
            {pid: i for i, pid in enumerate(qualifiers)},
            next_id=self._next_match_id(),
        )
        self.matches.update((m.id, m) for m in changes.written)
        return changes

    def _progress(self, updated: Match) -> MatchChanges:
        """After a final-phase result changed: the semifinals re-form their finals, a top cut
        its later matches (``bracket_matches.progressed``), as does a double elimination."""
        if self.format.final_phase.sized and updated.stage is not Stage.SWISS:
            changes = progressed(
                self.bracket(),
                self.final_seeds,
                self.final_matches(),
                self._seeding(),
                next_id=self._next_match_id(),
            )
            for match_id in changes.removed:
                del self.matches[match_id]
            self.matches.update((m.id, m) for m in changes.written)
            return MatchChanges((updated, *changes.written), changes.removed)
        if updated.stage is Stage.SEMIFINAL:
            return self._reform_finals(updated)
        return MatchChanges((updated,))

    def _reform_finals(self, semifinal: Match) -> MatchChanges:
        """Form, re-form or remove the finals after a semifinal result changed."""
        changes = reformed_finals(
            self.final_matches(), self._seeding(), next_id=self._next_match_id()
        )
        for match_id in changes.removed:
            del self.matches[match_id]
        self.matches.update((m.id, m) for m in changes.written)
        return MatchChanges((semifinal, *changes.written), changes.removed)

    def _with_result(self, match: Match, result: Result | None) -> Match:
        return with_result(
            match,
            result,
            current_round=self.current_round,
            final_phase_started=self.final_phase_started,
            # looked at only for a final-phase match: a Swiss batch of 2,048 results would
            # otherwise scan every match once per result
            final_matches=() if match.stage is Stage.SWISS else self._later(match),
        )

    def _later(self, match: Match) -> list[Match]:
        """The final-phase matches that take ``match``'s winner or loser."""
        return later_matches(self.bracket(), match, self.final_matches())

    def _check_enough_checked_in(self) -> None:
        here = sum(1 for p in self.players.values() if p.checked_in)
        if here < 2:
            raise TooFewPlayers(
                f"round 1 pairs the checked-in players only, and {here} of "
                f"{len(self.players)} {'is' if here == 1 else 'are'} checked in: check in at "
                "least 2, or stop pairing checked-in players only"
            )

    def _check_future_round(self, number: RoundNumber) -> None:
        check_future_round(
            number,
            current_round=self.current_round,
            swiss_rounds=self.format.swiss_rounds,
            final_phase_started=self.final_phase_started,
        )

    def _require_registration(self, remedy: str) -> None:
        if self.status is not Status.REGISTRATION:
            raise RegistrationClosed(f"round 1 has been generated: {remedy}")

    def _renumber(self, *, strict: bool = False) -> None:
        """Start numbers 1..N (by rating when everyone has one; ``dutch``: C.04.2 Art. 2,
        ``chess.pairing_key``) and groups, in registration.

        ``strict`` also refuses manual groups that name nobody (checked when settings are set,
        not when a player is renamed or removed later).
        """
        self.players = start_numbers(self.players.values(), self.settings.pairing)
        _ = self.format
        self.players = with_groups(
            self.players, self.settings.groups, seed=self.settings.seed, strict=strict
        )
