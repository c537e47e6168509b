"""The format: how many Swiss rounds, and which final phase (``tournament.md``, "The format")."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.domain.errors import InvalidSettings, TooFewPlayers, TooManyPlayers

MIN_PLAYERS = 2
MAX_PLAYERS = 4096
GROUP_COUNT = 2
SHORT_FORMULA_ROUNDS = 4
TOP_CUT_MIN = 2
TOP_CUT_MAX = 64
DOUBLE_ELIMINATION_MIN = 4
DOUBLE_ELIMINATION_MAX = 16


class FormatPreset(StrEnum):
    STANDARD = "standard"
    SHORT = "short"
    DYP = "dyp"
    """Draw your partner (``docs/rules.md``, "DYP"): individual players drawn into teams of two
    every round, no final phase, late entries until the last round."""


DYP_MIN_PLAYERS = 4
DYP_MAX_PLAYERS = 512
"""A DYP draw matches every two players and every two teams (a complete graph): 512 players
take 0.2 s of CPU and 80 MB a round, 2,048 would take 5.5 s and 1 GB (``docs/performance.md``)."""


def max_players(preset: FormatPreset) -> int:
    """The most players a tournament of ``preset`` takes, late entries included."""
    return DYP_MAX_PLAYERS if preset is FormatPreset.DYP else MAX_PLAYERS


class FinalPhaseKind(StrEnum):
    SEMIFINALS = "semifinals"
    FINAL = "final"
    TOP_CUT = "top_cut"
    DOUBLE_ELIMINATION = "double_elimination"
    NONE = "none"

    @property
    def sized(self) -> bool:
        """Played as a bracket of ``top_cut_size`` qualifiers (``bracket``,
        ``double_elimination``)."""
        return self in (FinalPhaseKind.TOP_CUT, FinalPhaseKind.DOUBLE_ELIMINATION)


class GroupAssignment(StrEnum):
    DRAW = "draw"
    SEEDED = "seeded"
    POTS = "pots"
    MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class GroupsSetting:
    """Two groups, filled by ``assignment``; ``manual`` lists the names of each group."""

    assignment: GroupAssignment
    manual: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class ResolvedFormat:
    """The format in force: Swiss rounds, final phase, number of groups (0 without groups)."""

    preset: FormatPreset
    swiss_rounds: int
    final_phase: FinalPhaseKind
    groups: int
    top_cut_size: int = 0
    third_place: bool = False
    grand_final_reset: bool = False
    """Double elimination: the grand final is played again if the losers' bracket winner wins it."""

    def late_entry_closed(self, rounds_generated: int) -> bool:
        """Late entry closes once half the Swiss rounds are generated; in DYP (Monster DYP)
        only once the last one is."""
        if self.preset is FormatPreset.DYP:
            return rounds_generated >= self.swiss_rounds
        return 2 * rounds_generated >= self.swiss_rounds

    @property
    def qualifier_count(self) -> int:
        """How many players the final phase takes (short formula: the two finalists)."""
        if self.final_phase.sized:
            return self.top_cut_size
        return {FinalPhaseKind.SEMIFINALS: 4, FinalPhaseKind.FINAL: 2}.get(self.final_phase, 0)


def table_format(players: int) -> tuple[int, FinalPhaseKind]:
    """Swiss rounds and final phase for a number of players, from the format table."""
    if players <= 3:
        return players - 1, FinalPhaseKind.NONE
    if players <= 5:
        return 3, FinalPhaseKind.FINAL
    if players <= 12:
        return 4, FinalPhaseKind.SEMIFINALS
    if players <= 16:
        return 5, FinalPhaseKind.SEMIFINALS
    return (players - 1).bit_length() + 1, FinalPhaseKind.SEMIFINALS


def max_swiss_rounds(players: int) -> int:
    """An override may ask for 1 to N − 1 rounds (N even) or 1 to N (N odd)."""
    return players if players % 2 else players - 1


