"""Known facts of Samurai, by rule ID of its specification.

Every rule ID of the spec (SM-S1…S9, SM-P1…P13, SM-E1…E7, SM-D1…D8) and
every worked example (SM-X1…X5) has at least one test naming it (a test
below scans the spec to keep it so), and every variant file in
rulebooks/variants/ has a test that shows its effect.

Facts about one moment are checked on arranged states: `lay_out` puts the
example's tiles (each the tile of the right player) on the board, the
markers on the settlements and the tile to play in the hand of the player
to move; the play goes through `parse_action` and `apply`, and the
captures, set-aside markers and the rest of the turn are compared with the
spec. Facts that hold at every step (marker and tile counts, the shape of a
turn, the refill, visibility, the end) are checked over a few recorded
random playouts (2 a player count: a Samurai game is cheap, but the file
must stay fast).

Seats: the spec's A, B, C are P0, P1, P2 (SM-S3: seat 0 starts, SM-D1).
Hexes are named as the engine prints them: their id, or Edo (82), Akita
(56), Kyoto (117), Sapporo (31).
"""

from __future__ import annotations

import functools
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import ActionError
from tests.spec_ids import shipped_variants, spec, unnamed_rule_ids
from tests.scenario import (arrange, check_consistent, names, permute_hidden, put,
                            texts_of, var, zone_index)

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "rulebooks" / "variants"
SPEC = spec("samurai")
RULES = ROOT / "rulebooks" / "samurai.rules"

CASTES = ("buddha", "rice", "castle")
PER_CASTE = {2: 7, 3: 10, 4: 13}                          # SM-S2
SLOTS = {2: 21, 3: 30, 4: 39}                             # SM-S8: 3 + 2·cities + villages
HEXES = {2: 91, 3: 133, 4: 174}                           # SM-S1
LAND = {2: 30, 3: 43, 4: 56}
SETTLEMENTS = {2: (14, 2), 3: (23, 2), 4: (30, 3)}        # villages, cities (+ Edo)
EDO, AKITA, KYOTO, SAPPORO = 82, 56, 117, 31
NAMED = {EDO: "Edo", AKITA: "Akita", KYOTO: "Kyoto", SAPPORO: "Sapporo"}
TILE_SET = ["buddha2", "buddha3", "buddha4", "rice2", "rice3", "rice4", "castle2", "castle3",
            "castle4", "samurai1a", "samurai1b", "samurai2a", "samurai2b", "samurai3", "ronin1",
            "ship1a", "ship1b", "ship2", "figure_exchange", "tile_exchange"]
FAST = {"ronin1", "ship1a", "ship1b", "ship2", "figure_exchange"}
PLAYS = {"place", "sail", "exchange_tiles", "figure_exchange"}
DEFAULTS = {"beginner_setup": False, "one_tile_per_turn": False, "domination": False}
# variant file -> what it changes (SM-S9, SM-D2, SM-D7)
VARIANT_FILES = {"beginner-setup": {"beginner_setup": True},
                 "one-tile-per-turn": {"one_tile_per_turn": True},
                 "domination": {"domination": True}}


@functools.lru_cache(maxsize=None)
def rules(variant: str | None = None):
    """The base rulebook, or the variant file samurai-VARIANT.rules."""
    if variant is None:
        return load_rulebook("samurai")
    return load_rulebook(str(VARIANTS / f"samurai-{variant}.rules"))


@pytest.fixture(scope="module")
def game():
    return rules()


# -- naming ---------------------------------------------------------------------------

def hx(h: int) -> str:
    """A hex as the engine prints it."""
    return NAMED.get(h, str(h))


def tile_of(g, s, owner: int, name: str) -> int:
    """The component id of `owner`'s tile `name` (every player has the same set)."""
    lay = g.program(s.n).lay
    first, count = lay.types["tile"]
    return next(c for c in range(first, first + count)
                if lay.display[c] == name and lay.static["owner"][c] == owner)


@functools.lru_cache(maxsize=None)
def per_hex(g, n, zone: str) -> tuple:
    """((hex id, zone index), …) of a zone `of each hex`."""
    lay = g.program(n).lay
    slot, (first, count) = lay.zones[zone], lay.types["hex"]
    return tuple((lay.static["id"][first + k], slot.base + k) for k in range(count))


def board(g, s) -> dict:
    """{hex: (owner, tile)} of every tile on the board."""
    lay = g.program(s.n).lay
    return {h: (lay.static["owner"][c], lay.display[c])
            for h, z in per_hex(g, s.n, "board_tile") for c in s.zones[z]}


def markers_at(g, s, h) -> Counter:
    return Counter(names(g, s, f"board_marker({hx(h)})"))


def captured(g, s, p) -> Counter:
    return Counter(names(g, s, f"captured({p})"))


def set_aside(g, s) -> Counter:
    return Counter(names(g, s, "set_aside"))


def all_captured(g, s) -> list:
    return [captured(g, s, p) for p in range(s.n)]


def on_board(g, s) -> Counter:
    lay = g.program(s.n).lay
    return Counter(lay.display[c] for _, z in per_hex(g, s.n, "board_marker") for c in s.zones[z])


def hand(g, s, p) -> list:
    return names(g, s, f"hand({p})")


def deciding(g, s) -> set:
    return {a.name for p in g.to_move(s) for a in g.legal_actions(s, p)}


# -- arranging a moment -----------------------------------------------------------------

def setup_done(g, n, seed=0):
    """A new game with the setup decisions taken (the first option each time):
    seat 0's first play decision."""
    s = g.new_game(players=n, seed=seed)
    while not deciding(g, s) & PLAYS:
        p = g.to_move(s)[0]
        s = g.apply(s, g.legal_actions(s, p)[0])
    assert g.to_move(s) == (0,)
    return s


def turn_of(g, n, p, seed=0):
    """The first decision of P`p`'s first turn: the seats before p place
    their first offered tile and end their step."""
    s = setup_done(g, n, seed)
    while g.to_move(s) != (p,):
        s = g.apply(s, g.legal_actions(s, g.to_move(s)[0])[0])
        if "end_step" in deciding(g, s):
            s = g.apply(s, next(a for a in g.legal_actions(s, g.to_move(s)[0])
                                if a.name == "end_step"))
    return s


