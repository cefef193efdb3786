"""The options of a choice of several elements (runtime/choices.py): the
shortcut for all-different keys lists what the general patterns list, in
the same order."""

from hypothesis import given, strategies as st

from interpreter.runtime.choices import _many_keys, _shape, many_keys


def _by_patterns(values, count):
    keys, counts = _shape(values, lambda v: v)
    return list(_many_keys(tuple(keys), counts, count))


@given(st.lists(st.integers(0, 30), unique=True, max_size=9), st.integers(0, 10))
def test_distinct_keys_are_the_combinations_in_pattern_order(values, count):
    assert many_keys(values, lambda v: v, count) == (
        _by_patterns(values, count) if count <= len(values) else [])


@given(st.lists(st.integers(0, 4), max_size=9), st.integers(0, 6))
def test_repeated_keys_are_one_option_each(values, count):
    got = many_keys(values, lambda v: v, count)
    assert len(got) == len(set(got))
    assert all(sorted(k) == list(k) and len(k) == count for k in got)


def test_three_of_five_different_cards():
    assert many_keys([5, 1, 3], lambda v: v, 2) == [(1, 3), (1, 5), (3, 5)]
