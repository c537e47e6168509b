"""The register's rules: names folded for search, and two entries of one person merged."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.register import (
    KEY_SEPARATOR,
    MAX_ALIASES,
    DifferentFideIds,
    MergeWithItself,
    PlayedTogether,
    RegisterEntry,
    TooManyAliases,
    clean_aliases,
    fold_name,
    merge_entries,
    search_key,
)


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("Müller", "muller"),
        ("MÜLLER", "muller"),
        ("Šťastný", "stastny"),
        ("Ørsted", "orsted"),
        ("Łukasz Wróbel", "lukasz wrobel"),
        ("STRAẞE", "strasse"),
        ("Þórður", "thordur"),
        ("Đoković", "dokovic"),
        ("Œrsted Ærø", "oersted aero"),
        ("O'Brien", "obrien"),
        ("O’Brien", "obrien"),
        ("Jean-Luc  Picard", "jean luc picard"),
        ("  Rossi\t", "rossi"),
        ("ﬁscher", "fischer"),
        ("Ｒｏｓｓｉ", "rossi"),
        ("Kasparov (2)", "kasparov 2"),
        ("-", ""),
    ],
)
def test_fold_name(name: str, folded: str) -> None:
    assert fold_name(name) == folded


@given(st.text(max_size=40))
def test_folding_is_idempotent_and_never_yields_the_separator(name: str) -> None:
    folded = fold_name(name)
    assert fold_name(folded) == folded
    assert KEY_SEPARATOR not in folded
    assert folded == folded.strip()
    assert "  " not in folded


def test_the_search_key_holds_every_name_once() -> None:
    assert search_key("Müller", ["Mueller", "MULLER", "J. Müller"]) == "muller\nmueller\nj muller"


def test_aliases_are_kept_once_and_never_the_name() -> None:
    assert clean_aliases("Rossi", ["rossi", "Mario", "MARIO", "-", "M. Rossi"]) == (
        "Mario",
        "M. Rossi",
    )
    assert len(clean_aliases("X", [f"A{i}" for i in range(MAX_ALIASES)])) == MAX_ALIASES
    with pytest.raises(TooManyAliases):
        clean_aliases("X", [f"A{i}" for i in range(MAX_ALIASES + 1)])


def test_a_merge_keeps_the_kept_values_and_fills_the_gaps() -> None:
    kept = RegisterEntry(1, "Müller", ("Mueller",), rating=1900)
    merged = RegisterEntry(2, "J. Müller", ("Muller J",), 1700, "FM", 1503014, "Trento")
    assert merge_entries(kept, merged) == RegisterEntry(
        1, "Müller", ("Mueller", "J. Müller", "Muller J"), 1900, "FM", 1503014, "Trento"
    )


def test_a_merge_does_not_repeat_a_name_the_kept_entry_has() -> None:
    kept = RegisterEntry(1, "Rossi", ("Mario Rossi",))
    merged = RegisterEntry(2, "ROSSI", ("mario rossi", "M. Rossi"))
    assert merge_entries(kept, merged).aliases == ("Mario Rossi", "M. Rossi")


def test_a_merge_is_refused_for_two_people() -> None:
    a = RegisterEntry(1, "Rossi", fide_id=1)
    with pytest.raises(MergeWithItself):
        merge_entries(a, a)
    with pytest.raises(DifferentFideIds):
        merge_entries(a, RegisterEntry(2, "Rossi", fide_id=2))
    with pytest.raises(PlayedTogether, match="t1, t2"):
        merge_entries(a, RegisterEntry(2, "Rossi"), shared_tournaments=["t2", "t1"])
    assert merge_entries(a, RegisterEntry(2, "Rossi", fide_id=1)).fide_id == 1