def resolve_format(
    players: int,
    *,
    preset: FormatPreset = FormatPreset.STANDARD,
    swiss_rounds: int | None = None,
    final_phase: FinalPhaseKind | None = None,
    groups: GroupsSetting | None = None,
    top_cut_size: int | None = None,
    third_place: bool = False,
    grand_final_reset: bool | None = None,
) -> ResolvedFormat:
    """The format in force for ``players`` players, after the short formula and the overrides.

    In the groups variant the larger group's size decides the rounds, a ``swiss_rounds``
    override must fit the smaller group, and the final phase may only be ``semifinals``,
    ``top_cut`` or ``double_elimination`` (an even size) or ``none``. A final phase takes at
    least 4 players, the short formula's final 2, a top cut its size (``top_cut_size``
    players, 2 to 64; a ``third_place`` match from 4), a double elimination its size (4 to 16; its
    ``grand_final_reset`` played unless set to false).
    """
    if players < MIN_PLAYERS:
        raise TooFewPlayers(
            f"a tournament needs at least {MIN_PLAYERS} players: enter {MIN_PLAYERS} or more"
        )
    if players > MAX_PLAYERS:
        raise TooManyPlayers(
            f"a tournament takes at most {MAX_PLAYERS} players: split the field into two "
            "tournaments"
        )
    group_count = GROUP_COUNT if groups is not None else 0
    if groups is not None and players < 2 * GROUP_COUNT:
        raise InvalidSettings(
            "the groups variant needs at least 2 players in each group: add players, or "
            "leave out `groups`"
        )
    larger = -(-players // GROUP_COUNT) if groups is not None else players
    smaller = players // GROUP_COUNT if groups is not None else players
    rounds, phase = table_format(larger)
    if preset is FormatPreset.DYP:
        _check_dyp(players, final_phase, groups=groups is not None)
        phase = FinalPhaseKind.NONE
    if groups is not None:
        if preset is FormatPreset.SHORT:
            raise InvalidSettings(
                "the short formula has no groups variant: choose the standard format, or "
                "leave out `groups`"
            )
        phase = FinalPhaseKind.SEMIFINALS
    if preset is FormatPreset.SHORT:
        rounds, phase = min(rounds, SHORT_FORMULA_ROUNDS), FinalPhaseKind.FINAL
    if swiss_rounds is not None:
        bound = max_swiss_rounds(smaller)
        if not 1 <= swiss_rounds <= bound:
            group = " in the smaller group" if groups is not None else ""
            raise InvalidSettings(
                f"`swiss_rounds` must be 1 to {bound} for {smaller} players{group}: choose "
                "a number in that range, or leave it out for the format's own"
            )
        rounds = swiss_rounds
    if final_phase is not None:
        if groups is not None and final_phase is FinalPhaseKind.FINAL:
            raise InvalidSettings(
                "with groups the final phase is `semifinals`, `top_cut`, `double_elimination` "
                "or `none`: choose one of them"
            )
        phase = final_phase
    _check_top_cut(phase, top_cut_size, third_place, groups=groups is not None)
    _check_double_elimination(phase, top_cut_size, third_place, grand_final_reset)
    if phase.sized and top_cut_size is not None:
        if players < top_cut_size:
            kind = "top cut" if phase is FinalPhaseKind.TOP_CUT else "double elimination"
            raise InvalidSettings(
                f"a {kind} of {top_cut_size} needs at least {top_cut_size} players: add "
                "players, or choose a smaller `top_cut_size`"
            )
        return ResolvedFormat(
            preset=preset,
            swiss_rounds=rounds,
            final_phase=phase,
            groups=group_count,
            top_cut_size=top_cut_size,
            third_place=third_place,
            grand_final_reset=phase is FinalPhaseKind.DOUBLE_ELIMINATION
            and grand_final_reset is not False,
        )
    needed = _players_needed(phase, preset)
    if players < needed:
        raise InvalidSettings(
            f"the final phase '{phase}' needs at least {needed} players: add players, or "
            "choose a smaller final phase"
        )
    return ResolvedFormat(preset=preset, swiss_rounds=rounds, final_phase=phase, groups=group_count)


def _check_dyp(players: int, final_phase: FinalPhaseKind | None, *, groups: bool) -> None:
    """DYP plays one field of at least 4 players and ends with its last round."""
    if groups:
        raise InvalidSettings("DYP draws its teams from one field: leave out `groups`")
    if final_phase not in (None, FinalPhaseKind.NONE):
        raise InvalidSettings(
            "DYP has no final phase (its standings after the last round are the result): "
            "leave out `final_phase`, or set it to `none`"
        )
    if players > DYP_MAX_PLAYERS:
        raise TooManyPlayers(
            f"a DYP tournament takes at most {DYP_MAX_PLAYERS} players: split the field into "
            "two tournaments"
        )
    if players < DYP_MIN_PLAYERS:
        raise InvalidSettings(
            f"DYP draws teams of two against two, so it needs at least {DYP_MIN_PLAYERS} "
            f"players: enter {DYP_MIN_PLAYERS} or more"
        )


def _check_top_cut(
    phase: FinalPhaseKind, size: int | None, third_place: bool, *, groups: bool
) -> None:
    """``top_cut`` needs ``top_cut_size`` (2 to 64, even with groups: half from each) and only
    it takes a size or a third-place match, which needs two semifinals (4 qualifiers); a
    double elimination takes a size too (``_check_double_elimination``)."""
    if phase is FinalPhaseKind.DOUBLE_ELIMINATION:
        if size is not None and groups and size % 2:
            raise InvalidSettings(
                f"with groups a double elimination takes as many from each group: choose an "
                f"even `top_cut_size`, not {size}"
            )
        return
    if phase is not FinalPhaseKind.TOP_CUT:
        if size is not None or third_place:
            raise InvalidSettings(
                "`top_cut_size` and `third_place` belong to the final phase `top_cut`: set "
                "`final_phase` to `top_cut`, or leave them out"
            )
        return
    if size is None:
        raise InvalidSettings(
            "the final phase `top_cut` needs its size: add `top_cut_size` (2 to 64)"
        )
    if not TOP_CUT_MIN <= size <= TOP_CUT_MAX:
        raise InvalidSettings(
            f"`top_cut_size` must be {TOP_CUT_MIN} to {TOP_CUT_MAX}, not {size}: choose a size "
            "in that range"
        )
    if groups and size % 2:
        raise InvalidSettings(
            f"with groups a top cut takes as many from each group: choose an even "
            f"`top_cut_size`, not {size}"
        )
    if third_place and size < 4:
        raise InvalidSettings(
            "a third-place match needs two semifinals, so a top cut of at least 4: choose a "
            "larger `top_cut_size`, or leave out `third_place`"
        )


def _check_double_elimination(
    phase: FinalPhaseKind, size: int | None, third_place: bool, reset: bool | None
) -> None:
    """``double_elimination`` needs ``top_cut_size`` (4 to 16), has no third-place match (the
    losers' bracket decides 3rd place), and only it takes ``grand_final_reset``."""
    if phase is not FinalPhaseKind.DOUBLE_ELIMINATION:
        if reset is not None:
            raise InvalidSettings(
                "`grand_final_reset` belongs to the final phase `double_elimination`: set "
                "`final_phase` to `double_elimination`, or leave it out"
            )
        return
    if size is None:
        raise InvalidSettings(
            f"the final phase `double_elimination` needs its size: add `top_cut_size` "
            f"({DOUBLE_ELIMINATION_MIN} to {DOUBLE_ELIMINATION_MAX})"
        )
    if not DOUBLE_ELIMINATION_MIN <= size <= DOUBLE_ELIMINATION_MAX:
        raise InvalidSettings(
            f"a double elimination takes {DOUBLE_ELIMINATION_MIN} to {DOUBLE_ELIMINATION_MAX} "
            f"qualifiers, not {size}: choose a `top_cut_size` in that range"
        )
    if third_place:
        raise InvalidSettings(
            "a double elimination has no third-place match (its losers' bracket decides 3rd "
            "place): leave out `third_place`"
        )


def _players_needed(phase: FinalPhaseKind, preset: FormatPreset) -> int:
    """The final phase needs at least 4 players; the short formula's final only 2."""
    if phase is FinalPhaseKind.NONE:
        return MIN_PLAYERS
    if phase is FinalPhaseKind.FINAL and preset is FormatPreset.SHORT:
        return 2
    return 4
