"""A top cut as the pages draw it: one column per bracket round, each match with its two slots
(the player once known, else where the player comes from), the byes as gaps so that every
match stands between the two it takes its players from. A double elimination is drawn the same
way, side by side: the winners' bracket and the grand final above, the losers' bracket below."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.domain.bracket import (
    Bracket,
    BracketMatch,
    BracketSide,
    Slot,
    SlotSource,
    reset_needed,
    slot_player,
)
from app.domain.bracket_matches import decided_matches, numbered
from app.domain.final_phase import Decided
from app.domain.matches import Match
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, PlayerId, Side, Stage
from app.pages.i18n import N_

STAGE_TITLES = {
    Stage.ROUND_OF_64: N_("Round of 64"),
    Stage.ROUND_OF_32: N_("Round of 32"),
    Stage.ROUND_OF_16: N_("Round of 16"),
    Stage.QUARTERFINAL: N_("Quarterfinals"),
    Stage.SEMIFINAL: N_("Semifinals"),
    Stage.FINAL: N_("Final"),
    Stage.THIRD_PLACE: N_("Third-place match"),
}
SIDE_TITLES = {
    BracketSide.WINNERS: (N_("Winners' round %(number)d"), N_("Winners' final")),
    BracketSide.LOSERS: (N_("Losers' round %(number)d"), N_("Losers' final")),
}
GRAND_FINAL_TITLES = (N_("Grand final"), N_("Grand final reset, if needed"))
ORIGINS = {
    SlotSource.SEED: N_("Seed %(number)d"),
    SlotSource.WINNER: N_("Winner of match %(number)d"),
    SlotSource.LOSER: N_("Loser of match %(number)d"),
}


@dataclass(frozen=True, slots=True)
class SlotView:
    """One side: ``origin`` (a message id taking ``number``, or a group label such as ``A1``)
    says where the player comes from; ``name`` is empty until the player is known."""

    origin: str
    number: int
    name: str
    seed: str
    goals: str
    won: bool
    absent: bool


@dataclass(frozen=True, slots=True)
class MatchView:
    number: int
    stage: Stage
    board: int
    slots: tuple[SlotView, SlotView]
    played: bool
    decided_by: str
    forfeit: bool
    skipped: bool = False
    """A grand final's reset that will not be played: the winners' bracket winner won."""


@dataclass(frozen=True, slots=True)
class ColumnView:
    """A bracket round: its title (message id) and its places top to bottom, ``None`` for a
    bye's gap."""

    title: str
    places: tuple[MatchView | None, ...]
    number: int = 0
    """The round's number, for a title that takes it."""


@dataclass(frozen=True, slots=True)
class TopCutView:
    size: int
    columns: tuple[ColumnView, ...]
    third_place: MatchView | None


@dataclass(frozen=True, slots=True)
class DoubleEliminationView:
    """The winners' bracket's columns then the grand final's (drawn in one row), and the
    losers' bracket's (the row below)."""

    size: int
    upper: tuple[ColumnView, ...]
    lower: tuple[ColumnView, ...]


def _viewer(
    tournament: Tournament, shape: Bracket, decided_by_labels: dict[DecidedBy, str]
) -> Callable[[BracketMatch], MatchView]:
    """How a bracket match is drawn, with the players and results as they stand."""
    seeds = list(tournament.final_seeds)
    groups = _group_labels(tournament, seeds)
    final_matches = tournament.final_matches()
    formed = numbered(shape, final_matches)
    decided = decided_matches(shape, final_matches)
    seed_text = {pid: groups[i] if groups else str(i + 1) for i, pid in enumerate(seeds)}

    def view(place: BracketMatch) -> MatchView:
        match = formed.get(place.number)
        skipped = (
            place.if_needed
            and shape.final.number in decided
            and not reset_needed(shape, place, seeds, decided)
        )
        slots = tuple(
            _slot(tournament, s, [] if skipped else seeds, decided, match, seed_text, groups)
            for s in place.slots
        )
        result = match.result if match is not None else None
        return MatchView(
            number=place.number,
            stage=place.stage,
            board=place.board,
            slots=(slots[0], slots[1]),
            played=result is not None,
            decided_by=decided_by_labels.get(result.decided_by, "")
            if result is not None and result.decided_by is not None
            else "",
            forfeit=result is not None and result.forfeit is not None,
            skipped=skipped,
        )

    return view


