"""A tournament's settings, chosen at creation (``tournament.md``, "Settings"), and the
defaults each pairing system gives those left unchosen."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.domain.errors import InvalidSettings
from app.domain.forbidden import TeamRule
from app.domain.formats import FinalPhaseKind, FormatPreset, GroupsSetting
from app.domain.types import (
    ByeKind,
    Entry,
    InitialColour,
    PairingSystem,
    PointsTable,
    Tiebreak,
)


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings chosen at creation (``tournament.md``, "Settings").

    ``initial_colour`` (``dutch`` only) is round 1's colour, ``None`` for drawn from the seed;
    ``allowed_byes`` the byes a player may ask for, ``None`` for the system's default;
    ``avoid_same_team`` whether two players of one team are a forbidden pair (``forbidden``),
    the one setting that may change after round 1 (it acts on the rounds not paired yet).
    ``top_cut_size`` and ``third_place`` shape the final phase ``top_cut`` (``bracket``),
    ``top_cut_size`` and ``grand_final_reset`` (``None``: played) ``double_elimination``.
    ``pair_checked_in_only`` pairs only the checked-in players in round 1
    (``app.domain.attendance``). ``round_duration`` is a round's time in seconds, what a round's
    clock counts down when started without another (``app.domain.clock``; ``None``: no default);
    it may change at any time, as it only acts on clocks started afterwards. ``entry`` says
    whether an entry is one player or a team of two (doubles); it is chosen at creation only.
    """

    seed: int
    pairing: PairingSystem = PairingSystem.NEAREST
    tiebreak: Tiebreak | None = None
    points: PointsTable = field(default_factory=PointsTable.default)
    format: FormatPreset = FormatPreset.STANDARD
    swiss_rounds: int | None = None
    final_phase: FinalPhaseKind | None = None
    groups: GroupsSetting | None = None
    top_cut_size: int | None = None
    third_place: bool = False
    grand_final_reset: bool | None = None
    initial_colour: InitialColour | None = None
    allowed_byes: frozenset[ByeKind] | None = None
    avoid_same_team: TeamRule = TeamRule.OFF
    pair_checked_in_only: bool = False
    round_duration: int | None = None
    entry: Entry = Entry.PLAYER

    @property
    def byes_allowed(self) -> frozenset[ByeKind]:
        """Both kinds for ``dutch``, none for the other systems, unless chosen."""
        if self.allowed_byes is not None:
            return self.allowed_byes
        return frozenset(ByeKind) if self.pairing is PairingSystem.DUTCH else frozenset()

    @property
    def final_phase_in_use(self) -> FinalPhaseKind | None:
        """As chosen; ``none`` for ``dutch`` and ``dyp`` when not chosen (else the format table
        decides)."""
        if self.final_phase is None and self.pairing in (PairingSystem.DUTCH, PairingSystem.DYP):
            return FinalPhaseKind.NONE
        return self.final_phase

    def check(self) -> None:
        """``dutch`` pairs one field (no groups); ``initial_colour`` belongs to ``dutch``; the
        format ``dyp`` is paired by the system ``dyp`` and no other, ranks by points per match,
        and keeps no teams apart (``docs/rules.md``, "DYP")."""
        dyp_format = self.format is FormatPreset.DYP
        if dyp_format != (self.pairing is PairingSystem.DYP):
            raise InvalidSettings(
                "the format `dyp` and the pairing `dyp` go together: set both (or only "
                "`format: dyp`), or neither"
            )
        if dyp_format and self.groups is not None:
            raise InvalidSettings("DYP draws its teams from one field: leave out `groups`")
        if (self.tiebreak is Tiebreak.POINTS_PER_MATCH) != dyp_format and self.tiebreak:
            raise InvalidSettings(
                "the tiebreak `points_per_match` is DYP's and DYP's only: "
                + ("leave out `tiebreak`" if dyp_format else "choose another tiebreak")
            )
        if dyp_format and self.entry is not Entry.PLAYER:
            raise InvalidSettings(
                "DYP draws its teams every round from players entered alone: leave `entry` "
                "`player` (fixed doubles are `entry: team` in another format)"
            )
        if dyp_format and self.avoid_same_team is not TeamRule.OFF:
            raise InvalidSettings(
                "DYP draws partners and opponents from the whole field: `avoid_same_team` "
                "does not apply, leave it `off`"
            )
        if self.pairing is PairingSystem.DUTCH and self.groups is not None:
            raise InvalidSettings("the dutch system pairs one field: no groups")
        if self.pairing is not PairingSystem.DUTCH and self.initial_colour is not None:
            raise InvalidSettings("initial_colour belongs to the dutch system: leave it out")

    @property
    def tiebreak_in_use(self) -> Tiebreak:
        """``buchholz`` for ``nearest`` and ``dutch``, ``lim`` for ``lim``,
        ``points_per_match`` for ``dyp``, unless chosen."""
        if self.tiebreak is not None:
            return self.tiebreak
        if self.pairing is PairingSystem.DYP:
            return Tiebreak.POINTS_PER_MATCH
        return Tiebreak.LIM if self.pairing is PairingSystem.LIM else Tiebreak.BUCHHOLZ