def lay_out(g, s, tiles: dict, hands: dict = None, markers: dict = None):
    """A copy whose board holds exactly `tiles` ({hex: (player, tile)}; every
    other tile back in its owner's pile), whose hands hold `hands` ({player:
    [tile, …]}, filled to 5 from the hand and pile) and whose settlements in
    `markers` ({hex: [caste, …]}) hold those markers (swapped with the box,
    so the other settlements keep theirs)."""
    lay = g.program(s.n).lay
    s = s.copy()
    owner = lay.static["owner"]
    pile = lambda p: zone_index(g, s, f"pile({p})")               # noqa: E731
    sizes = {p: len(hand(g, s, p)) for p in range(s.n)}
    sizes.update({p: 5 for p in hands or {}})
    for h in range(174):
        for c in list(s.zones[zone_index(g, s, f"board_tile({hx(h)})")]):
            put(s, c, pile(owner[c]))
    for h, (p, name) in tiles.items():
        put(s, tile_of(g, s, p, name), zone_index(g, s, f"board_tile({hx(h)})"))
    for p in range(s.n):
        z, wanted = zone_index(g, s, f"hand({p})"), (hands or {}).get(p)
        if wanted is not None:
            for c in list(s.zones[z]):
                put(s, c, pile(p))
            for name in wanted:
                put(s, tile_of(g, s, p, name), z)
        for c in list(s.zones[pile(p)]):
            if len(s.zones[z]) >= sizes[p]:
                break
            if lay.display[c] not in (wanted or ()):
                put(s, c, z)
    if markers:
        spec = {f"board_marker({hx(h)})": list(m) for h, m in markers.items()}
        kept = [f"board_marker({hx(h)})" for h in range(174) if h not in markers]
        s = arrange(g, s, spec, keep=kept, rest="box")
    check_consistent(g, s)
    return s


def play(g, s, text, player=None):
    """Apply an action typed as text by the player to move."""
    player = g.to_move(s)[0] if player is None else player
    return g.apply(s, g.parse_action(s, player, text))


def refused(g, s, text, player=None):
    player = g.to_move(s)[0] if player is None else player
    before = g.state_to_json(s)
    with pytest.raises(ActionError) as err:
        g.parse_action(s, player, text)
    assert g.state_to_json(s) == before
    return err.value


# == SM-X1 … SM-X3: enclosures ===================================================================

def example_x1(g):
    """SM-X1: 3 players, C (P2) to move with ronin1 in hand."""
    s = turn_of(g, 3, 2)
    s = lay_out(g, s, {78: (0, "buddha4"), 79: (1, "samurai2a"), 81: (0, "rice2"),
                       83: (2, "samurai1a"), 85: (1, "rice3")},
                hands={2: ["ronin1", "castle2"]}, markers={EDO: CASTES})
    assert markers_at(g, s, EDO) == Counter(CASTES)
    return s, play(g, s, "place ronin1, 86")


def test_SM_X1_P6_P8_P9_edo_enclosed_by_a_fast_ronin(game):
    """SM-X1, SM-P6, SM-P8, SM-P9: C's ronin1 on 86 encloses Edo: buddha A
    4 v B 2 v C 2 → A; rice A 2 v B 5 v C 2 → B; castle A 0 v B 2 v C 2 → set
    aside. Edo stays empty; nothing else is captured."""
    s, after = example_x1(game)
    assert all_captured(game, after) == [Counter(["buddha"]), Counter(["rice"]), Counter()]
    assert set_aside(game, after) == Counter(["castle"])
    assert markers_at(game, after, EDO) == Counter()
    assert on_board(game, after) == on_board(game, s) - Counter(CASTES)
    check_consistent(game, after)


def test_SM_X1_P2_E1_the_turn_goes_on(game):
    """SM-X1, SM-P2, SM-E1: after the fast ronin, C may still make its one
    non-fast play (castle2) or end the step; the set-aside total is 1, so
    the game does not end with C's turn."""
    s, after = example_x1(game)
    assert game.to_move(after) == (2,)
    offered = texts_of(game, after)
    assert "end_step" in offered and "place castle2, 92" in offered
    after = play(game, after, "place castle2, 92")
    assert not any(t.startswith("place castle") for t in texts_of(game, after))
    after = play(game, after, "end_step")
    assert game.outcome(after) is None and game.to_move(after) == (0,)
    assert len(hand(game, after, 2)) == 5


def example_x2(g, ship=True):
    """SM-X2: 2 players, A (P0) to move with rice4 in hand."""
    s = setup_done(g, 2)
    tiles = {93: (0, "castle4"), 96: (1, "samurai3"), 118: (0, "samurai1a"), 119: (1, "rice2")}
    if ship:
        tiles[116] = (1, "ship2")
    s = lay_out(g, s, tiles, hands={0: ["rice4"]},
                markers={KYOTO: ["rice", "castle"], 121: ["buddha"]})
    return s, play(g, s, "place rice4, 120")


def test_SM_X2_P7_P8_kyoto_and_a_village_in_one_play(game):
    """SM-X2, SM-P7, SM-P8: rice4 on 120 encloses Kyoto and village 121 (its
    sea neighbours need no tile). Kyoto rice: A 5 v B 7 (the ship on sea
    counts) → B; castle 5 v 5 → set aside; 121 buddha: A 1 (rice4 counts 0)
    v B 0 → A. 118's samurai1 and 120's rice4 count in full for both."""
    s, after = example_x2(game)
    assert all_captured(game, after) == [Counter(["buddha"]), Counter(["rice"])]
    assert set_aside(game, after) == Counter(["castle"])
    assert markers_at(game, after, KYOTO) == Counter() and markers_at(game, after, 121) == Counter()


def test_SM_X2_P6_without_the_ship(game):
    """SM-X2, SM-P6: without the ship on 116 Kyoto is still enclosed (sea
    needs no filling): rice 5 v 5 → set aside; castle 5 v 3 → A."""
    s, after = example_x2(game, ship=False)
    assert all_captured(game, after) == [Counter(["buddha", "castle"]), Counter()]
    assert set_aside(game, after) == Counter(["rice"])


def example_x3(g):
    """SM-X3: 2 players, A (P0) holds the tile exchange."""
    s = setup_done(g, 2)
    s = lay_out(g, s, {79: (0, "samurai2a"), 83: (1, "rice3"), 93: (0, "castle2")},
                hands={0: ["tile_exchange", "samurai1a", "ronin1", "rice2", "castle3"]},
                markers={80: ["rice"]})
    return s, play(g, s, "exchange_tiles tile_exchange, 79, 92")


def test_SM_X3_P5_tile_exchange(game):
    """SM-X3, SM-P5, SM-P6, SM-D4: samurai2 moves 79 → 92, the exchange tile
    (0) stays on 79 and counts as a tile for the enclosure (the variant
    tile_exchange_move_only is not shipped); village 80 is enclosed: rice A
    0+2+0 = 2 v B 3 → B."""
    s, after = example_x3(game)
    assert board(game, after) == {79: (0, "tile_exchange"), 83: (1, "rice3"),
                                  92: (0, "samurai2a"), 93: (0, "castle2")}
    assert all_captured(game, after) == [Counter(), Counter(["rice"])]
    assert markers_at(game, after, 80) == Counter()


