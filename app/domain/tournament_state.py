"""A tournament's state and what follows from it (``tournament.md``): format, status, rounds,
standings, qualifiers and final ranking, derived on demand from settings, players, Swiss rounds
and matches. ``Tournament`` (``app.domain.tournament``) adds the commands that change it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction

from app.domain import final_phase as fp
from app.domain.bracket import Bracket, build_bracket, crossed_seeds
from app.domain.bracket_matches import decided_matches
from app.domain.bracket_matches import ranking as bracket_ranking
from app.domain.double_elimination import build_double_elimination, double_elimination_ranking
from app.domain.errors import NotForDyp, UnknownGroup, UnknownMatch, UnknownPlayer
from app.domain.final_matches import decided
from app.domain.forbidden import ForbiddenPair, ForbiddenPairId
from app.domain.formats import FinalPhaseKind, ResolvedFormat, resolve_format
from app.domain.matches import FINAL_STAGES, Match, MatchId, SwissRound
from app.domain.pairing.registry import SYSTEMS
from app.domain.requested_byes import bye_scores
from app.domain.round_actions import RoundSituation
from app.domain.settings import Settings
from app.domain.standings import StandingRow, SwissGame, compute_standings
from app.domain.types import GroupName, Player, PlayerId, RoundNumber, Score, Stage, Status


def swiss_status(
    swiss_rounds: int,
    final_phase: FinalPhaseKind,
    current_round: int,
    *,
    round_complete: Callable[[], bool],
) -> Status:
    """The status from round 1 until a final phase starts (``tournament.md``, "Lifecycle"):
    ``finished`` once the last Swiss round of a format without final phase is complete (asked
    of ``round_complete`` only then), else ``swiss``."""
    if final_phase is FinalPhaseKind.NONE and current_round == swiss_rounds and round_complete():
        return Status.FINISHED
    return Status.SWISS


class TournamentState:
    """A tournament's state: settings, players, Swiss rounds, matches, the forbidden pairs, and
    whether the final phase started; everything else is derived, the standings memoized until
    a command."""

    def __init__(
        self,
        settings: Settings,
        players: Iterable[Player],
        *,
        rounds: Iterable[SwissRound] = (),
        matches: Iterable[Match] = (),
        final_phase_started: bool = False,
        final_seeds: Iterable[PlayerId] = (),
        forbidden_pairs: Iterable[ForbiddenPair] = (),
    ) -> None:
        self.settings = settings
        self.players: dict[PlayerId, Player] = {p.id: p for p in players}
        self.rounds: list[SwissRound] = list(rounds)
        self.matches: dict[MatchId, Match] = {m.id: m for m in matches}
        self.final_phase_started = final_phase_started
        self.final_seeds: tuple[PlayerId, ...] = tuple(final_seeds)
        """A top cut's seeds, best first, fixed when it starts (a bye leaves a seed in no match
        until the next round)."""
        self.forbidden_pairs: dict[ForbiddenPairId, ForbiddenPair] = {
            f.id: f for f in forbidden_pairs
        }
        self._standings_memo: tuple[StandingRow, ...] | None = None

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
            top_cut_size=self.settings.top_cut_size,
            third_place=self.settings.third_place,
            grand_final_reset=self.settings.grand_final_reset,
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
        return swiss_status(
            fmt.swiss_rounds,
            fmt.final_phase,
            self.current_round,
            round_complete=lambda: self._round_complete(self.current_round),
        )

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
        if self.final_phase_started and self.final_seeds:
            return frozenset(self.final_seeds)
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
        if fmt.final_phase is FinalPhaseKind.DOUBLE_ELIMINATION:
            shape = self.bracket()
            decided_in = decided_matches(shape, self.final_matches())
            top = double_elimination_ranking(shape, decided_in, self._seeding())
            if top is None:
                return None
            return top + [pid for pid in cross if pid not in top]
        if fmt.final_phase is FinalPhaseKind.TOP_CUT:
            top = bracket_ranking(self.bracket(), self.final_matches(), self._seeding())
            if top is None:
                return None
            return top + [pid for pid in cross if pid not in top]
        return fp.final_ranking(
            cross,
            final=self._decided(Stage.FINAL),
            third_place=self._decided(Stage.THIRD_PLACE),
            kind=fmt.final_phase,
            active=self._active_ids(),
        )

    def bracket(self) -> Bracket:
        """The final phase's bracket (``bracket``): the top cut's, or the semifinals' as the
        bracket of 4 with a third-place match, the final's as that of 2, a double
        elimination's (``double_elimination``); an empty one without
        a final phase."""
        fmt = self.format
        if fmt.final_phase is FinalPhaseKind.TOP_CUT:
            return build_bracket(fmt.top_cut_size, third_place=fmt.third_place)
        if fmt.final_phase is FinalPhaseKind.DOUBLE_ELIMINATION:
            return build_double_elimination(fmt.top_cut_size, reset=fmt.grand_final_reset)
        if fmt.final_phase is FinalPhaseKind.NONE:
            return Bracket(0, 0, ())
        return build_bracket(
            fmt.qualifier_count, third_place=fmt.final_phase is FinalPhaseKind.SEMIFINALS
        )

    def seeds(self) -> list[PlayerId]:
        """The bracket's seeds, best first: fixed once the final phase started, provisional
        before (the qualifiers of the standings of this moment); crossed after groups."""
        if self.final_seeds:
            return list(self.final_seeds)
        if self.final_phase_started:
            seeding = self._seeding()
            order = sorted(seeding, key=seeding.__getitem__)
        else:
            order = self._qualifiers() if self.status is not Status.REGISTRATION else []
        if self.format.groups and len(order) == self.format.qualifier_count:
            return crossed_seeds(order, self._groups(), len(order))
        return order

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
        if self.drawn_partners:
            return _drawn_partners_standings(self, games, byes)
        return compute_standings(
            list(self.players.values()),
            games,
            byes,
            rounds_played=self.current_round,
            points=self.settings.points,
            tiebreak=self.settings.tiebreak_in_use,
            requested_byes=bye_scores(
                self.players.values(),
                rounds_generated=self.current_round,
                points=self.settings.points,
            ),
        )

    @property
    def drawn_partners(self) -> bool:
        """Its system draws teams of two every round (DYP: ``Capabilities.drawn_partners``)."""
        return SYSTEMS[self.settings.pairing].capabilities.drawn_partners

    def refuse_drawn_partners(self, feature: str) -> None:
        """Raise ``NotForDyp`` for a ``feature`` made for one player a side (pairing by hand,
        forbidden pairs, the explanation, TRF, the check) if the system draws partners."""
        if self.drawn_partners:
            raise NotForDyp(
                f"{feature} is made for one player against one, and this tournament draws "
                "teams of two (DYP) every round: it does not apply here"
            )

    def _cross_order(self) -> list[PlayerId]:
        order = [r.player_id for r in self._all_standings()]
        return fp.cross_order(order, self._groups() if self.format.groups else None)

    def _groups(self) -> dict[PlayerId, GroupName]:
        return {pid: p.group for pid, p in self.players.items() if p.group is not None}

    def _active_ids(self) -> frozenset[PlayerId]:
        return frozenset(pid for pid, p in self.players.items() if not p.withdrawn)

    def _round_complete(self, number: int) -> bool:
        return all(m.result is not None for m in self.round_matches(number))

    def _decided(self, stage: Stage) -> fp.Decided | None:
        for m in self.final_matches():
            if m.stage is stage and (result := decided(m)) is not None:
                return result
        return None

    def _final_ranking_ready(self) -> bool:
        """Every final-phase match has a result, the last ones (the finals, a grand final and
        its reset once formed) included."""
        matches = self.final_matches()
        return any(m.stage in (Stage.FINAL, Stage.GRAND_FINAL) for m in matches) and all(
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

    def situation(self, number: int) -> RoundSituation:
        """What decides the state of round ``number`` (``round_actions``)."""
        latest = self.round_matches(self.current_round) if self.rounds else []
        fmt = self.format
        return RoundSituation(
            number,
            self.current_round,
            fmt.swiss_rounds,
            self.final_phase_started,
            recorded=tuple(m.id for m in latest if m.result is not None),
            open=tuple(m.id for m in latest if m.result is None),
            final_phase_follows=fmt.final_phase is not FinalPhaseKind.NONE,
        )

    def _incomplete(self, doing: str) -> str:
        """``RoundIncomplete``'s text: which matches still need a result, and what then."""
        number = self.current_round
        open_ids = [str(m.id) for m in self.round_matches(number) if m.result is None]
        return (
            f"round {number} still has matches without result ({', '.join(open_ids)}): "
            f"record every result of round {number} before {doing}"
        )


