"""Caches bounded by memory (core.memo): answers are the function's, and the bytes held stay
under the budget however many questions are asked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from meeple.core.memo import MB, MISSING, Memo, deep_size, memoize


def held_bytes(memo: Memo) -> int:
    return sum(deep_size((k, v)) + 24 for gen in (memo.young, memo.old) for k, v in gen.items())


def test_the_bytes_held_stay_under_the_budget():
    memo: Memo[tuple[int, ...], tuple[int, ...]] = Memo("test", MB // 4)
    for i in range(100_000):
        memo.put((i, i + 1, i + 2), tuple(range(i % 10)))
        assert memo.get((i, i + 1, i + 2)) == tuple(range(i % 10))
    assert held_bytes(memo) <= MB // 4 * 1.1  # the mean entry size is an estimate
    assert len(memo) > 200  # and it still holds many (an entry is about 450 bytes)


def test_recently_used_entries_survive_a_turnover():
    memo: Memo[int, str] = Memo("test", 64 * 1024)
    memo.put(-1, "kept")
    for i in range(20_000):
        memo.put(i, "x" * 10)
        assert memo.get(-1) == "kept"  # used since the last turnover: promoted each time
    assert memo.get(0) is MISSING  # not used since: dropped
    assert memo.get(12345, "default") == "default"


def test_none_is_a_value_and_clear_forgets():
    memo: Memo[str, None] = Memo("test", MB)
    memo.put("a", None)
    assert memo.get("a") is None
    memo.clear()
    assert memo.get("a") is MISSING and len(memo) == 0


def test_deep_size_counts_what_a_value_holds_once():
    shared = tuple(range(100))
    assert deep_size((shared, shared)) < deep_size((shared, tuple(range(100))))
    assert deep_size({"a": [1, 2, 3]}) > deep_size({})


def test_shared_objects_in_an_entry_count_as_references():
    """A key that names a game's components refers to them; the memo does not hold them."""

    class Components:
        def __init__(self) -> None:
            self.data = list(range(100_000))

    shared = Components()
    assert deep_size((shared, 1)) == deep_size((None, 1)) - deep_size(None)
    memo: Memo[tuple[object, int], int] = Memo("test", MB)
    for i in range(1000):
        memo.put((shared, i), i)
    assert len(memo) == 1000  # a few bytes an entry, not the components' megabyte each


calls: list[tuple[int, int]] = []


@memoize(MB)
def slow_sum(a: int, b: int) -> int:
    calls.append((a, b))
    return a + b


@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), max_size=50))
def test_memoize_gives_the_functions_answers_and_calls_it_once_per_question(questions):
    slow_sum.memo.clear()  # type: ignore[attr-defined]
    calls.clear()
    for a, b in questions:
        assert slow_sum(a, b) == a + b
    assert sorted(calls) == sorted(set(questions))
    assert slow_sum(a=1, b=2) == 3  # keyword calls are answered, not cached