def test_SM_X3_P2_the_exchange_was_the_non_fast_play(game):
    """SM-X3, SM-P2: after the tile exchange A may play only fast tiles
    (ronin1) or end the step; samurai1a is no longer offered."""
    s, after = example_x3(game)
    offered = {t.split(",")[0] for t in texts_of(game, after)}
    assert offered == {"place ronin1", "end_step"}


def test_SM_P5_D4_what_may_move(game):
    """SM-P5, SM-D4: only the mover's own caste and samurai tiles may move
    (not ronin, ships, the exchange tile, nor another player's tile), also
    one beside a resolved settlement; to any empty land hex; without such a
    tile the tile exchange is not offered."""
    s = setup_done(game, 2)
    s = lay_out(game, s, {79: (0, "samurai2a"), 83: (1, "rice3"), 86: (0, "ronin1"),
                          116: (0, "ship2"), 93: (0, "castle2")},
                hands={0: ["tile_exchange"]})
    moves = {tuple(t.split(", ")[1:]) for t in texts_of(game, s)
             if t.startswith("exchange_tiles")}
    assert {h1 for h1, _ in moves} == {"79", "93"}
    assert len(moves) == 2 * (LAND[2] - 4)          # 79, 83, 86 and 93 are taken
    s = lay_out(game, s, {83: (1, "rice3"), 86: (0, "ronin1")}, hands={0: ["tile_exchange"]})
    assert not any(t.startswith("exchange_tiles") for t in texts_of(game, s))


# == SM-X4: figure exchange ======================================================================

def example_x4(g):
    """SM-X4: 2 players; Akita {buddha, rice}, Kyoto {rice, castle}, village
    54 {castle}; A (P0) holds the figure exchange and castle2."""
    s = setup_done(g, 2)
    return lay_out(g, s, {}, hands={0: ["figure_exchange", "castle2"]},
                   markers={AKITA: ["buddha", "rice"], KYOTO: ["rice", "castle"],
                            54: ["castle"]})


def swap_steps(g, s, a, ca, b, cb) -> list:
    """The decisions of a figure exchange (SM-P4) as the rulebook asks them:
    the tile, the caste that settlement `a` gives and the one it gets, then
    `a` and `b` (where the caste it gets comes from); or, should the action
    take the swap as its own parameters, that one action."""
    if any(t.startswith("figure_exchange figure_exchange,") for t in texts_of(g, s)):
        return [f"figure_exchange figure_exchange, {hx(a)}, {ca}, {hx(b)}, {cb}"]
    return ["figure_exchange figure_exchange", f"give {ca}", f"get {cb}",
            f"from_a {hx(a)}", f"from_b {hx(b)}"]


def swap(g, s, a, ca, b, cb):
    for text in swap_steps(g, s, a, ca, b, cb):
        s = play(g, s, text)
    return s


def swap_refused(g, s, a, ca, b, cb):
    """The error of the first step of the swap that is refused (each step
    before it is legal; the refused one leaves the state unchanged)."""
    for text in swap_steps(g, s, a, ca, b, cb):
        try:
            g.parse_action(s, g.to_move(s)[0], text)
        except ActionError:
            return refused(g, s, text)
        s = play(g, s, text)
    raise AssertionError(f"the swap {a} {ca} <-> {b} {cb} was made")


def marker_diff(g, before, after) -> frozenset:
    """What a figure exchange did: {(settlement, caste given, caste got)}."""
    out = set()
    for h in range(174):
        old, new = markers_at(g, before, h), markers_at(g, after, h)
        if old != new:
            (gave,), (got,) = list((old - new).elements()), list((new - old).elements())
            out.add((h, gave, got))
    return frozenset(out)


def offered_swaps(g, s) -> set:
    """Every figure exchange the player to move may complete now, whatever
    the steps it is chosen in: {marker_diff}."""
    out = set()

    def walk(t):
        if len(names(g, t, "spent")) > len(names(g, s, "spent")):
            out.add(marker_diff(g, s, t))
            return
        for a in g.legal_actions(t, g.to_move(t)[0]):
            if t is s and a.name != "figure_exchange":
                continue
            walk(g.apply(t, a))

    walk(s)
    return out


def swapped(a, ca, b, cb) -> frozenset:
    return frozenset({(a, ca, cb), (b, cb, ca)})


@pytest.fixture(scope="module")
def x4_swaps(game):
    s = example_x4(game)
    return s, offered_swaps(game, s)


@pytest.mark.parametrize("swap_,akita,other,at", [
    ((AKITA, "buddha", KYOTO, "castle"), ["castle", "rice"], ["rice", "buddha"], KYOTO),
    ((AKITA, "rice", 54, "castle"), ["buddha", "castle"], ["rice"], 54),
], ids=["56-buddha-117-castle", "56-rice-54-castle"])
def test_SM_X4_P4_legal_swaps(game, x4_swaps, swap_, akita, other, at):
    """SM-X4, SM-P4: 56 buddha ↔ 117 castle gives 56 {castle, rice}, 117
    {rice, buddha}; 56 rice ↔ 54 castle gives 56 {buddha, castle}, 54
    {rice}. The tile leaves the game; nothing is captured."""
    s, offered = x4_swaps
    assert swapped(*swap_) in offered
    after = swap(game, s, *swap_)
    assert markers_at(game, after, AKITA) == Counter(akita)
    assert markers_at(game, after, at) == Counter(other)
    assert marker_diff(game, s, after) == swapped(*swap_)
    assert "figure_exchange" not in hand(game, after, 0)
    assert names(game, after, "spent") == ["figure_exchange"]
    assert all_captured(game, after) == [Counter(), Counter()] and not set_aside(game, after)
    assert on_board(game, after) == on_board(game, s)


@pytest.mark.parametrize("swap_,why", [
    ((AKITA, "buddha", KYOTO, "rice"), "56 would hold rice twice"),
    ((AKITA, "rice", KYOTO, "rice"), "same caste (SM-D3)"),
    ((AKITA, "rice", AKITA, "buddha"), "one settlement"),
    ((AKITA, "castle", 54, "buddha"), "no castle on Akita, no buddha on 54"),
], ids=["doubles-rice", "same-caste", "one-settlement", "not-there"])
def test_SM_X4_P4_D3_illegal_swaps_are_refused(game, x4_swaps, swap_, why):
    """SM-X4, SM-P4, SM-D3: a swap that leaves a city with two markers of a
    caste, a same-caste swap, a swap within one settlement and a marker that
    is not there are never offered, and refused with action/illegal at the
    first step that cannot lead to them; the state is unchanged."""
    s, offered = x4_swaps
    assert swapped(*swap_) not in offered, why
    assert swap_refused(game, s, *swap_).code == "action/illegal", why


