"""The TRF reader and writer: every reference file round-trips byte for byte, fields land in the
right columns, and each kind of bad line is refused with its line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import InvalidTrf
from app.domain.trf import (
    TrfColour,
    TrfDocument,
    TrfGame,
    TrfNote,
    TrfPlayer,
    TrfResult,
    TrfTag,
    read_trf,
    write_trf,
)
from app.domain.types import Score
from tests.data import DUTCH, DUTCH_FILES, read_text

W, B, NO = TrfColour.WHITE, TrfColour.BLACK, TrfColour.NONE


def test_the_reference_files_are_all_there() -> None:
    assert len(DUTCH_FILES) == 45


@pytest.mark.parametrize("path", DUTCH_FILES, ids=lambda p: p.stem)
def test_every_reference_file_round_trips_byte_for_byte(path: Path) -> None:
    text = read_text(path)
    document = read_trf(text)
    written = write_trf(document)
    assert written == text  # the files end their lines with CR, as the writer does
    assert read_trf(written) == document


def test_line_endings_lf_and_crlf_read_the_same() -> None:
    text = read_text(DUTCH / "dutch_p0008_r05_s101.trf")
    document = read_trf(text)
    assert read_trf(text.replace("\r", "\n")) == document
    assert read_trf(text.replace("\r", "\r\n")) == document


def test_a_player_record_and_its_rounds() -> None:
    document = read_trf(read_text(DUTCH / "dutch_p0016_r07_s101.trf"))
    assert document.name == "AutoTest Tournament 101"
    assert document.pairing_system == "FIDE_DUTCH_2025"
    assert document.total_rounds is None and document.initial_colour is None
    assert document.rounds_played == 7
    assert len(document.players) == 16
    first = document.players[0]
    assert first == TrfPlayer(
        start_number=1,
        name="Test0001 Player0001",
        rating=2630,
        points=Score(10),
        rank=2,
        games=(
            TrfGame(9, W, TrfResult.WIN),
            TrfGame(6, B, TrfResult.DRAW),
            TrfGame(4, W, TrfResult.DRAW),
            TrfGame(5, B, TrfResult.WIN),
            TrfGame(2, W, TrfResult.FORFEIT_LOSS),
            TrfGame(3, B, TrfResult.WIN),
            TrfGame(8, W, TrfResult.WIN),
        ),
    )
    assert document.players[15].points == Score(1)  # "0.5"
    # the blank line before the 092 tag is kept
    assert document.records[-2:] == (TrfNote(""), TrfTag("092", "FIDE_DUTCH_2025"))


def test_byes_read_as_their_codes() -> None:
    document = read_trf(read_text(DUTCH / "dutch_p0031_r09_s101.trf"))
    by_number = {p.start_number: p for p in document.players}
    assert by_number[31].games[0] == TrfGame(None, NO, TrfResult.PAIRING_ALLOCATED_BYE)
    results = {g.result for p in document.players for g in p.games if g is not None}
    assert TrfResult.PAIRING_ALLOCATED_BYE in results
    all_codes = {
        g.result
        for path in DUTCH_FILES
        for p in read_trf(read_text(path)).players
        for g in p.games
        if g is not None
    }
    assert {TrfResult.HALF_POINT_BYE, TrfResult.ZERO_POINT_BYE, TrfResult.FORFEIT_WIN} <= all_codes


def _player_line(number: int, blocks: str, *, points: str = "1.0") -> str:
    head = f"001 {number:>4}      {'Name ' + str(number):<33} 2000 {'':<3} {'':>11} {'':<10} "
    return f"{head}{points:>4} {number:>4}  {blocks}"


TWO_PLAYERS = "\n".join(
    ["012 Two", _player_line(1, "   2 w 1"), _player_line(2, "   1 b 0", points="0.0")]
)


def test_a_hand_written_file_reads() -> None:
    document = read_trf(TWO_PLAYERS)
    assert [p.games for p in document.players] == [
        (TrfGame(2, W, TrfResult.WIN),),
        (TrfGame(1, B, TrfResult.LOSS),),
    ]
    assert write_trf(document) == TWO_PLAYERS.replace("\n", "\r") + "\r"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["142 9"], (9, None)),
        (["XXR 7", "XXC white1"], (7, W)),
        (["XXC rank black1"], (None, B)),
        (["XXC rank"], (None, None)),
        (["152 b", "142 5"], (5, B)),
    ],
)
def test_rounds_and_initial_colour_tags(
    lines: list[str], expected: tuple[int | None, TrfColour | None]
) -> None:
    document = read_trf("\n".join([TWO_PLAYERS, *lines]))
    assert (document.total_rounds, document.initial_colour) == expected


def test_old_style_byes_and_blank_blocks_are_readable() -> None:
    text = "\n".join(
        [
            _player_line(1, "0000 - +            0000 - =  0000 - -  0000   ", points="1.5"),
            _player_line(2, "0000 - h  0000 - F", points="1.5"),
        ]
    )
    first, second = read_trf(text).players
    assert first.games == (
        TrfGame(None, NO, TrfResult.FORFEIT_WIN),
        None,  # a blank block: no entry for the round
        TrfGame(None, NO, TrfResult.DRAW),
        TrfGame(None, NO, TrfResult.FORFEIT_LOSS),
        TrfGame(None, NO, TrfResult.ZERO_POINT_BYE),  # blank result reads as Z
    )
    assert second.games[0] == TrfGame(None, NO, TrfResult.HALF_POINT_BYE)  # case-insensitive
    assert read_trf(write_trf(read_trf(text))) == read_trf(text)


def test_double_forfeit_is_accepted() -> None:
    text = "\n".join([_player_line(1, "   2 w -"), _player_line(2, "   1 b -")])
    results = [p.games[0].result for p in read_trf(text).players if p.games[0]]
    assert results == [TrfResult.FORFEIT_LOSS, TrfResult.FORFEIT_LOSS]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("012 Name\n1", 2, 2, "3-character code"),
        ("012Name", 1, 4, "3-character code"),
        ("001 abcd", 1, 5, "starting rank"),
        ("001    0", 1, 5, "starting rank"),
        ("001", 1, 5, "starting rank is missing"),
        (_player_line(1, "").replace("Name 1 ", "Name 1" + "x" * 28), 1, 48, "blank"),
        (_player_line(1, "").replace(" 2000 ", " 20x0 "), 1, 49, "rating"),
        (_player_line(1, "", points="1.3"), 1, 81, "points"),
        (_player_line(1, "   2 x 1"), 1, 97, "colour"),
        (_player_line(1, "   2 w 7"), 1, 99, "result"),
        (_player_line(1, "   2 w  1"), 1, 100, "blank"),
        (_player_line(1, "   2 w 1 x"), 1, 101, "blank"),
        (_player_line(1, "  2w 1"), 1, 92, "opponent"),
        (_player_line(1, "0000 - 1"), 1, 92, "needs an opponent"),
        (_player_line(1, "   2 w U"), 1, 92, "bye"),
        (_player_line(1, "   2 - 1"), 1, 97, "colour w or b"),
        (_player_line(1, "") + "\n" + _player_line(1, ""), 2, 5, "repeated"),
        (_player_line(1, "   3 w 1"), 1, 92, "no player with starting rank 3"),
        (_player_line(1, "   1 w 1"), 1, 92, "themselves"),
        (
            "012 X\n" + _player_line(1, "   2 w 1") + "\n" + _player_line(2, "0000 - Z"),
            2,
            92,
            "does not name 1",
        ),
        (_player_line(1, "   2 w 1") + "\n" + _player_line(2, "   1 w 0"), 1, 97, "colours"),
        (_player_line(1, "   2 w 1") + "\n" + _player_line(2, "   1 b ="), 1, 99, "match"),
        (TWO_PLAYERS + "\nXXR nine", 4, 5, "number of rounds"),
        (TWO_PLAYERS + "\n142 0", 4, 5, "number of rounds"),
        (TWO_PLAYERS + "\n152 X", 4, 5, "W or B"),
        (TWO_PLAYERS + "\nXXC green", 4, 5, "white1"),
        ("012 Bell\x07", 1, 9, "control character"),
    ],
)
def test_bad_lines_are_refused_with_line_and_column(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(InvalidTrf) as caught:
        read_trf(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert words in caught.value.reason
    assert str(caught.value).startswith(f"line {line}, column {column}: ")
    assert caught.value.code == "invalid_trf"


@st.composite
def documents(draw: st.DrawFn) -> TrfDocument:
    """Consistent random documents: whole rounds of games, byes and blanks between them."""
    count = draw(st.integers(1, 12))
    rounds = draw(st.integers(0, 6))
    games: list[list[TrfGame | None]] = [[] for _ in range(count)]
    for _ in range(rounds):
        order = draw(st.permutations(range(count)))
        pairs = len(order) // 2 - draw(st.integers(0, len(order) // 2))
        for a, b in zip(order[: 2 * pairs : 2], order[1 : 2 * pairs : 2], strict=True):
            result = draw(st.sampled_from([TrfResult.WIN, TrfResult.DRAW, TrfResult.FORFEIT_WIN]))
            mirror = {TrfResult.WIN: TrfResult.LOSS, TrfResult.FORFEIT_WIN: TrfResult.FORFEIT_LOSS}
            games[a].append(TrfGame(b + 1, W, result))
            games[b].append(TrfGame(a + 1, B, mirror.get(result, result)))
        for rest in order[2 * pairs :]:
            bye = draw(st.sampled_from(["HFUZ", None]))
            games[rest].append(
                None if bye is None else TrfGame(None, NO, TrfResult(draw(st.sampled_from(bye))))
            )
    for played in games:  # a blank block at the end of a line is no block at all
        while played and played[-1] is None:
            played.pop()
    text = st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=3)
    players = tuple(
        TrfPlayer(
            start_number=n + 1,
            name=draw(st.from_regex(r"[A-Za-z][A-Za-z ,.'-]{0,31}[a-z]", fullmatch=True)),
            sex=draw(st.sampled_from(["", "m", "w"])),
            title=draw(st.sampled_from(["", "GM", "WIM", "f"])),
            rating=draw(st.none() | st.integers(0, 3000)),
            federation=draw(text),
            fide_id=draw(st.none() | st.integers(1, 10**11 - 1)),
            birth_date=draw(st.sampled_from(["", "1990/01/31", "2001"])),
            points=draw(st.none() | st.integers(0, 199).map(Score)),
            rank=draw(st.none() | st.integers(1, 9999)),
            games=tuple(games[n]),
        )
        for n in range(count)
    )
    tags = (TrfTag("012", draw(st.from_regex(r"[ -~]{0,40}[!-~]", fullmatch=True))),)
    trailer = (TrfNote(""), TrfTag("XXR", str(rounds + 1)), TrfNote("### comment"))
    return TrfDocument(tags + players + trailer)


@settings(max_examples=150, deadline=None)
@given(documents())
def test_written_documents_read_back_the_same(document: TrfDocument) -> None:
    text = write_trf(document)
    assert read_trf(text) == document
    assert write_trf(read_trf(text)) == text
