"""Maximum matchings in the graph of unplayed pairs: the exact test behind every pairing search.

"Can the players left still be paired without a rematch?" is the question a search in order
must answer at each step to never enter a dead branch. It is a perfect-matching question, and
Edmonds' blossom algorithm answers it in polynomial time. ``Matching`` keeps one maximum matching
of the players still free and updates it as the search pairs players off, so a step costs at
most two alternating-path searches, usually none: the matching starts as the greedy pairing in
order, which is what the search tries first, and the searches label the bottom of the order
first, so the paths they flip leave the pairs about to be taken at the top as they are.

Players are indices ``0..n-1``; ``adjacency[v]`` is the bit set of the players ``v`` may meet.

Gallai–Edmonds: with a maximum matching, the vertices reachable from an exposed vertex by an
alternating path of even length are exactly those some maximum matching leaves exposed. So when
``p``'s partner ``p'`` is freed, the players ``q`` with ``G - p - q`` still perfectly matchable
are ``p``'s neighbours among the even vertices of the search from ``p'`` (``partners``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress

from app.domain.deadline import NO_DEADLINE, Deadline


def bits(mask: int) -> Iterator[int]:
    """The members of a bit set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_DIGITS = bytes.maketrans(b"01", b"\x00\x01")


def members(mask: int) -> list[int]:
    """``list(bits(mask))``. A dense set (more than one bit in ten set: a player's possible
    opponents, everybody below a bracket) is read off its binary digits in one pass of C
    instead of bit by bit: two to four times faster on a few hundred players."""
    if mask.bit_count() * 10 <= mask.bit_length():
        return list(bits(mask))
    digits = bin(mask).encode()[:1:-1].translate(_DIGITS)
    return list(compress(range(len(digits)), digits))


def mask(players: Iterable[int]) -> int:
    """The bit set of ``players`` (the inverse of ``bits``)."""
    found = 0
    for v in players:
        found |= 1 << v
    return found


def component(graph: Sequence[int], start: int) -> int:
    """The players of ``graph`` (bit sets of neighbours) connected to the lowest of ``start``."""
    seen = frontier = start & -start
    while frontier:
        reach = 0
        for v in bits(frontier):
            reach |= graph[v]
        frontier = reach & ~seen
        seen |= frontier
    return seen


def lowest(mask: int) -> int:
    """The lowest member of a non-empty bit set."""
    return (mask & -mask).bit_length() - 1