def test_SM_X4_P4_D3_every_offered_swap_is_legal(game, x4_swaps):
    """SM-X4, SM-P4, SM-D3 (default; the variant figure_exchange_same_caste is
    not shipped): every offered figure exchange moves two markers of
    different castes between two settlements, and no settlement ends with a
    caste twice; between Akita and Kyoto only buddha ↔ castle is offered."""
    s, offered = x4_swaps
    assert offered
    for diff in offered:
        (a, ca, cb), (b, cb2, ca2) = sorted(diff)
        assert a != b and ca != cb and (ca2, cb2) == (ca, cb)
        for h, gave, got in diff:
            assert markers_at(game, s, h)[got] == 0 and markers_at(game, s, h)[gave] == 1
    assert {d for d in offered if {h for h, _, _ in d} == {AKITA, KYOTO}} == \
        {swapped(AKITA, "buddha", KYOTO, "castle")}


def test_SM_P4_figure_exchange_is_fast_and_checks_no_enclosure(game):
    """SM-P4, SM-P2: the figure exchange is fast: castle2 may still be
    played after it. Nothing is placed, so a settlement whose land hexes are
    all filled (village 54: 55 and 59, arranged) is not resolved by it."""
    s = example_x4(game)
    s = lay_out(game, s, {55: (0, "samurai3"), 59: (1, "samurai3")})
    after = swap(game, s, AKITA, "rice", 54, "castle")
    assert markers_at(game, after, 54) == Counter(["rice"])
    assert all_captured(game, after) == [Counter(), Counter()] and not set_aside(game, after)
    assert "place castle2, 57" in texts_of(game, after)


# == SM-X5: scoring ==============================================================================

def ended_with(g, n, held):
    """A game of n players ended at the end of P0's first turn, the players
    holding `held` (per player buddha/rice/castle counts) taken from the
    board, and 4 markers set aside (SM-E1 b)."""
    s = setup_done(g, n)
    s = lay_out(g, s, {}, hands={0: ["samurai1a"]})
    keep = ["box"]
    for p, counts in enumerate(held):
        want = [c for c, k in zip(CASTES, counts) for _ in range(k)]
        s = arrange(g, s, {f"captured({p})": want}, keep=keep)
        keep.append(f"captured({p})")
    left = list(on_board(g, s).elements())[:4]
    s = arrange(g, s, {"set_aside": left}, keep=keep)
    check_consistent(g, s)
    s = play(g, s, "place samurai1a, 57")
    s = play(g, s, "end_step")
    assert s.over
    return s


@pytest.mark.parametrize("n,held,leaders,winners", [
    (3, [(4, 2, 1), (2, 5, 1), (1, 1, 3)], (1, 1, 1), (1,)),        # (a) B wins on totals
    (2, [(3, 3, 1), (3, 2, 4)], (1, 1), (1,)),                       # (b) B on not-led
    (2, [(3, 1, 2), (1, 3, 2)], (1, 1), (0, 1)),                     # (c) shared
    (2, [(2, 2, 1), (2, 2, 1)], (0, 0), (0, 1)),                     # (d) no leader, shared
], ids=["a", "b", "c", "d"])
def test_SM_X5_E2_to_E6_scoring(game, n, held, leaders, winners):
    """SM-X5 (a)–(d), SM-E2, SM-E3, SM-E4, SM-E5, SM-E6: leaderships are the scores; a tie on
    them is broken by markers of castes not led, then by total markers;
    still tied, the victory is shared; with no leader at all the totals
    decide."""
    end = ended_with(game, n, held)
    out = game.outcome(end)
    assert [tuple(captured(game, end, p)[c] for c in CASTES) for p in range(n)] == held
    assert out.scores == leaders
    assert out.winners == winners


@pytest.mark.parametrize("held,winners", [
    ([(2, 0, 0), (0, 2, 0), (0, 0, 2)], (0, 1, 2)),     # E5: one caste each, all equal: shared
    ([(3, 0, 0), (0, 2, 0), (0, 0, 1)], (0,)),          # E5: then the most markers
    ([(3, 0, 1), (0, 5, 0), (0, 0, 0)], (0,)),          # E3: two leaderships beat one
    ([(2, 1, 0), (1, 2, 0), (0, 0, 4)], (0, 1)),        # E4: not led 1, 1, 0; totals 3, 3
    ([(2, 1, 0), (1, 3, 0), (0, 0, 4)], (1,)),          # E4: not led 1, 1; totals 3, 4
    ([(1, 1, 0), (1, 0, 1), (0, 1, 1)], (0, 1, 2)),     # E6: no leader, equal totals
    ([(1, 1, 1), (1, 0, 1), (0, 1, 1)], (0,)),          # E6: no leader, most markers
], ids=["E5-share", "E5-total", "E3-most", "E4-share", "E4-total", "E6-share", "E6-total"])
def test_SM_E3_E4_E6_more_cases(game, held, winners):
    """SM-E3 (most leaderships wins outright), SM-E4 (a tie on leaderships
    compares markers of castes not led), SM-E6 (nobody leads: totals, the
    highest total or a shared victory)."""
    out = game.outcome(ended_with(game, 3, held))
    assert out.winners == winners


def test_SM_E7_result(game):
    """SM-E7: the result names the winners and per player the leaderships
    (the scores); the markers taken, hence those of castes not led and the
    total, are seen by everybody at the end (every capture was revealed)."""
    held = [(4, 2, 1), (2, 5, 1), (1, 1, 3)]
    end = ended_with(game, 3, held)
    out = game.outcome(end)
    assert out.scores == (1, 1, 1) and out.winners == (1,) and out.ranking[0] == 1
    view = game.view(end, None)
    assert view["outcome"]["winners"] == [1]


# == recorded playouts ===========================================================================

SETUP_DECISIONS = {"keep", "settlement", "caste_marker"}


class Playout:
    """A random game of the base rulebook: every state and action."""

    def __init__(self, g, n, seed):
        self.g, self.n = g, n
        self.states = [g.new_game(players=n, seed=seed)]
        self.actions = []
        rng = random.Random(seed * 31 + n)
        while g.outcome(self.states[-1]) is None:
            s = self.states[-1]
            a = rng.choice(g.legal_actions(s, g.to_move(s)[0]))
            self.actions.append(a)
            self.states.append(g.apply(s, a))
            assert len(self.actions) < 2000
        self.first_play = next(i for i, a in enumerate(self.actions)
                               if a.name not in SETUP_DECISIONS)

    def steps(self):
        return zip(self.states, self.actions, self.states[1:])

    def play_states(self):
        """The states of the play phase (from seat 0's first play decision)."""
        return self.states[self.first_play:]

    def turns(self) -> list:
        """[(turn number, player, [action texts])] of the play phase."""
        out: dict = {}
        for s, a in zip(self.states[self.first_play:], self.actions[self.first_play:]):
            player, texts = out.setdefault(s.turn, (a.player, []))
            assert a.player == player
            texts.append(str(a))
        return [(t, p, texts) for t, (p, texts) in sorted(out.items())]


