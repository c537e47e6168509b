"""A TRF read as a ``dutch`` tournament (``app.domain.trf_import``), and written back."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import InvalidTrf, PairingImpossible, TooFewPlayers
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.trf import (
    TrfDocument,
    TrfPlayer,
    TrfResult,
    TrfTag,
    read_trf,
    write_trf,
)
from app.domain.trf_export import export_trf
from app.domain.trf_import import decode_trf, import_trf
from app.domain.types import (
    ByeKind,
    Forfeit,
    InitialColour,
    PairingSystem,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Score,
)
from tests.domain.dutch_reference import (
    GOLDEN_PARAMS,
    REGRESSIONS,
    document,
    round_result,
    rounds,
)
from tests.domain.test_pairing_dutch_golden import REGRESSION_ROUNDS


def round_trip(doc: TrfDocument) -> TrfDocument:
    imported = import_trf(doc, seed=1)
    return read_trf(write_trf(export_trf(imported.tournament, name=imported.name)))


@pytest.mark.parametrize("name", GOLDEN_PARAMS)
def test_every_reference_file_comes_back_with_its_players_results_colours_and_byes(
    name: str,
) -> None:
    """Everything but the ranks (the file's are by points then number; Svizzera's by points
    then its tiebreak) and two tags the export adds: 142 (rounds) and 152 (initial colour)."""
    original = document(name)
    back = round_trip(original)
    assert [replace(p, rank=None) for p in back.players] == [
        replace(p, rank=None) for p in original.players
    ]
    assert back.name == original.name
    assert back.pairing_system == original.pairing_system == "FIDE_DUTCH_2025"
    assert back.total_rounds == original.rounds_played
    added = {r for r in back.records if not isinstance(r, TrfPlayer)} - set(original.records)
    assert {r.code for r in added if isinstance(r, TrfTag)} == {"142", "152"}


def upcoming(name: str, number: int) -> TrfDocument:
    """Rounds 1..number−1 of a reference file, the byes asked for round ``number`` as its
    blocks (as pairing programs read them), the total rounds and the initial colour."""
    original = document(name)
    records: list[TrfPlayer | TrfTag] = []
    for player in original.players:
        games = list(player.games[: number - 1])
        nxt = player.games[number - 1]
        if (
            nxt is not None
            and nxt.opponent is None
            and nxt.result is not TrfResult.PAIRING_ALLOCATED_BYE
        ):
            games.append(nxt)
        records.append(replace(player, games=tuple(games)))
    first = min(
        (p for p in original.players if p.games[0] and p.games[0].opponent),
        key=lambda p: p.start_number,
    ).games[0]
    assert first is not None
    colour = first.colour.value.upper()
    records += [TrfTag("142", str(rounds(name))), TrfTag("152", colour)]
    return TrfDocument((TrfTag("012", original.name), *records))


@pytest.mark.parametrize("name", GOLDEN_PARAMS)
def test_an_imported_history_pairs_the_next_round_as_the_reference(name: str) -> None:
    wrong = []
    for number in range(1, rounds(name) + 1):
        tournament = import_trf(upcoming(name, number), seed=1).tournament
        swiss_round = tournament.generate_round()
        start = {pid: p.start_number for pid, p in tournament.players.items()}
        boards = {(start[m.home], start[m.away]) for m in tournament.round_matches(number)}
        byes = [start[pid] for pid in swiss_round.byes]
        want_boards, want_bye = round_result(name, number)
        if boards != {(b.white, b.black) for b in want_boards} or byes != (
            [want_bye] if want_bye is not None else []
        ):
            wrong.append(number)
    assert wrong == []


@pytest.mark.parametrize("name", sorted(REGRESSION_ROUNDS))
def test_an_imported_regression_pairs_its_next_round_as_the_reference(name: str) -> None:
    """The files of ``regressions/`` (exported by the service, cut before a round) import, and
    the tournament pairs that round as bbpPairings did (the README's pairings)."""
    number, boards, bye = REGRESSION_ROUNDS[name]
    tournament = import_trf(read_trf((REGRESSIONS / name).read_text()), seed=1).tournament
    assert tournament.current_round == number - 1
    swiss_round = tournament.generate_round()
    start = {pid: p.start_number for pid, p in tournament.players.items()}
    assert [(start[m.home], start[m.away]) for m in tournament.round_matches(number)] == boards
    assert [start[pid] for pid in swiss_round.byes] == [bye]


def three_players(*lines: str) -> TrfDocument:
    return read_trf(
        "\r".join(
            [
                "012 Club",
                "001    1 m GM Ada                               2500 ITA    12345678",
                "001    2      Bo                                1900",
                "001    3      Cy",
                *lines,
            ]
        )
    )


def test_titles_fide_numbers_byes_to_come_and_the_points_table() -> None:
    doc = three_players("142 3", "152 B", "162  W 3.0    D 1.0    L 0.0    P 2.0", "240 H 002    2")
    t = import_trf(doc, seed=5).tournament
    ada, bo = t.players[PlayerId(1)], t.players[PlayerId(2)]
    assert (ada.title, ada.fide_id, ada.rating) == ("GM", 12345678, 2500)
    assert bo.requested_byes[0].kind is ByeKind.HALF_POINT and bo.requested_byes[0].round == 2
    assert t.settings.points == PointsTable(Score(6), Score(2), Score(0), Score(4))
    assert t.settings.initial_colour is InitialColour.BLACK
    assert t.settings.pairing is PairingSystem.DUTCH and t.settings.seed == 5
    assert t.format.swiss_rounds == 3 and t.current_round == 0


@pytest.mark.parametrize(
    ("lines", "line", "column", "reason"),
    [
        (["142 3", "240 X 002    2"], 6, 5, "the bye type is F, H or Z"),
        (["142 3", "240 H 004    2"], 6, 7, "round 4 is not one of the 3 rounds"),
        (["142 3", "240 H 002    7"], 6, 14, "no player with starting rank 7"),
        (["142 3", "240 H 002"], 6, 5, "240 takes a bye type, a round and players"),
        (["142 3", "162  W 3.0    Q 1.0"], 6, 15, "unknown result code 'Q'"),
        (["142 3", "162  A 1.0"], 6, 6, "an absence (A) scores nothing here"),
        (["142 3", "162  W 150"], 6, 6, "a result is worth at most 100 points"),
        (["142 5"], 5, 5, "`swiss_rounds` must be 1 to 3 for 3 players"),
    ],
)
def test_what_a_tournament_cannot_hold_is_placed(
    lines: list[str], line: int, column: int, reason: str
) -> None:
    with pytest.raises(InvalidTrf) as refused:
        import_trf(three_players(*lines), seed=1)
    assert (refused.value.line, refused.value.column) == (line, column)
    assert refused.value.reason.startswith(reason), refused.value.reason


def test_an_unknown_title_is_refused() -> None:
    with pytest.raises(InvalidTrf) as refused:
        import_trf(read_trf("012 Club\r142 1\r001    1   XX Ada\r001    2      Bo\r"), seed=1)
    assert (refused.value.line, refused.value.column) == (3, 11)


def _record(number: int, name: str, points: str, rank: int, block: str) -> str:
    """A ``001`` record: columns 5–8 the number, 15–47 the name, 81–84 points, 86–89 rank."""
    return f"001 {number:4d}{'':6}{name:<33}{'':33}{points:>4} {rank:4d}  {block}"


DOUBLE_FORFEIT = "\r".join(
    [
        "012 Club",
        "092 FIDE_DUTCH_2025",
        "142 3",
        "152 W",
        _record(1, "Ada", "0.0", 3, "   3 w -"),
        _record(2, "Bo", "1.0", 1, "   4 w 1"),
        _record(3, "Cy", "0.0", 4, "   1 b -"),
        _record(4, "Di", "0.0", 2, "   2 b 0"),
        "",
    ]
)
"""Round 1 of three: neither Ada (White) nor Cy came (``-`` against ``-``)."""


def test_a_double_forfeit_is_a_match_lost_by_both_and_written_back_the_same() -> None:
    imported = import_trf(read_trf(DOUBLE_FORFEIT), seed=1).tournament
    forfeited, played = imported.round_matches(1)
    assert (forfeited.home, forfeited.away) == (PlayerId(1), PlayerId(3))
    assert forfeited.result == Result(0, 0, forfeit=Forfeit.BOTH)
    assert played.result == Result(1, 0)
    rows = {row.player_id: row for row in imported.standings()}
    assert [(rows[p].points, rows[p].played, rows[p].losses) for p in (1, 3)] == [(0, 1, 1)] * 2
    assert write_trf(export_trf(imported, name="Club")) == DOUBLE_FORFEIT


def test_a_double_forfeit_without_colours_puts_the_higher_ranked_player_at_home() -> None:
    text = DOUBLE_FORFEIT.replace("3 w -", "3 - -").replace("1 b -", "1 - -")
    (forfeited, _) = import_trf(read_trf(text), seed=1).tournament.round_matches(1)
    assert (forfeited.home, forfeited.away) == (PlayerId(1), PlayerId(3))
    assert forfeited.result == Result(0, 0, forfeit=Forfeit.BOTH)


def test_decoding_places_bytes_that_are_not_utf8() -> None:
    assert decode_trf("\ufeff012 Caffè\r".encode()) == "012 Caffè\r"
    with pytest.raises(InvalidTrf) as refused:
        decode_trf(b"012 Club\r\n012 Caf\xe8\r")
    assert (refused.value.line, refused.value.column) == (2, 8)


# -- any tournament Svizzera holds comes back -------------------------------------------------

results = st.sampled_from(
    [
        Result(1, 0),
        Result(0, 1),
        Result(0, 0),
        Result(0, 0, forfeit=Forfeit.HOME),
        Result(0, 0, forfeit=Forfeit.AWAY),
        Result(0, 0, forfeit=Forfeit.BOTH),
    ]
)


@st.composite
def chess_tournaments(draw: st.DrawFn) -> Tournament:
    """A ``dutch`` tournament played some rounds with any results, byes asked for (some for
    rounds to come), withdrawals; its latest round maybe still being played."""
    count = draw(st.integers(3, 9))
    total = draw(st.integers(1, count - 1 if count % 2 == 0 else count))
    t = Tournament.create(
        Settings(seed=draw(st.integers(0, 99)), pairing=PairingSystem.DUTCH, swiss_rounds=total),
        [NewPlayer(f"P{i}", 1000 + 10 * draw(st.integers(0, 50))) for i in range(count)],
    )
    played = draw(st.integers(0, total))
    for number in range(1, played + 1):
        for pid in list(t.players):
            if t.players[pid].withdrawn:
                continue
            action = draw(st.sampled_from(["play", "play", "play", "half", "zero", "withdraw"]))
            if action in ("half", "zero"):
                later = RoundNumber(draw(st.integers(number, total)))
                kind = ByeKind.HALF_POINT if action == "half" else ByeKind.ZERO_POINT
                t.request_bye(pid, later, kind)
            elif action == "withdraw" and t.rounds:
                t.withdraw_player(pid)
        try:
            t.generate_round()
        except (TooFewPlayers, PairingImpossible):
            break
        matches = t.round_matches(number)
        unplayed = draw(st.integers(0, len(matches))) if number == played else 0
        for match in matches[unplayed:]:
            t.record_result(match.id, draw(results))
    return t


@settings(max_examples=60, deadline=None)
@given(chess_tournaments())
def test_an_exported_tournament_imports_to_the_same_file(t: Tournament) -> None:
    first = export_trf(t, name="Any")
    again = import_trf(read_trf(write_trf(first)), seed=t.settings.seed)
    second = export_trf(again.tournament, name=again.name)
    assert [r for r in second.records if r not in first.records] == []
    assert second == first
