"""The options of a choice of several elements (runtime/choices.py): each
distinct sub-multiset or split once, in a fixed order, whether the keys are
all different (plain combinations) or repeat (patterns by the hand's shape,
keyed when read)."""

import itertools

from hypothesis import given, strategies as st

from interpreter.runtime.choices import Keyed, groups_keys, many_keys

same = lambda v: v      # noqa: E731 - a value is its own key


def _sub_multisets(values, count):
    return sorted(set(itertools.combinations(sorted(values), count)))


@given(st.lists(st.integers(0, 30), unique=True, max_size=9), st.integers(0, 10))
def test_distinct_keys_are_the_combinations_in_order(values, count):
    assert list(many_keys(values, same, count)) == (
        _sub_multisets(values, count) if count <= len(values) else [])


@given(st.lists(st.integers(0, 4), max_size=9), st.integers(0, 6))
def test_repeated_keys_give_each_sub_multiset_once(values, count):
    got = many_keys(values, same, count)
    assert sorted(got) == (_sub_multisets(values, count) if count <= len(values) else [])
    assert len(got) == len(set(got))


@given(st.lists(st.integers(0, 3), max_size=8), st.integers(0, 3), st.integers(1, 3))
def test_groups_are_each_split_once(values, ngroups, size):
    got = groups_keys(values, same, ngroups, size)
    if ngroups * size > len(values):
        assert list(got) == []
        return
    seen = set()
    for split in got:
        assert len(split) == ngroups and all(len(g) == size for g in split)
        assert list(split) == sorted(split) and all(list(g) == sorted(g) for g in split)
        pool = sorted(values)
        for k in itertools.chain(*split):
            pool.remove(k)          # only what the hand holds
        seen.add(split)
    assert len(seen) == len(got)


def test_keyed_options_read_as_their_list():
    got = groups_keys([1, 1, 2, 2], same, 2, 2)
    assert isinstance(got, Keyed)
    assert got == [((1, 1), (2, 2)), ((1, 2), (1, 2))]
    assert got[1] == ((1, 2), (1, 2)) and got[-1] == got[1] and got[:1] == [got[0]]
    assert many_keys([3, 3, 5], same, 2) == [(3, 3), (3, 5)]


def test_three_of_five_different_cards():
    assert many_keys([5, 1, 3], same, 2) == [(1, 3), (1, 5), (3, 5)]


def test_pieces_no_two_alike_are_their_own_keys():
    """A type whose pieces are all different (Hearts' cards, Kalah's pits)
    keys its choices by the pieces themselves, with no table between; a
    type with alike pieces (Hanamikoji's cards of one geisha) keys them by
    class, so two alike cards are one option."""
    from interpreter import load_rulebook
    from interpreter.runtime.choices import key_function, same
    hearts = load_rulebook("hearts").program(4).lay
    assert key_function("comp:card", hearts) is same
    hanamikoji = load_rulebook("hanamikoji").program(2).lay
    key = key_function("comp:item", hanamikoji)
    first, count = hanamikoji.types["item"]
    assert key is not same
    assert len({key(c) for c in range(first, first + count)}) < count