@pytest.fixture(scope="module")
def playouts(game):
    return [Playout(game, n, seed) for n in (2, 3, 4) for seed in range(2)]


def test_the_games_end(playouts):
    for po in playouts:
        out = po.g.outcome(po.states[-1])
        assert out is not None and len(out.scores) == po.n and out.winners


def test_markers_and_tiles_are_conserved(playouts):
    """SM-S2, §1: at every step 13 markers of each caste across box, supply,
    settlements, the players' captures and the set-aside markers; per player
    20 tiles across hand, pile, board and the spent figure exchange; every
    component in one zone."""
    for po in playouts:
        g, n = po.g, po.n
        lay = g.program(n).lay
        for s in po.states:
            check_consistent(g, s)
            total = (Counter(names(g, s, "box")) + Counter(names(g, s, "supply")) + on_board(g, s)
                     + sum(all_captured(g, s), Counter()) + set_aside(g, s))
            assert total == Counter({c: 13 for c in CASTES})
            per_player = Counter(lay.static["owner"][c] for z in range(len(s.zones))
                                 for c in s.zones[z] if lay.type_of[c] == "tile")
            assert per_player == Counter({p: 20 for p in range(n)})
            assert len(names(g, s, "box")) == 39 - 3 * PER_CASTE[n]


def test_SM_S8_supply_empty_after_setup(playouts):
    """SM-S8, SM-S2: from the first play on the supply is empty and the
    settlements held exactly 21 / 30 / 39 markers at the start."""
    for po in playouts:
        g = po.g
        assert sum(on_board(g, po.states[po.first_play]).values()) == SLOTS[po.n]
        for s in po.play_states():
            assert names(g, s, "supply") == []


def is_slow(text: str) -> bool:
    """A non-fast play (SM-P2): a placed tile that is not fast, or the tile exchange."""
    name, _, rest = text.partition(" ")
    return name == "exchange_tiles" or (name == "place" and rest.split(",")[0] not in FAST)


def test_SM_P1_P2_turns_in_order_one_non_fast_play(playouts):
    """SM-P1, SM-P2, SM-D1: turns go clockwise from seat 0; a turn is one or
    more plays, at most one of them non-fast, then end_step; only its player
    decides."""
    for po in playouts:
        turns = po.turns()
        first = turns[0][0]
        assert turns[0][1] == 0
        for t, p, texts in turns:
            assert p == (t - first) % po.n
            plays = [x for x in texts if x.split(" ")[0] in PLAYS]
            assert plays and texts[-1] == "end_step" and "end_step" not in texts[:-1]
            assert sum(is_slow(x) for x in plays) <= 1, texts
        for s in po.play_states():
            assert len(po.g.to_move(s)) <= 1


def test_SM_P10_tiles_never_leave_the_board(playouts):
    """SM-P10, SM-P5: a tile on the board stays on its hex, except the one a
    tile exchange moves (to an empty land hex; the exchange tile takes its hex)."""
    for po in playouts:
        g = po.g
        for s, a, nxt in po.steps():
            if a.name in SETUP_DECISIONS:
                continue
            before, after = board(g, s), board(g, nxt)
            moved = {h: t for h, t in before.items() if after.get(h) != t}
            if a.name == "exchange_tiles":
                _, h1, h2 = str(a).split(", ")
                h1, h2 = (int(h) for h in (h1, h2))
                assert moved == {h1: before[h1]} and after[h2] == before[h1]
                assert after[h1] == (a.player, "tile_exchange")
            else:
                assert moved == {}
            assert set(after) >= set(before)


def test_SM_P11_refill_to_five(playouts):
    """SM-P11: at every decision of the play phase, every player other than
    the one to move holds 5 tiles, or fewer with an empty pile; hands only
    grow from their own pile."""
    for po in playouts:
        g = po.g
        for s in po.play_states()[:-1]:
            mover = g.to_move(s)[0]
            for q in range(po.n):
                if q != mover:
                    assert len(hand(g, s, q)) == 5 or not names(g, s, f"pile({q})")
        end = po.states[-1]
        assert all(len(hand(g, end, q)) == 5 or not names(g, end, f"pile({q})")
                   for q in range(po.n))


def test_SM_P13_D6_who_sees_what(playouts):
    """SM-P13, SM-D6: a hand only by its owner (others see its size); a pile
    by nobody (its size by everybody); the board, the settlements and the
    set-aside markers by everybody; captured markers sit in an owner-only
    zone, but each capture is revealed to everybody as it happens (an event
    naming the taker's zone and the caste), and all of them at the end (SM-E2). Views do not change when the
    tiles a viewer cannot see are shuffled."""
    rng = random.Random(0)
    for po in playouts:
        g = po.g
        for s in po.play_states()[::7] + [po.states[-1]]:
            for viewer in list(range(po.n)) + [None]:
                view = g.view(s, viewer)
                for z in view["zones"]:
                    name, owner = z["name"], z["owner"]
                    if name == "pile":
                        assert z["cards"] is None
                        assert z["count"] == len(names(g, s, f"pile({owner})"))
                    elif name in ("hand", "screen"):             # screen: SM-S4's choice
                        assert (z["cards"] is not None) == (owner == viewer)
                        assert z["count"] == len(names(g, s, f"{name}({owner})"))
                    elif name == "captured":
                        shown = z["cards"] if z["cards"] is not None else z.get("revealed", [])
                        assert Counter(shown) == captured(g, s, owner)
                    else:
                        assert z["cards"] is not None, name
                assert g.view(permute_hidden(g, s, viewer, rng), viewer) == view
        for s, a, nxt in po.steps():
            gained = [captured(g, nxt, p) - captured(g, s, p) for p in range(po.n)]
            events = g.view(nxt, None)["events"]
            announced = Counter()
            for e in events:
                if e["event"] == "reveal" and e["zone"].startswith("captured"):
                    announced[(int(e["zone"][len("captured(P"):-1]))] += len(e["cards"])
            expected = Counter({p: sum(k.values()) for p, k in enumerate(gained) if k})
            if g.outcome(nxt) is not None:          # SM-E2: at the end everyone reveals their markers
                expected += Counter({p: sum(captured(g, nxt, p).values()) for p in range(po.n)})
            assert announced == expected


def test_SM_E1_end_conditions_over_playouts(playouts):
    """SM-E1: the game ends after a turn at which some caste is gone from the
    board, 4 markers are set aside or all N players skipped in a row; at the
    first decision of every turn none of these held."""
    for po in playouts:
        g = po.g

        def ended(s):
            left = on_board(g, s)
            return (any(left[c] == 0 for c in CASTES) or sum(set_aside(g, s).values()) >= 4
                    or var(g, s, "skips") >= po.n)

        assert ended(po.states[-1])
        for s, nxt in zip(po.play_states(), po.play_states()[1:]):
            if nxt.turn != s.turn and not nxt.over:
                assert not ended(nxt)