def double_elimination_view(
    tournament: Tournament, *, decided_by_labels: dict[DecidedBy, str]
) -> DoubleEliminationView:
    """The double elimination as it stands, column by column as the bracket lays it out (a
    bye a gap); before the start no slot names a player."""
    shape = tournament.bracket()
    view = _viewer(tournament, shape, decided_by_labels)
    last = {
        side: max((c.round for c in shape.columns if c.side is side), default=0)
        for side in BracketSide
    }
    upper: list[ColumnView] = []
    lower: list[ColumnView] = []
    for column in shape.columns:
        places = tuple(view(shape.match(n)) if n is not None else None for n in column.places)
        if column.side is BracketSide.GRAND_FINAL:
            upper.append(ColumnView(GRAND_FINAL_TITLES[column.round - 1], places))
            continue
        numbered_title, final_title = SIDE_TITLES[column.side]
        title = final_title if column.round == last[column.side] else numbered_title
        (upper if column.side is BracketSide.WINNERS else lower).append(
            ColumnView(title, places, column.round)
        )
    return DoubleEliminationView(shape.size, tuple(upper), tuple(lower))


def top_cut_view(tournament: Tournament, *, decided_by_labels: dict[DecidedBy, str]) -> TopCutView:
    """The top cut as it stands; before the start no slot names a player."""
    shape = tournament.bracket()
    view = _viewer(tournament, shape, decided_by_labels)

    columns = []
    for number in range(1, shape.rounds + 1):
        in_round = [
            m for m in shape.matches if m.round == number and m.stage is not Stage.THIRD_PLACE
        ]
        columns.append(
            ColumnView(
                STAGE_TITLES[in_round[0].stage], _places(shape, number, [view(m) for m in in_round])
            )
        )
    third = shape.third_place
    return TopCutView(shape.size, tuple(columns), view(third) if third is not None else None)


def _places(shape: Bracket, number: int, matches: list[MatchView]) -> tuple[MatchView | None, ...]:
    """The first round's places, a gap where a seed has a bye (a seed in a second-round slot);
    later rounds are full."""
    if number > 1 or shape.rounds == 1:
        return tuple(matches)
    taken = iter(matches)
    second = [
        s
        for m in shape.matches
        if m.round == 2 and m.stage is not Stage.THIRD_PLACE
        for s in m.slots
    ]
    return tuple(None if s.source is SlotSource.SEED else next(taken) for s in second)


def _group_labels(tournament: Tournament, seeds: list[PlayerId]) -> list[str] | None:
    if not tournament.format.groups or not seeds:
        return None
    return [f"{tournament.players[pid].group}{i // 2 + 1}" for i, pid in enumerate(seeds)]


def _slot(
    tournament: Tournament,
    slot: Slot,
    seeds: list[PlayerId],
    decided: dict[int, Decided],
    match: Match | None,
    seed_text: dict[PlayerId, str],
    groups: list[str] | None,
) -> SlotView:
    if slot.source is SlotSource.SEED and groups:
        origin = groups[slot.ref - 1]
    else:
        origin = ORIGINS[slot.source]
    pid = slot_player(slot, seeds, decided) if seeds else None
    goals, won, absent = "", False, False
    if match is not None and pid is not None and match.result is not None:
        result = match.result
        side = Side.HOME if pid == match.home else Side.AWAY
        goals = str(result.home_goals if side is Side.HOME else result.away_goals)
        if result.forfeit is not None:
            absent = result.forfeit.absent(side)
            goals = "−" if absent else "+"
        won = match.winner == pid
    return SlotView(
        origin=origin,
        number=slot.ref,
        name=tournament.players[pid].name if pid is not None else "",
        seed=seed_text.get(pid, "") if pid is not None else "",
        goals=goals,
        won=won,
        absent=absent,
    )