def _drawn_partners_standings(
    state: TournamentState, games: list[SwissGame], byes: list[tuple[RoundNumber, PlayerId]]
) -> tuple[StandingRow, ...]:
    """DYP's individual standings (``docs/rules.md``, "DYP"): each of the four players of a
    match has its team's result and goals, so a match counts as two games, ``home`` against
    ``away`` and ``home_partner`` against ``away_partner``. Buchholz, Sonneborn-Berger and
    direct encounter would weigh one of the two opponents only: they are 0 (``None``)."""
    partners = [
        SwissGame(m.round, m.home_partner, m.away_partner, m.result)
        for m in state.matches.values()
        if m.stage is Stage.SWISS
        and m.round is not None
        and m.home_partner is not None
        and m.away_partner is not None
    ]
    rows = compute_standings(
        list(state.players.values()),
        games + partners,
        byes,
        rounds_played=state.current_round,
        points=state.settings.points,
        tiebreak=state.settings.tiebreak_in_use,
        requested_byes=bye_scores(
            state.players.values(),
            rounds_generated=state.current_round,
            points=state.settings.points,
        ),
    )
    return tuple(
        replace(
            r,
            buchholz=Score(0),
            median_buchholz=Score(0),
            sonneborn_berger=Fraction(0),
            direct_encounter=None,
        )
        for r in rows
    )