# == §2 setup ====================================================================================

def static(g, n, attr, h):
    lay = g.program(n).lay
    return lay.static[attr][lay.types["hex"][0] + h]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_SM_S1_hexes_in_play(game, n):
    """SM-S1: the map holds the hexes with min_players ≤ N (91 / 133 / 174):
    a first tile may go on each of the 30 / 43 / 56 land hexes and a ship on
    each of the 44 / 64 / 84 sea hexes, never on a hex of a larger board."""
    s = setup_done(game, n)
    assert len(names(game, s, "map")) == HEXES[n]
    s = lay_out(game, s, {}, hands={0: ["samurai1a", "ship1a"]})
    targets = {name: {t.split(", ")[1] for t in texts_of(game, s) if t.startswith(name + ",")}
               for name in ("place samurai1a", "sail ship1a")}
    assert len(targets["place samurai1a"]) == LAND[n]
    assert len(targets["sail ship1a"]) == {2: 44, 3: 64, 4: 84}[n]
    off = [h for h in range(174) if static(game, n, "min_players", h) > n
           and static(game, n, "kind", h) == "land"]
    assert (not off) == (n == 4)
    for h in off[:3]:
        assert refused(game, s, f"place samurai1a, {h}").code == "action/illegal"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_SM_S2_S6_S8_supply_box_and_markers_placed(game, n):
    """SM-S2, SM-S6, SM-S8: 7 / 10 / 13 markers of each caste in play, the
    rest in the box; Edo holds one of each caste; every village holds 1
    marker, every city 2; the supply is then empty (21 / 30 / 39 placed)."""
    s = setup_done(game, n)
    assert Counter(names(game, s, "box")) == Counter({c: 13 - PER_CASTE[n] for c in CASTES
                                                       if PER_CASTE[n] < 13})
    assert names(game, s, "supply") == []
    assert on_board(game, s) == Counter({c: PER_CASTE[n] for c in CASTES})
    assert markers_at(game, s, EDO) == Counter(CASTES)
    villages, cities = SETTLEMENTS[n]
    sizes = Counter()
    for h in range(174):
        if static(game, n, "min_players", h) <= n and static(game, n, "kind", h) == "settlement":
            sizes[static(game, n, "settlement", h)] += 1
            assert sum(markers_at(game, s, h).values()) == static(game, n, "size", h)
            assert max(markers_at(game, s, h).values()) == 1           # SM-S7: no caste twice
    assert sizes == Counter({"village": villages, "city": cities, "edo": 1})


def test_SM_S3_S4_S5_tiles_hands_and_piles(game):
    """SM-S3, SM-S4, SM-S5: each player has the same 20 tiles in their own
    colour; all choose their 5 starting tiles at once, one at a time, from
    their own 20; the other 15 are their face-down pile, shuffled (the order
    differs with the seed)."""
    kept = {0: ["samurai3", "ronin1", "ship2", "figure_exchange", "tile_exchange"],
            1: ["buddha4", "rice4", "castle4", "samurai2a", "samurai2b"]}
    orders = set()
    for seed in range(3):
        s = game.new_game(players=2, seed=seed)
        for k in range(5):
            assert game.to_move(s) == (0, 1) and deciding(game, s) == {"keep"}
            offered = {t[len("keep "):] for t in texts_of(game, s, 0)}
            assert offered == set(TILE_SET) - set(kept[0][:k])
            for p in (0, 1):
                s = game.apply(s, game.parse_action(s, p, f"keep {kept[p][k]}"))
        lay = game.program(2).lay
        for p in (0, 1):
            assert sorted(hand(game, s, p)) == sorted(kept[p])
            pile = names(game, s, f"pile({p})")
            assert sorted(pile + hand(game, s, p)) == sorted(TILE_SET)
            assert {lay.static["owner"][c] for c in s.zones[zone_index(game, s, f"pile({p})")]} \
                == {p}
        orders.add(tuple(names(game, s, "pile(0)")))
    assert len(orders) > 1


def test_SM_S4_P13_a_starting_pick_is_secret(game):
    """SM-S4, SM-P13: while the others still choose, a player's pick is not
    in their views: P1 sees the same whether P0 kept samurai3 or rice2."""
    s = game.new_game(players=2, seed=0)
    a = game.apply(s, game.parse_action(s, 0, "keep samurai3"))
    b = game.apply(s, game.parse_action(s, 0, "keep rice2"))
    assert game.view(a, 1) == game.view(b, 1)
    a = game.apply(a, game.parse_action(a, 1, "keep rice2"))
    b = game.apply(b, game.parse_action(b, 1, "keep rice2"))
    assert game.view(a, 1) == game.view(b, 1) and game.view(a, None) == game.view(b, None)
    assert game.view(a, 0) != game.view(b, 0)


def test_SM_S7_S8_D1_markers_placed_in_turn(playouts):
    """SM-S7, SM-S8, SM-D1: from seat 0, clockwise, each player in turn puts
    one marker: first on the cities (fewer than 2, no caste twice) until all
    hold 2, then, with the next player, on the empty villages."""
    for po in playouts:
        g, n = po.g, po.n
        placers, kinds = [], []
        for s, a, nxt in po.steps():
            if a.name == "settlement":
                placers.append(a.player)
                offered = [t.split(" ", 1)[1] for t in texts_of(g, s, a.player)]
                full = all(sum(markers_at(g, s, h).values()) == 2 for h in range(174)
                           if static(g, n, "settlement", h) == "city"
                           and static(g, n, "min_players", h) <= n)
                kind = "village" if full else "city"
                kinds.append(kind)
                for t in offered:
                    h = next(h for h in range(174) if hx(h) == t)
                    assert static(g, n, "settlement", h) == kind
                    assert sum(markers_at(g, s, h).values()) < static(g, n, "size", h)
            if a.name == "caste_marker":
                at = next(h for h in range(174) if markers_at(g, nxt, h) != markers_at(g, s, h))
                offered = {t.split(" ", 1)[1] for t in texts_of(g, s, a.player)}
                assert offered == set(names(g, s, "supply")) - set(markers_at(g, s, at))
        villages, cities = SETTLEMENTS[n]
        assert placers == [k % n for k in range(len(placers))]
        assert kinds == ["city"] * (2 * cities) + ["village"] * villages