class Matching:
    """A maximum matching of the players in ``free``, kept up to date by ``pair``/``unpair``.

    ``mate[v]`` is ``v``'s partner (``-1``: none); ``exposed`` the free players left unpaired.
    ``start``: an earlier matching's ``mate`` over the same players (of other free players,
    or of a graph with more edges): its pairs that still may be made are taken first, so a
    set close to the earlier one needs few searches. The matching found is maximum whatever
    the start.

    ``until_left``: stop as soon as more than this many free players are certain to be left
    unpaired by every maximum matching (a question of "can all but so many be paired?"); the
    matching is then not maximum, ``exposed`` holds those players and the ones not yet
    searched from, and ``short`` is true.
    """

    def __init__(
        self,
        adjacency: Sequence[int],
        free: int,
        *,
        deadline: Deadline = NO_DEADLINE,
        start: Sequence[int] = (),
        until_left: int | None = None,
    ) -> None:
        self._adjacency = adjacency
        self._deadline = deadline
        deadline.check()
        self.free = free
        self.mate = [-1] * len(adjacency)
        self.exposed = 0
        """The free players the matching leaves unpaired."""
        self._tree: tuple[int, list[int]] | None = None
        """The parent links of ``partners``' last search, for the ``pair`` that follows it."""
        mate = self.mate
        # The pairs of ``start`` (an earlier matching's ``mate``) among the free players that
        # may meet first, when given; then greedy in order: the search in order takes these
        # pairs when it can.
        unmatched = free
        if start:
            for v in members(free):
                u = start[v]
                if u > v and unmatched >> v & 1 and unmatched >> u & 1 and adjacency[v] >> u & 1:
                    unmatched &= ~((1 << v) | (1 << u))
                    mate[v], mate[u] = u, v
        for v in members(free):
            if unmatched >> v & 1:
                unmatched &= ~(1 << v)
                options = adjacency[v] & unmatched
                if options:
                    u = lowest(options)
                    unmatched &= ~(1 << u)
                    mate[v], mate[u] = u, v
                else:
                    self.exposed |= 1 << v
        self.greedy = self.exposed == 0
        """Whether the greedy pairing in order was already perfect (no search was needed)."""
        # A search that finds no augmenting path leaves a Hungarian tree: no augmenting path
        # found later passes through it (Edmonds), so the later searches leave it out, and its
        # root stays unpaired.
        self.short = False
        """Whether the search stopped at ``until_left`` players certain to be left."""
        searchable = free
        left = 0
        roots = list(bits(self.exposed))
        if until_left is not None:
            # From the bottom of the order, where the players who may meet fewest are (late
            # in an event, the lowest scores): a search that fails there ends it soonest.
            roots.reverse()
        for root in roots:
            if self.exposed >> root & 1:
                self.free = searchable
                tree = self._search(root)
                if tree is not None:
                    searchable &= ~tree.reached
                    left += 1
                    if until_left is not None and left > until_left:
                        self.short = True
                        break
        self.free = free

    @property
    def perfect(self) -> bool:
        return self.exposed == 0

    def left_out_by_some(self) -> int:
        """The free players some maximum matching leaves unpaired (Gallai–Edmonds' ``D``).

        With an odd number of players and one of them exposed, these are the players whose
        bye leaves the others perfectly matchable.
        """
        if not self.exposed:
            return 0
        # One search from all of them at once (a forest): two of its trees never meet, as
        # that would be an augmenting path.
        root = lowest(self.exposed)
        tree = self._search(root, also=self.exposed & ~(1 << root))
        if tree is None:  # an augmenting path: impossible, the matching is maximum
            raise AssertionError("the matching was not maximum")
        return tree.even

    def try_pair(self, p: int, q: int) -> bool:
        """Pair ``p`` with ``q`` if the other free players can still all be paired.

        Otherwise change nothing and return ``False``. Needs a perfect matching.
        """
        self._tree = None
        mate = self.mate
        a, b = mate[p], mate[q]
        self.free &= ~((1 << p) | (1 << q))
        mate[p], mate[q] = q, p
        if a == q:
            return True
        if self._adjacency[a] >> b & 1:
            mate[a], mate[b] = b, a
            return True
        mate[a] = mate[b] = -1
        self.exposed |= (1 << a) | (1 << b)
        if self._search(a) is None:
            return True
        self.exposed &= ~((1 << a) | (1 << b))
        mate[p], mate[q], mate[a], mate[b] = a, b, p, q
        self.free |= (1 << p) | (1 << q)
        return False

    def partners(self, p: int) -> int:
        """The players ``q`` such that the free players but ``p`` and ``q`` can all be paired.

        Needs a perfect matching; ``p`` must be free. One search from ``p``'s partner in the
        graph without ``p``: its even players are the ones that can be left over.
        """
        return self._adjacency[p] & self.free & self._search_without(p).even

    def first_partner(self, p: int, *, highest: bool = False) -> tuple[int, int | None]:
        """The lowest (or highest) of ``partners(p)``, and all of them if they were listed.

        The search stops as soon as the lowest (highest) free neighbour of ``p`` is found even:
        a player once even stays even, so it is the answer, and the others are not listed
        (``None``). Otherwise it runs to the end as ``partners`` does. Needs a perfect matching.
        """
        candidates = self._adjacency[p] & self.free
        watch = 1 << (candidates.bit_length() - 1) if highest else candidates & -candidates
        tree = self._search_without(p, watch=watch)
        if tree.even & watch:
            return watch.bit_length() - 1, None
        options = candidates & tree.even  # never empty: p's partner is one
        return (options.bit_length() - 1 if highest else lowest(options)), options

    def _search_without(self, p: int, *, watch: int = 0) -> _Tree:
        """One search from ``p``'s partner in the graph without ``p`` (kept for ``pair``).

        Needs a perfect matching: its even players are the ones that can be left over.
        """
        mate = self.mate
        root = mate[p]
        self.free &= ~(1 << p)
        mate[root] = -1
        self.exposed |= 1 << root
        tree = self._search(root, watch=watch)
        self.exposed &= ~(1 << root)
        mate[root] = p
        self.free |= 1 << p
        if tree is None:  # an augmenting path: impossible with a perfect matching
            raise AssertionError("the matching was not perfect")
        self._tree = (p, tree.parent)
        return tree

    def pair(self, p: int, q: int) -> None:
        """Pair ``p`` with ``q``, one of ``partners(p)``: the matching stays perfect.

        Right after ``partners(p)`` this flips the even path from ``q`` to ``p``'s partner in
        that search's tree (``q`` is left over, the partner is paired), with no new search.
        """
        if self._tree is None or self._tree[0] != p:
            if not self.try_pair(p, q):
                raise AssertionError(f"{q} is not a partner of {p}")
            return
        parent = self._tree[1]
        self._tree = None
        mate = self.mate
        root = mate[p]
        self.free &= ~((1 << p) | (1 << q))
        if q != root:
            odd = mate[q]
            while True:
                even = parent[odd]
                following = mate[even]
                mate[odd], mate[even] = even, odd
                if even == root:
                    break
                odd = following
        mate[p], mate[q] = q, p

    def rematch(self, p: int) -> bool:
        """``p``'s edge to its partner has just left the graph: pair both anew if the free
        players can still all be paired, or change nothing and return ``False``."""
        self._tree = None
        mate = self.mate
        q = mate[p]
        mate[p] = mate[q] = -1
        self.exposed |= (1 << p) | (1 << q)
        if self._search(p) is None:
            return True
        self.exposed &= ~((1 << p) | (1 << q))
        mate[p], mate[q] = q, p
        return False

    def unpair(self, p: int, q: int) -> None:
        """Give back ``p`` and ``q`` (paired together): the matching stays maximum."""
        self._tree = None
        self.free |= (1 << p) | (1 << q)
        self.mate[p], self.mate[q] = q, p

    def _search(self, root: int, *, watch: int = 0, also: int = 0) -> _Tree | None:
        """Edmonds' search from the exposed ``root`` over the free players.

        If it reaches another exposed player, flip the path (both become matched) and return
        ``None``; otherwise return the search tree: its even players (blossoms included) and
        the parent links that lead from each of them back to ``root``. With ``watch``, stop
        early once a player in it is even (the tree so far: its links are complete for every
        player already even, as an augmenting path could be flipped at any step). ``also``:
        more exposed players to grow trees from at once, with a maximum matching only (no
        augmenting path between two trees is looked for).
        """
        self._deadline.check()
        adjacency, mate, free = self._adjacency, self.mate, self.free
        size = len(adjacency)
        parent = [-1] * size
        link = list(range(size))
        """Union-find over blossoms: ``_find(link, v)`` is the base of ``v``'s blossom."""
        members: dict[int, int] = {}
        outer = (1 << root) | also
        targets = self.exposed & ~outer
        inner = 0
        queue = [root, *bits(also)]
        for v in queue:
            if outer & watch:
                break
            reach = adjacency[v] & free & ~inner
            hit = reach & targets
            if hit:
                to = lowest(hit)
                parent[to] = v
                self._flip(to, parent)
                self.exposed &= ~((1 << root) | (1 << to))
                return None
            unlabeled = reach & ~outer
            while unlabeled:
                # Highest first: a path through the bottom of the order leaves the pairs the
                # search in order is about to take (at the top) as they are.
                to = unlabeled.bit_length() - 1
                parent[to] = v
                m = mate[to]
                hit = adjacency[m] & free & targets
                if hit:  # m is even now, and next to an exposed player: augment at once
                    end = lowest(hit)
                    parent[end] = m
                    self._flip(end, parent)
                    self.exposed &= ~((1 << root) | (1 << end))
                    return None
                inner |= 1 << to
                outer |= 1 << m
                queue.append(m)
                unlabeled &= ~((1 << to) | (1 << m))
            here = _find(link, v)
            others = reach & outer & ~members.get(here, 1 << here)
            while others:
                to = lowest(others)
                there = _find(link, to)
                if there != here:
                    top = _common_base(here, there, link, mate, parent)
                    cycle = _mark_path(v, top, to, link, mate, parent)
                    cycle |= _mark_path(to, top, v, link, mate, parent)
                    blossom = members.pop(top, 1 << top)
                    for b in bits(cycle & ~(1 << top)):
                        blossom |= members.pop(b, 1 << b)
                        link[b] = top
                    members[top] = blossom
                    new = blossom & ~outer
                    outer |= new
                    inner &= ~new
                    queue.extend(bits(new))
                    here = top
                others &= ~members.get(here, 1 << here) & ~(1 << to)
        return _Tree(outer, parent, outer | inner)

    def _flip(self, end: int, parent: list[int]) -> None:
        mate = self.mate
        while end != -1:
            previous = parent[end]
            following = mate[previous]
            mate[end], mate[previous] = previous, end
            end = following


@dataclass(frozen=True, slots=True)
class _Tree:
    even: int
    parent: list[int]
    reached: int
    """Every player the search labelled, even or odd."""


def _find(link: list[int], v: int) -> int:
    while link[v] != v:
        link[v] = link[link[v]]
        v = link[v]
    return v


def _common_base(a: int, b: int, link: list[int], mate: list[int], parent: list[int]) -> int:
    """The base of the blossom that closes when bases ``a`` and ``b`` meet: their lowest common
    ancestor in the tree."""
    seen = 0
    while True:
        seen |= 1 << a
        if mate[a] == -1:
            break
        a = _find(link, parent[mate[a]])
    while not seen >> b & 1:
        b = _find(link, parent[mate[b]])
    return b


def _mark_path(
    v: int, top: int, child: int, link: list[int], mate: list[int], parent: list[int]
) -> int:
    """Set the parents along one side of a new blossom; return the bases on that side."""
    cycle = 0
    while (here := _find(link, v)) != top:
        cycle |= (1 << here) | (1 << _find(link, mate[v]))
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]
    return cycle
