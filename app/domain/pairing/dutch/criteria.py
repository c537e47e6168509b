"""The pairing criteria of C.04.3 Art. 2 as numbers a matching can maximise.

Absolute criteria decide whether two players may meet at all (``Criteria.allowed``): C1 (never
twice; a hard forbidden pair counts as met, as TRF-2026's ``260`` records forbid a pairing)
and C3 (two players with the same absolute colour preference do not meet, unless one of them
is a topscorer in the last round, Art. 1.8). C2 (who may get the bye) is applied where the
bye is decided (``bye``).

Quality criteria compare candidate pairings: the first criterion that differs decides (Art.
3.8). Every criterion that can be counted pair by pair becomes a *field* of one big integer
weight per pair, the higher-priority criterion in the higher bits, each field wide enough that
no sum over a round's pairs spills into the next. The heaviest matching then satisfies the
criteria in their order. Fields, from the heaviest:

- completion (C4, C5): a pair is worth more when its players could not take the bye, so the one
  player left out is one who may; only where the bye is decided;
- C6, C7: pairs in the bracket, and the scores of the players paired there (a downfloater of a
  high score costs more than any number of lower ones);
- C8: pairs in the next bracket and the scores paired there;
- C9: the played games of the bye's assignee (only in the bracket that sends the bye down);
- C10–C13: colour preferences met (topscorers' colour differences, three in a row, the
  preference, the strong preference);
- C14–C21: repeated floats, counted, then weighted by score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from copy import copy
from dataclasses import dataclass, field
from itertools import repeat

from app.domain.pairing.dutch.state import Float, PlayerState, Strength
from app.domain.pairing.matching import members
from app.domain.types import PlayerId, Score

__all__ = ["Criteria", "Layout"]

_FEW_RUNS = 8
"""``Criteria.adjacency`` moves C1's bit sets run by run when the players come in at most this
many runs of consecutive players (a bracket, the next scoregroup, everybody below), or in fewer
than half as many runs as rounds played (a run costs about what two opponents looked up do),
and looks each opponent up otherwise."""


def _bits(value: int) -> int:
    return max(1, value.bit_length())


@dataclass(frozen=True, slots=True)
class Layout:
    """Widths of the fields. ``count`` fits any count of pairs or players of the round;
    ``scores`` holds one ``count``-wide slot per score group (lowest group lowest)."""

    count: int
    scores: int
    slot: Mapping[Score, int]
    played_rounds: int
    float_width: int = field(init=False, compare=False)
    """The width of C14–C21's fields (the floats of the last two rounds)."""
    under_completion: int = field(init=False, compare=False)
    """The width of every field below C4/C5's: C6–C8, C9, C10–C13, C14–C21 (both worked out
    once: every pair's weight shifts by them)."""

    def __post_init__(self) -> None:
        floats = min(2, self.played_rounds) * 2 * (self.count + self.scores)
        object.__setattr__(self, "float_width", floats)
        object.__setattr__(self, "under_completion", 8 * self.count + 2 * self.scores + floats)

    @classmethod
    def of(cls, players: Sequence[PlayerState], played_rounds: int) -> Layout:
        count = _bits(len(players)) + 2
        groups = sorted({player.score for player in players})
        slot = {score: index * count for index, score in enumerate(groups)}
        return cls(count, count * len(groups), slot, played_rounds)

    def only(self, players: Sequence[PlayerState]) -> Layout:
        """The same fields with slots only for the scores of ``players``, each as wide as
        their number needs: a slot counts at most one pair, or one float, per player of its
        score in a matching of ``players``."""
        counts = Counter(player.score for player in players)
        slot = {}
        offset = 0
        for score in sorted(counts):
            slot[score] = offset
            offset += _bits(counts[score]) + 1
        return Layout(self.count, offset, slot, self.played_rounds)

    def fields(self) -> tuple[tuple[str, int], ...]:
        """The fields below C4/C5's, the highest first, as ``Criteria.quality`` packs them:
        (criterion, width). Their widths add up to ``under_completion``."""
        count, scores = self.count, self.scores
        rounds = range(min(2, self.played_rounds))
        return (
            ("C6", count),
            ("C7", scores),
            ("C8", count),
            ("C8", scores),
            ("C9", 2 * count),
            ("C10", count),
            ("C11", count),
            ("C12", count),
            ("C13", count),
            *(
                pair
                for back in rounds
                for pair in ((f"C{14 + 2 * back}", count), (f"C{15 + 2 * back}", count))
            ),
            *(
                pair
                for back in rounds
                for pair in ((f"C{18 + 2 * back}", scores), (f"C{19 + 2 * back}", scores))
            ),
        )

    def first_difference(self, better: int, worse: int) -> str | None:
        """The highest criterion on which the weight (or sum of weights) ``better`` beats
        ``worse`` (``"C4"`` for the completion field), ``""`` when they are equal on every
        criterion, ``None`` when ``worse`` is the better on the first that differs. A sum never
        spills from one field into the next, so each field is read on its own."""
        fields = self.fields()
        split_better: list[int] = []
        split_worse: list[int] = []
        for _, width in reversed(fields):
            mask = (1 << width) - 1
            split_better.append(better & mask)
            split_worse.append(worse & mask)
            better >>= width
            worse >>= width
        if better != worse:
            return "C4" if better > worse else None
        for (name, _), b, w in zip(
            fields, reversed(split_better), reversed(split_worse), strict=True
        ):
            if b != w:
                return name if b > w else None
        return ""