@pytest.mark.parametrize("n", [2, 3, 4])
def test_SM_S9_variant_beginner_setup(n):
    """SM-S9 variant file: no setup decisions; random hands of 5 (they
    differ with the seed), random markers, but Edo has one of each caste and
    every city two different castes; the supply is empty."""
    g = rules("beginner-setup")
    hands = set()
    for seed in range(3):
        s = g.new_game(players=n, seed=seed)
        assert g.to_move(s) == (0,) and deciding(g, s) <= PLAYS
        for p in range(n):
            assert len(hand(g, s, p)) == 5 and len(names(g, s, f"pile({p})")) == 15
        hands.add(tuple(sorted(hand(g, s, 0))))
        assert markers_at(g, s, EDO) == Counter(CASTES)
        assert names(g, s, "supply") == []
        for h in range(174):
            if static(g, n, "min_players", h) <= n and static(g, n, "kind", h) == "settlement":
                m = markers_at(g, s, h)
                assert sum(m.values()) == static(g, n, "size", h) and max(m.values()) == 1
    assert len(hands) > 1


# == §3 play: arranged moments ===================================================================

def test_SM_P3_where_tiles_go(game):
    """SM-P3: land tiles on every empty land hex, ships on every empty sea
    hex; never a settlement or an occupied hex; no adjacency needed."""
    s, _ = example_x2(game)
    taken = board(game, s)
    land = {h for h in range(174) if static(game, 2, "kind", h) == "land"
            and static(game, 2, "min_players", h) <= 2} - set(taken)
    sea = {h for h in range(174) if static(game, 2, "kind", h) == "sea"
           and static(game, 2, "min_players", h) <= 2} - set(taken)
    for t in texts_of(game, s):
        name, _, rest = t.partition(" ")
        if name in ("place", "sail"):
            tile, h = rest.split(", ")
            h = next(k for k in range(174) if hx(k) == h)
            assert h in (land if name == "place" else sea), t
    hand0 = hand(game, s, 0)
    expected = {f"place {t}, {hx(h)}" for t in hand0 if t not in
                ("ship1a", "ship1b", "ship2", "figure_exchange", "tile_exchange") for h in land}
    assert {t for t in texts_of(game, s) if t.startswith("place ")} == expected


def test_SM_P9_nobody_with_influence_sets_aside(game):
    """SM-P9: when everyone has 0 influence for a marker's caste, it is set
    aside: village 121 (buddha) enclosed by B's castle3 on 118 and A's rice4
    on 120."""
    s = setup_done(game, 2)
    s = lay_out(game, s, {118: (1, "castle3")}, hands={0: ["rice4"]}, markers={121: ["buddha"]})
    after = play(game, s, "place rice4, 120")
    assert set_aside(game, after) == Counter(["buddha"])
    assert all_captured(game, after) == [Counter(), Counter()]


def with_set_aside(g, s, k, spare=()):
    """A copy with k markers set aside, taken from settlements other than `spare`."""
    keep = ["box"] + [f"board_marker({hx(h)})" for h in spare]
    left = list((on_board(g, s) - sum((markers_at(g, s, h) for h in spare), Counter()))
                .elements())
    return arrange(g, s, {"set_aside": left[:k]}, keep=keep)


def test_SM_E1_four_set_aside_end_the_game_after_the_turn(game):
    """SM-E1 (b), SM-X1, SM-P11: with 3 markers set aside before, C's ronin
    makes the 4th; C's turn goes on (the check comes after the refill), and
    the game ends when C declares the step over, with C's hand refilled."""
    s, _ = example_x1(game)
    s = with_set_aside(game, s, 3, spare=[EDO])
    after = play(game, s, "place ronin1, 86")
    assert sum(set_aside(game, after).values()) == 4
    assert game.to_move(after) == (2,) and game.outcome(after) is None
    end = play(game, after, "end_step")
    assert game.outcome(end) is not None and len(hand(game, end, 2)) == 5


def empty_but(g, s, keep):
    """A copy in which every marker on the board outside the hexes `keep`
    has been captured by P0 (so each caste is in play only there)."""
    held = list((on_board(g, s) - sum((markers_at(g, s, h) for h in keep), Counter()))
                .elements())
    return arrange(g, s, {"captured(0)": held},
                   keep=["box"] + [f"board_marker({hx(h)})" for h in keep])


def test_SM_E1_a_caste_gone_ends_the_game(game):
    """SM-E1 (a): when the last buddha on the board (village 121 in SM-X2's
    play) is taken, the game ends after that turn; with a buddha left
    elsewhere (Edo) it goes on."""
    s, _ = example_x2(game)
    for spare, ends in (([KYOTO, 121], True), ([KYOTO, 121, EDO], False)):
        arranged = empty_but(game, s, spare)
        after = play(game, play(game, arranged, "place rice4, 120"), "end_step")
        assert (game.outcome(after) is not None) == ends


def stuck(g, s, p, hold):
    """A copy in which P`p` holds only `hold`, has an empty pile and no
    tile on the board (the rest of their tiles are out of play)."""
    lay = g.program(s.n).lay
    s = s.copy()
    spent, mine = zone_index(g, s, "spent"), zone_index(g, s, f"hand({p})")
    for z in range(len(s.zones)):
        for c in list(s.zones[z]):
            if lay.type_of[c] == "tile" and lay.static["owner"][c] == p:
                put(s, c, mine if lay.display[c] in hold else spent)
    check_consistent(g, s)
    return s


def test_SM_P12_D5_a_player_without_a_play_skips(game):
    """SM-P12, SM-D5 (default; the variant stuck_ends_game is not shipped): P0
    holds only the tile exchange and has no tile on the board: P0's turn is
    skipped without a decision (no refill from the empty pile), the game goes on."""
    s = turn_of(game, 2, 1)
    s = stuck(game, s, 0, ["tile_exchange"])
    s = lay_out(game, s, {}, hands={1: ["samurai1a"]})
    after = play(game, play(game, s, "place samurai1a, 57"), "end_step")
    assert game.outcome(after) is None and game.to_move(after) == (1,)
    assert var(game, after, "skips") == 1 and hand(game, after, 0) == ["tile_exchange"]
    assert after.turn == s.turn + 2


def test_SM_E1_D5_all_players_skip_in_a_row(game):
    """SM-E1, SM-D5: when all N players skip in a row, the game ends: P1
    plays its last playable tile; then P0 and P1 both have none."""
    s = turn_of(game, 2, 1)
    s = stuck(game, s, 0, ["tile_exchange"])
    s = stuck(game, s, 1, ["ronin1", "tile_exchange"])
    end = play(game, play(game, s, "place ronin1, 57"), "end_step")
    assert game.outcome(end) is not None and var(game, end, "skips") == 2
    assert end.turn == s.turn + 2


# == bad input ===================================================================================

