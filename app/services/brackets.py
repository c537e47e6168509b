"""The bracket read (``GET …/bracket``): the final phase's rounds, matches and slots, each slot
saying where its player comes from, with the players and results known so far."""

from __future__ import annotations

from app import read_models as s
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
from app.domain.types import PlayerId
from app.services.views import match as match_read


def seed_label(seed: int, *, groups: list[str] | None) -> str:
    """``Seed 5``; after groups the group position (seeds 2p − 1 and 2p are each group's p-th)."""
    if groups is None:
        return f"Seed {seed}"
    return f"{groups[seed - 1]}{(seed + 1) // 2}"


def slot_label(slot: Slot, *, groups: list[str] | None) -> str:
    if slot.source is SlotSource.SEED:
        return seed_label(slot.ref, groups=groups)
    return f"{'Winner' if slot.source is SlotSource.WINNER else 'Loser'} of match {slot.ref}"


def bracket(t: Tournament) -> s.BracketRead:
    """The bracket as it stands; before the start the seeds are provisional and no slot has a
    player (the standings still move)."""
    fmt = t.format
    shape = t.bracket()
    started = t.final_phase_started
    seeds = t.seeds() if shape.size else []
    groups = _seed_groups(t, seeds) if fmt.groups and len(seeds) == shape.size else None
    known = seeds if started else []
    return s.BracketRead(
        kind=fmt.final_phase,
        size=shape.size,
        third_place=shape.third_place is not None,
        grand_final_reset=any(m.if_needed for m in shape.matches),
        started=started,
        seeds=[
            s.BracketSeedRead(
                seed=i,
                label=seed_label(i, groups=groups),
                player_id=pid if started else None,
                name=t.players[pid].name if started else None,
            )
            for i, pid in enumerate(seeds, start=1)
        ],
        rounds=_rounds(t, shape, known, groups),
    )


def _seed_groups(t: Tournament, seeds: list[PlayerId]) -> list[str] | None:
    names = [t.players[pid].group for pid in seeds]
    return [g for g in names if g is not None] if all(names) else None


def _rounds(
    t: Tournament, shape: Bracket, seeds: list[PlayerId], groups: list[str] | None
) -> list[s.BracketRoundRead]:
    final_matches = t.final_matches() if seeds else []
    formed = numbered(shape, final_matches)
    decided = decided_matches(shape, final_matches)
    seed_of = {pid: i for i, pid in enumerate(seeds, start=1)}
    columns = [(c.side, c.round) for c in shape.columns] or [
        (BracketSide.WINNERS, number) for number in range(1, shape.rounds + 1)
    ]
    rounds = []
    for side, number in columns:
        in_round = [m for m in shape.matches if m.side is side and m.round == number]
        rounds.append(
            s.BracketRoundRead(
                side=side,
                number=number,
                stage=in_round[0].stage,
                matches=[
                    _match(t, shape, m, formed.get(m.number), seeds, decided, seed_of, groups)
                    for m in in_round
                ],
            )
        )
    return rounds


def _match(
    t: Tournament,
    shape: Bracket,
    place: BracketMatch,
    formed: Match | None,
    seeds: list[PlayerId],
    decided: dict[int, Decided],
    seed_of: dict[PlayerId, int],
    groups: list[str] | None,
) -> s.BracketMatchRead:
    # a reset that will not be played names nobody (the grand final's winner won it)
    skipped = (
        place.if_needed
        and shape.final.number in decided
        and not reset_needed(shape, place, seeds, decided)
    )
    slots = []
    for slot in place.slots:
        pid = slot_player(slot, seeds, decided) if seeds and not skipped else None
        goals = None
        if formed is not None and formed.result is not None and pid is not None:
            r = formed.result
            goals = r.home_goals if pid == formed.home else r.away_goals
        slots.append(
            s.BracketSlotRead(
                source=slot.source,
                seed=slot.ref if slot.source is SlotSource.SEED else None,
                match=slot.ref if slot.source is not SlotSource.SEED else None,
                label=slot_label(slot, groups=groups),
                player_id=pid,
                name=t.players[pid].name if pid is not None else None,
                player_seed=seed_of.get(pid) if pid is not None else None,
                goals=goals,
                won=formed is not None and pid is not None and formed.winner == pid,
            )
        )
    return s.BracketMatchRead(
        number=place.number,
        round=place.round,
        side=place.side,
        stage=place.stage,
        board=place.board,
        if_needed=place.if_needed,
        skipped=skipped,
        slots=slots,
        match=match_read(formed) if formed is not None else None,
    )