class Shared:
    """What one round's criteria build once and their copies share: C1's bit sets (``met``),
    the graph of allowed meetings (``graph``), each player's partner in the last maximum
    matching found for them in it (``mate``), from which the next is started
    (``completion``), and the colour fields of the pairs of colour states met so far
    (``colours``)."""

    __slots__ = ("colours", "graph", "mate", "met")

    def __init__(self) -> None:
        self.met: list[int] | None = None
        self.colours: dict[tuple[int, int], int] = {}
        """C10–C13 packed, by the two players' colour states (``Criteria.colour_state``)."""
        self.graph: list[int] | None = None
        self.mate: list[int] = []


class Criteria:
    """The criteria of one round over ``players`` (present players, in pairing order).

    Players are referred to by their index in ``players``. ``bye_score`` is the score the
    bye's assignee will have (C5; ``None`` when the number of players is even);
    ``played_ranks`` ranks the played games of the players of that score for C9;
    ``forbidden`` the players each may not be paired with besides those met (hard forbidden
    pairs, which C1 treats as met).
    """

    def __init__(
        self,
        players: Sequence[PlayerState],
        *,
        played_rounds: int,
        last_round: bool,
        top_line: Score,
        bye_score: Score | None,
        played_ranks: Mapping[int, int],
        forbidden: Mapping[PlayerId, frozenset[PlayerId]] | None = None,
    ) -> None:
        self.players = list(players)
        self.layout = Layout.of(players, played_rounds)
        self.bye_score = bye_score
        self.played_ranks = played_ranks
        apart = forbidden or {}
        self.opponents = [
            player.opponents | apart[player.id] if player.id in apart else player.opponents
            for player in players
        ]
        self.ids = [player.id for player in players]
        self.absolute_colour = [
            player.preference if player.absolute else None for player in players
        ]
        self.topscorer = [last_round and 2 * player.score > top_line for player in players]
        self.candidate = _candidates(self.players, bye_score)
        # What C10–C13 read of a player, numbered: a round has a few dozen such states.
        states: dict[tuple[object, ...], int] = {}
        self.colour_state = [
            states.setdefault(
                (p.preference, p.strength.value, p.imbalance, p.repeated), len(states)
            )
            for p in players
        ]
        self.shared = Shared()
        """What the round's copies of these criteria (``with_bye``, ``within``) share."""
        self.packed_floats: dict[tuple[object, ...], int] = {}
        """C14–C21 packed (``_float_fields``) by the pair's scores and floats: for this
        layout only, so a copy with another (``within``) starts its own."""

    def with_bye(self, bye_score: Score | None, played_ranks: Mapping[int, int]) -> Criteria:
        """These criteria once the bye's score is fixed (C5): the same players, meetings and
        colours (and C1's bit sets, built once a round), with C2/C5's candidates and C9's
        ranks of that score."""
        fixed = copy(self)
        fixed.bye_score = bye_score
        fixed.played_ranks = played_ranks
        fixed.candidate = _candidates(self.players, bye_score)
        return fixed

    def within(self, players: Sequence[int]) -> Criteria:
        """These criteria for a matching of ``players`` whose score fields count only pairs
        among ``players``, as a bracket's with the next scoregroup do (a pair with a player
        below them weighs only C4/C5 and C9). The score slots of the round's other scores are
        empty in every such weight, and a slot's sum never needs more than its players'
        number: both are left out, which changes no comparison (no slot carries into another)
        and shrinks the weights from a wide slot per scoregroup of the round to a few bits per
        score present, which the matching's arithmetic feels late in a long event."""
        narrow = copy(self)
        narrow.layout = self.layout.only([self.players[v] for v in players])
        narrow.packed_floats = {}
        return narrow

    # -- absolute criteria -----------------------------------------------------------------

    def allowed(self, a: int, b: int) -> bool:
        """C1 and C3: ``a`` and ``b`` may meet in this round."""
        return self.ids[b] not in self.opponents[a] and self.colours_allowed(a, b)

    def adjacency(self, vertices: Sequence[int], apart: Collection[int] = ()) -> list[int]:
        """The graph of ``allowed`` over ``vertices`` as bit sets: bit ``j`` of entry ``i`` is
        set when ``vertices[i]`` may meet ``vertices[j]``. Players of ``apart`` may not meet
        each other either (moved-down players, players sent down together).

        Built from the few things that forbid a meeting (C1's opponents, C3's two colours)
        rather than by asking ``allowed`` for every pair, which a field of thousands cannot
        afford.
        """
        head = len(apart)
        if 0 < head < len(vertices) and set(vertices[:head]) == set(apart):
            first = vertices[head]
            if list(vertices[head:]) == list(range(first, len(self.players))):
                return self._below(vertices[:head], first)
        everyone = (1 << len(vertices)) - 1
        clash = {colour: 0 for colour in self.absolute_colour if colour is not None}
        together = 0
        runs: list[list[int]] = []  # [first player, its bit, length]: runs of players in order
        for i, v in enumerate(vertices):
            colour = self.absolute_colour[v]
            if colour is not None and not self.topscorer[v]:
                clash[colour] |= 1 << i
            if v in apart:
                together |= 1 << i
            if runs and runs[-1][0] + runs[-1][2] == v:
                runs[-1][2] += 1
            else:
                runs.append([v, i, 1])
        few = max(_FEW_RUNS, self.layout.played_rounds // 2)
        met = self._met() if len(runs) <= few else None
        place = {self.ids[v]: i for i, v in enumerate(vertices)} if met is None else {}
        graph = []
        for i, v in enumerate(vertices):
            forbidden = 1 << i
            colour = self.absolute_colour[v]
            if colour is not None and not self.topscorer[v]:
                forbidden |= clash[colour]
            if together >> i & 1:
                forbidden |= together
            if met is not None:
                # The opponents as bit sets of players in order, moved run by run.
                for first, bit, length in runs:
                    forbidden |= (met[v] >> first & ((1 << length) - 1)) << bit
            else:
                for opponent in self.opponents[v]:
                    j = place.get(opponent)
                    if j is not None:
                        forbidden |= 1 << j
            graph.append(everyone & ~forbidden)
        return graph

    def graph(self) -> list[int]:
        """``adjacency`` of every player of the round, in order: built once a round (shared
        by the copies), for the questions asked of many sets of players in turn (C4)."""
        shared = self.shared
        if shared.graph is None:
            shared.graph = self.adjacency(range(len(self.players)))
        return shared.graph

    def _below(self, head: Sequence[int], first: int) -> list[int]:
        """``adjacency`` of ``head`` (players above ``first``, who may not meet each other)
        then every player from ``first`` on, as a bracket's matching over everybody below has
        them (its MDPs, then the rest of the round): read off the round's graph, each row
        shifted, and the head's bits set from the head's own rows (the graph is symmetric)."""
        graph = self.graph()
        shift = len(head)
        rows = [(graph[v] >> first) << shift for v in head]
        rest = [(graph[v] >> first) << shift for v in range(first, len(graph))]
        for k, v in enumerate(head):
            bit = 1 << k
            for j in members(graph[v] >> first):
                rest[j] |= bit
        return rows + rest

    def _met(self) -> list[int]:
        """C1 as bit sets over the players in order: bit ``j`` of entry ``v`` is set when
        ``v`` has met ``j``. Built once a round, on the first call (of any copy)."""
        shared = self.shared
        if shared.met is None:
            # Each opponent's bit (none for one who is not paired this round), summed: the
            # bits are distinct, and ``sum`` adds them without a Python step each.
            bit = {player_id: 1 << j for j, player_id in enumerate(self.ids)}
            shared.met = [sum(map(bit.get, opponents, repeat(0))) for opponents in self.opponents]
        return shared.met

    def colours_allowed(self, a: int, b: int) -> bool:
        """C3 alone: not two absolute preferences for the same colour, unless a topscorer
        meets in the last round (Art. 1.8)."""
        colour = self.absolute_colour[a]
        if colour is not None and colour is self.absolute_colour[b]:
            return self.topscorer[a] or self.topscorer[b]
        return True

    # -- quality criteria --------------------------------------------------------------------

    def completion(self, a: int, b: int) -> int:
        """C4/C5 field: 1, plus 1 for each player of the pair who could not take the bye."""
        return 1 + (not self.candidate[a]) + (not self.candidate[b])

    def quality(
        self,
        higher: int,
        lower: int,
        *,
        in_bracket: bool,
        in_next: bool,
        completion: bool,
        bye_games: bool,
    ) -> int:
        """The packed weight of the pair (``higher`` ranked above ``lower``), which
        ``allowed`` must permit.

        ``in_bracket``: both are in the bracket being paired (C6, C7, C10–C21 count);
        ``in_next``: ``lower`` is in the next bracket (C8 counts); ``completion``: the C4/C5
        field is set; ``bye_games``: C9 counts (the bracket that sends the bye down).
        """
        lay = self.layout
        if not (in_bracket or in_next or bye_games):
            # Only C4/C5 counts for a pair outside the bracket and the next one, the pairs that
            # fill most of a matching over everybody below.
            if not completion:
                return 0
            return self.completion(higher, lower) << lay.under_completion
        h, lo = self.players[higher], self.players[lower]
        count, scores = lay.count, lay.scores
        weight = self.completion(higher, lower) if completion else 0
        # (a pair below with C9 alone has no slot: ``within``)
        score = 1 << lay.slot[h.score] if in_bracket or in_next else 0
        # C6, C7: a pair in the bracket, and the score of its higher player.
        weight = (weight << count) | in_bracket
        weight = (weight << scores) | (score if in_bracket else 0)
        # C8: a pair in the next bracket, and the score of its higher player.
        weight = (weight << count) | in_next
        weight = (weight << scores) | (score if in_next else 0)
        # C9: the more games a player of the bye's score has played, the less pairing them
        # is worth, so the bye goes to the one who has played most.
        games = 0
        if bye_games:
            if h.score == self.bye_score:
                games += self.played_ranks[h.played_games]
            if lo.score == self.bye_score:
                games += self.played_ranks[lo.played_games]
        weight = (weight << (2 * count)) | games
        if not in_bracket:
            # C10–C21 count pairs in the bracket only: every field below is empty.
            return weight << (4 * count + lay.float_width)
        weight = (weight << (4 * count)) | self._colours(lower, higher)
        key = (h.score, lo.score, h.last_float, lo.last_float, h.float_before, lo.float_before)
        packed = self.packed_floats.get(key)
        if packed is None:
            packed = self.packed_floats[key] = _float_fields(h, lo, lay)
        return (weight << lay.float_width) | packed

    def _colours(self, p: int, o: int) -> int:
        """C10–C13 of ``_colour_fields(p, o)`` packed, each ``count`` bits wide: worked out
        once a round for each pair of colour states."""
        key = (self.colour_state[p], self.colour_state[o])
        cache = self.shared.colours
        packed = cache.get(key)
        if packed is None:
            packed = 0
            for met in _colour_fields(self.players[p], self.players[o]):
                packed = (packed << self.layout.count) | met
            cache[key] = packed
        return packed


def _candidates(players: Sequence[PlayerState], bye_score: Score | None) -> list[bool]:
    """C2 and C5: who may take the bye of score ``bye_score`` (nobody without a bye)."""
    return [
        bye_score is not None and player.bye_eligible and player.score <= bye_score
        for player in players
    ]


def _colour_fields(p: PlayerState, o: PlayerState) -> tuple[bool, bool, bool, bool]:
    """C10–C13 for a pair, each true when the criterion is met.

    C10: not two topscorers (or a topscorer and opponent) with colour differences beyond ±1
    that prefer the same colour. C11: not the same colour three times in a row for the one who
    would have to give way. C12: the preferences can both be met. C13: the strong preferences
    can both be met (an absolute one counts as strong, unless both are absolute).
    """
    same = p.preference is not None and p.preference is o.preference
    c10 = not (same and p.imbalance > 1 and o.imbalance > 1)
    if not (same and p.absolute and o.absolute):
        c11 = True
    elif p.imbalance == o.imbalance:
        c11 = p.repeated is None or p.repeated is not o.repeated
    else:
        yielding = o if p.imbalance > o.imbalance else p
        c11 = p.preference is None or yielding.repeated is not p.preference.other
    c12 = not same
    p_strong = p.strength in (Strength.STRONG, Strength.ABSOLUTE)
    o_strong = o.strength in (Strength.STRONG, Strength.ABSOLUTE)
    c13 = not (same and p_strong and o_strong and not (p.absolute and o.absolute))
    return c10, c11, c12, c13


def _float_fields(h: PlayerState, lo: PlayerState, lay: Layout) -> int:
    """C14–C21 of a pair in the bracket, ``lay.float_width`` bits: downfloaters and upfloaters
    repeated from one and two rounds before.

    Counted fields first (C14–C17), then the same weighted by score (C18–C21). A player who
    downfloated and is paired with an equal score does not float again; a lower player who
    upfloated and meets a higher score floats up again.
    """
    count, scores = lay.count, lay.scores
    both = ((h.last_float, lo.last_float), (h.float_before, lo.float_before))
    floats = both[: min(2, lay.played_rounds)]
    higher = h.score > lo.score
    weight = 0
    for hf, lf in floats:
        down = (lf is Float.DOWN) + (not higher and hf is Float.DOWN)
        up = not (higher and lf is Float.UP)
        weight = (((weight << count) | down) << count) | up
    for hf, lf in floats:
        down = ((lf is Float.DOWN) << lay.slot[lo.score]) + (
            (hf is Float.DOWN) << lay.slot[h.score]
        )
        up_score = 0 if lf is Float.UP and higher else 1 << lay.slot[h.score]
        weight = (((weight << scores) | down) << scores) | up_score
    return weight