@pytest.mark.parametrize("text,why", [
    ("sail ship1a, 79", "a ship on land"),
    ("place ship1a, 116", "a ship placed as a land tile"),
    ("place samurai1a, 116", "a land tile on sea"),
    ("place samurai1a, Edo", "a tile on a settlement"),
    ("place samurai1a, 121", "a tile on a village"),
    ("place samurai1a, 93", "an occupied hex"),
    ("place samurai3, 57", "a tile not in hand"),
    ("exchange_tiles tile_exchange, 96, 57", "another player's tile"),
])
def test_SM_P3_bad_placements_are_refused(game, text, why):
    """SM-P3, SM-P5: a ship on land, a land tile on sea, a tile on a
    settlement or on an occupied hex, a tile not in hand, moving another
    player's tile: action/illegal or action/unknown; the state is unchanged."""
    s = setup_done(game, 2)
    s = lay_out(game, s, {93: (0, "castle4"), 96: (1, "samurai3")},
                hands={0: ["samurai1a", "ship1a", "tile_exchange"]})
    assert refused(game, s, text).code in ("action/illegal", "action/unknown"), why


def test_SM_P2_a_second_non_fast_tile_is_refused(game):
    """SM-P2: after a non-fast play another non-fast tile (or the tile
    exchange) is refused with action/illegal; fast tiles are still allowed."""
    s = setup_done(game, 2)
    s = lay_out(game, s, {93: (0, "castle4")},
                hands={0: ["samurai1a", "samurai2a", "ronin1", "ship1a", "tile_exchange"]})
    after = play(game, s, "place samurai1a, 57")
    for text in ("place samurai2a, 60", "exchange_tiles tile_exchange, 93, 60"):
        assert refused(game, after, text).code == "action/illegal"
    after = play(game, after, "place ronin1, 60")
    after = play(game, after, "sail ship1a, 116")
    assert game.to_move(after) == (0,)
    assert refused(game, after, "place samurai2a, 61").code == "action/illegal"


def test_SM_P2_end_step_needs_a_play_and_others_wait(game):
    """SM-P2: the step cannot be declared over before a play; another
    player's placement is refused with action/not-your-turn."""
    s = setup_done(game, 2)
    assert "end_step" not in texts_of(game, s)
    assert refused(game, s, "end_step").code in ("action/illegal", "action/unknown")
    t = hand(game, s, 1)[0]
    assert refused(game, s, f"place {t}, 57", player=1).code == "action/not-your-turn"


# == §5 decisions and their variant files ========================================================

def test_SM_D1_seat_0_starts(game):
    """SM-D1: whatever the seed, seat 0 places the first marker and makes the first play."""
    for n in (2, 3, 4):
        for seed in range(3):
            s = game.new_game(players=n, seed=seed)
            while deciding(game, s) == {"keep"}:
                for p in game.to_move(s):
                    s = game.apply(s, game.legal_actions(s, p)[0])
                    if game.to_move(s) == ():
                        break
            assert game.to_move(s) == (0,) and deciding(game, s) == {"settlement"}
            assert setup_done(game, n, seed).turn >= 1


def test_SM_D2_variant_one_tile_per_turn():
    """SM-D2 variant file: one play ends the turn, fast or not: after C's
    ronin in SM-X1 (which still captures) A is to move and C's hand is full."""
    g = rules("one-tile-per-turn")
    s, after = example_x1(g)
    assert all_captured(g, after) == [Counter(["buddha"]), Counter(["rice"]), Counter()]
    assert g.to_move(after) == (0,) and len(hand(g, after, 2)) == 5
    assert "end_step" not in deciding(g, after)


def test_SM_D2_default_fast_tiles_do_not_end_the_turn(game):
    """SM-D2 (default): after a fast tile the same player is still to move (SM-X1)."""
    s, after = example_x1(game)
    assert game.to_move(after) == (2,)


def test_SM_D7_variant_domination():
    """SM-D7 variant file: 4 set-aside markers do not end the game (SM-X1
    with 3 set aside before); the game ends when no marker is left on the
    board (Edo the last settlement holding markers)."""
    g = rules("domination")
    s, _ = example_x1(g)
    four = play(g, play(g, with_set_aside(g, s, 3, spare=[EDO]), "place ronin1, 86"), "end_step")
    assert sum(set_aside(g, four).values()) == 4 and g.outcome(four) is None
    last = play(g, play(g, empty_but(g, s, [EDO]), "place ronin1, 86"), "end_step")
    assert on_board(g, last) == Counter() and g.outcome(last) is not None


def test_SM_D7_default_a_caste_gone_or_four_aside(game):
    """SM-D7 (default): the base ends with the 4th set-aside marker (see
    SM-E1's tests) and when the last marker of a caste is gone, although
    others remain: SM-X1 with Edo and Kyoto the only settlements holding
    markers, Edo's buddha the last buddha."""
    s, _ = example_x1(game)
    s = arrange(game, s, {"board_marker(Kyoto)": ["rice", "castle"]}, rest="box",
                keep=[f"board_marker({hx(h)})" for h in range(174) if h != KYOTO])
    s = empty_but(game, s, [EDO, KYOTO])
    end = play(game, play(game, s, "place ronin1, 86"), "end_step")
    assert on_board(game, end)["buddha"] == 0 and sum(on_board(game, end).values()) == 2
    assert game.outcome(end) is not None


def test_SM_D8_map_and_names(game):
    """SM-D8: the map comes from samurai.yaml: Edo (82) with six land
    neighbours, the cities Akita (56) and Kyoto (117) on every board,
    Sapporo (31) only on the 4-player board."""
    for n in (2, 3, 4):
        s = setup_done(game, n)
        on_map = set(names(game, s, "map"))
        assert {"Edo", "Akita", "Kyoto"} <= on_map
        assert ("Sapporo" in on_map) == (n == 4)
    assert static(game, 2, "name", EDO) == "Edo" and static(game, 2, "settlement", EDO) == "edo"
    assert [static(game, 2, "kind", h) for h in (78, 79, 81, 83, 85, 86)] == ["land"] * 6


@pytest.mark.parametrize("name", sorted(VARIANT_FILES))
def test_variant_file_turns_exactly_its_switch(name):
    """Each variant file is the base with one decision of §5 turned (SM-S9, SM-D2, SM-D7)."""
    g = rules(name)
    assert g.options == {**DEFAULTS, **VARIANT_FILES[name]}
    assert g.name.startswith("Samurai (") and (g.min_players, g.max_players) == (2, 4)


def test_every_variant_file_is_listed():
    assert shipped_variants(VARIANTS, "samurai") == set(VARIANT_FILES)


def test_every_switch_is_an_option(game):
    """SM-S9, SM-D2, SM-D7: the switches are options of the base."""
    assert game.options == DEFAULTS
    g = load_rulebook("samurai", options={"one_tile_per_turn": True})
    s, after = example_x1(g)
    assert g.to_move(after) == (0,)


# == the spec and this file ======================================================================

def test_every_rule_id_of_the_spec_is_named_by_a_test():
    """Every rule ID and worked example of the spec is named by a test of
    this file (its name, a parameter id or its docstring)."""
    assert unnamed_rule_ids(SPEC, "SM", sys.modules[__name__]) == []
