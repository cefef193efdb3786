"""Known facts of Lanterns, by rule ID of its specification.

Every rule ID of the spec (LN-G1…G4, LN-S1…S7, LN-P1…P12, LN-E1…E4,
LN-D1…D8) and every worked example (LN-X1…X4) has at least one test naming
it (a test below scans the spec to keep it so), and every variant file in
rulebooks/variants/ has a test that shows its effect.

Facts that hold at every step (card, favour and tile counts, the lake's
shape, visibility, the order of a turn's steps) are checked over recorded
random playouts. Facts about one moment are checked on arranged states: the
lake, the tile hands, the supply stacks, the lantern cards and the favour
are set as a worked example says, then the placement (or dedication) is
applied through `parse_action` and every gain is compared with the spec's
numbers. A dedication needs the start of a turn (LN-P1 steps 1-2), so
`next_turn` arranges the next player's cards while the player before them
places a tile.

Seats: seed 3 makes P0 the start player with 2, 3 and 4 players, so the
spec's P1 … P4 are P0 … P3 here (LN-S1), facing N, E, S, W (LN-S2).
"""

from __future__ import annotations

import functools
import itertools
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import ActionError
from interpreter.stdlib.grid import cell, neighbours, text as cell_text
from tests.spec_ids import shipped_variants, spec, unnamed_rule_ids
from tests.scenario import (arrange, check_consistent, do, names, permute_hidden, set_var,
                            texts_of, var, zone_index)

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "rulebooks" / "variants"
SPEC = spec("lanterns")
RULES = ROOT / "rulebooks" / "lanterns.rules"

COLOURS = ("red", "white", "black", "blue", "green", "purple", "orange")
START_TILE = ("red", "white", "black", "blue")           # LN-S1: N, E, S, W at rotation 0
TILES = {8: ("blue", "red", "white", "black"), 23: ("green", "green", "red", "green"),
         26: ("orange", "blue", "white", "orange"), 30: ("orange", "green", "white", "green"),
         32: ("white", "orange", "purple", "white"), 34: ("red", "red", "green", "green")}
PLATFORM = {8: False, 23: False, 26: True, 30: True, 32: True, 34: True}
SEED = 3                                                  # P0 starts with 2, 3 and 4 players
PER_COLOUR = {2: 5, 3: 7, 4: 8}                           # LN-S3
TILES_USED = {2: 22, 3: 27, 4: 32}                        # LN-S4
SEATS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}        # LN-S2, LN-D1
STACKS = {2: {"four_of_a_kind": [8, 7, 6, 5, 5, 4], "three_pairs": [9, 8, 7, 6, 5, 5],
              "seven_unique": [10, 9, 8, 7, 6, 5]},
          3: {"four_of_a_kind": [8, 7, 6, 6, 5, 5, 5, 4], "three_pairs": [9, 8, 7, 7, 6, 6, 5, 5],
              "seven_unique": [10, 9, 8, 8, 7, 7, 6, 5]},
          4: {"four_of_a_kind": [8, 7, 7, 6, 6, 5, 5, 5, 4],
              "three_pairs": [9, 8, 8, 7, 7, 6, 6, 5, 5],
              "seven_unique": [10, 9, 9, 8, 8, 7, 7, 6, 5]}}   # LN-S5, top first
DEFAULTS = {"facing_first": False, "platform_per_matching_edge": False}
# variant file -> what it changes (LN-D1, LN-D2, LN-D8)
VARIANT_FILES = {"facing-first": {"facing_first": True},
                 "platform-per-matching-edge": {"platform_per_matching_edge": True},
                 "seats-2p-adjacent": {}}


@functools.lru_cache(maxsize=None)
def rules(variant: str | None = None):
    """The base rulebook, or the variant file lanterns-VARIANT.rules."""
    if variant is None:
        return load_rulebook("lanterns")
    return load_rulebook(str(VARIANTS / f"lanterns-{variant}.rules"))


@pytest.fixture(scope="module")
def game():
    return rules()


# -- reading a state -----------------------------------------------------------------

def cards(g, s, ref) -> Counter:
    return Counter(names(g, s, ref))


def held(g, s, p) -> Counter:
    return cards(g, s, f"cards({p})")


def supply(g, s) -> dict:
    return {c: len(names(g, s, f"supply({c})")) for c in COLOURS}


def favour(g, s, p) -> int:
    return var(g, s, "favour", p)


def gains(g, before, after) -> list:
    """Per player: the lantern cards and favour tokens gained from `before` to `after`."""
    return [(held(g, after, p) - held(g, before, p), favour(g, after, p) - favour(g, before, p))
            for p in range(before.n)]


def lake(g, s) -> dict:
    """The placed tiles: {cell text: (tile id, turns)}."""
    lay = g.program(s.n).lay
    spot, turns = lay.has["spot"], lay.has["turns"]
    return {cell_text(s.vars[spot[c]]): (int(lay.display[c]), s.vars[turns[c]])
            for c in s.zones[zone_index(g, s, "lake")]}


def deciding(g, s) -> set:
    return {a.name for p in g.to_move(s) for a in g.legal_actions(s, p)}


def static(g, s, attr, cid):
    return g.program(s.n).lay.static[attr][cid]


def stack_values(g, s, dedication) -> list:
    """The values of a dedication stack, top first."""
    return [static(g, s, "value", c)
            for c in reversed(s.zones[zone_index(g, s, f"stack({dedication})")])]


def won_values(g, s, p) -> list:
    return sorted(static(g, s, "value", c) for c in s.zones[zone_index(g, s, f"won({p})")])


def facing_colour(tile, turns, d) -> str:
    """LN-G2 written out: a tile turned r quarter turns shows c[(d - r) mod 4] on d."""
    return TILES[tile][(d - turns) % 4]


# -- arranging a moment ------------------------------------------------------------------

def opening(g, n):
    s = g.new_game(players=n, seed=SEED)
    assert var(g, s, "start") == 0 and g.to_move(s) == (0,)
    return s


def lay_out(g, s, placed: dict, hand=(), player=0):
    """A copy whose lake holds the start tile and `placed` ({tile id: ((x, y),
    turns)}), and whose `player` holds the tiles `hand` (the rest of each tile
    hand kept or filled from the draw stack, three tiles each)."""
    needed = {str(t) for t in placed} | {str(t) for t in hand}
    spare = [t for t in names(g, s, "tile_stack") if t not in needed]
    spec = {"lake": ["1"] + [str(t) for t in placed]}
    for q in range(s.n):
        mine = [str(t) for t in hand] if q == player else []
        mine += [t for t in names(g, s, f"tiles({q})") if t not in needed][:3 - len(mine)]
        while len(mine) < 3:
            mine.append(spare.pop())
        spec[f"tiles({q})"] = mine
    s = arrange(g, s, spec, rest="tile_stack")
    lay = g.program(s.n).lay
    first, count = lay.types["lake_tile"]
    for t, ((x, y), turns) in placed.items():
        cid = lay.display.index(str(t), first, first + count)
        s.vars[lay.has["spot"][cid]] = cell(x, y)
        s.vars[lay.has["turns"][cid]] = turns
    check_consistent(g, s)
    return s


def with_supply(g, s, counts: dict):
    """A copy with supply stacks of these sizes (spare cards to the box, missing ones from it)."""
    spec = {f"supply({c})": [c] * k for c, k in counts.items()}
    return arrange(g, s, spec, keep=[f"cards({p})" for p in range(s.n)], rest="box")


def with_cards(g, s, p, hold):
    others = [f"cards({q})" for q in range(s.n) if q != p]
    return arrange(g, s, {f"cards({p})": list(hold)}, keep=others, rest="box")


def with_favour(g, s, per_player):
    """A copy with these favour tokens per player, the rest of the 20 in the supply."""
    for p, k in enumerate(per_player):
        s = set_var(g, s, "favour", k, p)
    return set_var(g, s, "favour_supply", 20 - sum(per_player))


def place(g, s, text):
    return g.apply(s, g.parse_action(s, g.to_move(s)[0], text))


def until_place(g, s):
    """The player to move passes their optional steps (and discards the first
    option) up to their placement."""
    while True:
        acts = g.legal_actions(s, g.to_move(s)[0])
        if any(a.name == "place" for a in acts):
            return s
        s = g.apply(s, next((a for a in acts if a.name == "pass"), acts[0]))


def next_turn(g, s, hold, favour_=None):
    """From a decision of the player to move: they pass up to their placement
    and place a tile that faces the next player with a colour of `hold`; the
    next player's lantern cards are arranged so that they hold exactly `hold`
    (and `favour_` tokens) when their turn begins. Returns that state."""
    s = until_place(g, s)
    placer = g.to_move(s)[0]
    p = (placer + 1) % s.n
    want = Counter(hold)
    for a in g.legal_actions(s, placer):
        if a.name != "place":
            continue
        got = held(g, g.apply(s, a), p) - held(g, s, p)
        if len(got) == 1 and next(iter(got)) in want:
            colour = next(iter(got))
            break
    else:
        raise AssertionError(f"no placement gives P{p} a card of {sorted(want)}")
    arranged = with_cards(g, s, p, (want - Counter([colour])).elements())
    if favour_ is not None:
        arranged = set_var(g, arranged, "favour_supply",
                           var(g, arranged, "favour_supply") + favour(g, arranged, p) - favour_)
        arranged = set_var(g, arranged, "favour", favour_, p)
    after = g.apply(arranged, a)
    assert held(g, after, p) == want and g.to_move(after) == (p,)
    return after


def dedicate(g, s, text):
    """The player to move passes an offered exchange and dedicates: returns
    the state after it and the honour it gave."""
    p = g.to_move(s)[0]
    if "exchange" in deciding(g, s):
        s = do(g, s, "pass")
    assert "dedicate" in deciding(g, s), texts_of(g, s)
    after = do(g, s, text)
    return after, g.scores(after)[p] - g.scores(s)[p]


# -- recorded playouts ----------------------------------------------------------------

class Playout:
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
            assert len(self.actions) < 500

    def steps(self):
        return zip(self.states, self.actions, self.states[1:])

    @property
    def start(self):
        return var(self.g, self.states[0], "start")

    def order(self):
        return [(self.start + k) % self.n for k in range(self.n)]

    def last_place(self) -> int:
        return max(i for i, a in enumerate(self.actions) if a.name == "place")


@pytest.fixture(scope="module")
def playouts(game):
    return [Playout(game, n, seed) for n in (2, 3, 4) for seed in range(3)]


# == §1 geometry ==============================================================================

@pytest.mark.parametrize("d,turns", list(itertools.product(range(4), range(4))))
def test_LN_G1_G2_G3_G4_P6_P8_a_tile_beside_the_start_tile(game, d, turns):
    """LN-G1 (N is y+1, E x+1, …), LN-G2 (c[(d - r) mod 4] on d), LN-G3 (edge d
    touches the neighbour's edge d+2), LN-G4 (each player gets the edge of
    their seat): P0 puts tile 8 (blue, red, white, black; no platform) beside
    the start tile in direction d, turned r. The bonus card (LN-P6) comes only
    when tile 8's edge towards the start tile shows the start tile's colour."""
    s = lay_out(game, opening(game, 4), {}, hand=[8])
    at = [(0, 1), (1, 0), (0, -1), (-1, 0)][d]
    after = place(game, s, f"place 8, ({at[0]},{at[1]}), {turns}")
    touching = facing_colour(8, turns, (d + 2) % 4)
    bonus = Counter([touching]) if touching == START_TILE[d] else Counter()
    expected = [(Counter([facing_colour(8, turns, q)]) + (bonus if q == 0 else Counter()), 0)
                for q in range(4)]
    assert gains(game, s, after) == expected
    assert lake(game, after)[f"({at[0]},{at[1]})"] == (8, turns)


def test_LN_G1_cells_print_as_x_y(game):
    """LN-G1: the lake is a square grid; the first open cells are the four beside (0,0)."""
    s = opening(game, 2)
    cells = sorted({str(a).split(", ")[1] for a in game.legal_actions(s, 0)})
    assert cells == ["(-1,0)", "(0,-1)", "(0,1)", "(1,0)"]


# == §2 setup =================================================================================

def test_LN_S1_S7_start_player_random_and_red(game):
    """LN-S1, LN-S7: the start player is drawn at random; they hold the red
    card of the north seat and move first; the start tile lies at (0,0), turned 0."""
    starts = set()
    for n in (2, 3, 4):
        for seed in range(8):
            s = game.new_game(players=n, seed=seed)
            start = var(game, s, "start")
            starts.add((n, start))
            assert game.to_move(s) == (start,)
            assert held(game, s, start) == Counter(["red"])
            assert lake(game, s) == {"(0,0)": (1, 0)}
    assert {p for n, p in starts if n == 4} == {0, 1, 2, 3}
    assert {p for n, p in starts if n == 2} == {0, 1}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_LN_S2_S6_seats_and_first_cards(game, n):
    """LN-S2, LN-S6: the k-th player from the start player faces N, E, S (W)
    and takes the start tile's card of that side: 4p red, white, black, blue;
    3p red, white, black; 2p red, black (LN-D1: opposite seats)."""
    for seed in range(4):
        s = game.new_game(players=n, seed=seed)
        start = var(game, s, "start")
        got = [names(game, s, f"cards({(start + k) % n})") for k in range(n)]
        assert got == [[START_TILE[d]] for d in SEATS[n]]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_LN_S3_supply_stacks(game, n):
    """LN-S3: a face-up stack per colour of 5 / 7 / 8 cards (before the first
    cards of LN-S6); the rest of the 56 stay in the box."""
    s = opening(game, n)
    given = Counter(c for p in range(n) for c in names(game, s, f"cards({p})"))
    before_setup_cards = {c: k + given[c] for c, k in supply(game, s).items()}
    assert before_setup_cards == {c: PER_COLOUR[n] for c in COLOURS}
    assert cards(game, s, "box") == Counter({c: 8 - PER_COLOUR[n] for c in COLOURS
                                             if PER_COLOUR[n] < 8})
    view = game.view(s, None)
    assert all(z["cards"] is not None for z in view["zones"] if z["name"] == "supply")


@pytest.mark.parametrize("n,left,stack", [(2, 13, 16), (3, 8, 18), (4, 3, 20)])
def test_LN_S4_tiles_left_out_dealt_and_stacked(game, n, left, stack):
    """LN-S4: 13 / 8 / 3 tiles left out unseen, 3 to each player, the rest
    (16 / 18 / 20) face down; the deal differs with the seed."""
    s = opening(game, n)
    assert len(names(game, s, "left_out")) == left
    assert len(names(game, s, "tile_stack")) == stack
    assert [len(names(game, s, f"tiles({p})")) for p in range(n)] == [3] * n
    assert left + stack + 3 * n == 35 and stack + 3 * n == TILES_USED[n]
    hands = {tuple(names(game, game.new_game(players=n, seed=k), "tiles(0)")) for k in range(6)}
    assert len(hands) > 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_LN_S5_dedication_stacks_and_favour(game, n):
    """LN-S5: per type the tokens with too many dots are removed (2p: 3 and 4,
    3p: 4, 4p: none), the stack is sorted highest on top (6 / 8 / 9 tokens;
    sums as the data file's I4); 20 favour in the supply, none with the players."""
    s = opening(game, n)
    for dedication, values in STACKS[n].items():
        assert stack_values(game, s, dedication) == values
    sums = {2: (35, 40, 45), 3: (46, 53, 60), 4: (53, 61, 69)}[n]
    assert tuple(sum(v) for v in STACKS[n].values()) == sums
    assert len(names(game, s, "unused_tokens")) == 27 - 3 * len(STACKS[n]["seven_unique"])
    assert var(game, s, "favour_supply") == 20
    assert [favour(game, s, p) for p in range(n)] == [0] * n


# == §3 play ==================================================================================

TURN = re.compile(r"[xp]?[dp]?h?P")          # exchange, dedicate, hand limit, place


def turn_letters(po):
    """Per turn (of the play phase): its player and its decisions, one letter
    each: x exchange, d dedicate, p pass, h discards, P place."""
    letters = {"exchange": "x", "dedicate": "d", "pass": "p", "discards": "h", "place": "P"}
    turns: dict = {}
    for s, a, _ in po.steps():
        player, text = turns.setdefault(s.turn, (a.player, []))
        assert a.player == player                           # LN-P11: one player decides
        text.append(letters[a.name])
    return [(p, "".join(t)) for _, (p, t) in sorted(turns.items())]


def test_LN_P1_P11_turn_steps_in_order(playouts):
    """LN-P1, LN-P11: turns go clockwise from the start player; a turn is an
    optional exchange, an optional dedication, the hand limit, one placement,
    in this order, each at most once; only the player of the turn decides."""
    for po in playouts:
        turns = turn_letters(po)
        placing = [(p, t) for p, t in turns if "P" in t]
        assert len(placing) == TILES_USED[po.n]
        for k, (p, t) in enumerate(placing):
            assert p == po.order()[k % po.n]
            assert TURN.fullmatch(t), t
        for s in po.states:
            assert len(po.g.to_move(s)) <= 1


def test_LN_P1_dedicate_comes_before_the_hand_limit(game):
    """LN-P1 steps 2 and 3: a player with 15 cards who dedicates four of a
    kind keeps 11 and is not asked to discard."""
    s = next_turn(game, opening(game, 4), ["red"] * 4 + ["white"] * 3 + ["black"] * 3 + ["blue"] * 3
                  + ["green", "purple"])
    s, got = dedicate(game, s, "dedicate four_of_a_kind, red red red red")
    assert got == 8 and sum(held(game, s, 1).values()) == 11
    assert deciding(game, s) == {"place"}


def exchange_turn(g, favour_=2, hold=("red", "white")):
    return next_turn(g, opening(g, 4), list(hold), favour_=favour_)


def test_LN_P2_D4_exchange(game):
    """LN-P2, LN-D4: for 2 favour (back to the supply) a card goes back to its
    stack and one of another colour comes from a non-empty stack: with red
    and white, 2 × 6 exchanges; never for a card of the same colour."""
    s = exchange_turn(game)
    offered = [t for t in texts_of(game, s) if t.startswith("exchange")]
    assert len(offered) == 2 * 6
    assert "exchange red, red" not in offered and "exchange red, white" in offered
    before = supply(game, s)
    after = do(game, s, "exchange red, white")
    assert held(game, after, 1) == Counter(["white", "white"])
    assert favour(game, after, 1) == 0
    assert var(game, after, "favour_supply") == var(game, s, "favour_supply") + 2
    assert supply(game, after) == {**before, "red": before["red"] + 1, "white": before["white"] - 1}
    assert "exchange" not in deciding(game, after)


def test_LN_P2_no_exchange_from_an_empty_stack_or_without_favour(game):
    """LN-P2: an empty stack offers nothing; with 1 favour no exchange is offered;
    with 4 favour still only one exchange a turn (LN-P1)."""
    s = exchange_turn(game)
    s = with_supply(game, s, {"green": 0})
    assert "exchange red, green" not in texts_of(game, s)
    assert "exchange" not in deciding(game, exchange_turn(game, favour_=1))
    rich = exchange_turn(game, favour_=4)
    after = do(game, rich, "exchange red, blue")
    assert favour(game, after, 1) == 2 and "exchange" not in deciding(game, after)


def test_LN_P3_dedicate_returns_the_set_and_takes_the_top_token(game):
    """LN-P3: the paid cards go back to their stacks; the top token of the
    type's stack is taken and scores its value."""
    s = next_turn(game, opening(game, 4), ["black"] * 5 + ["blue"])
    before = supply(game, s)
    s, got = dedicate(game, s, "dedicate four_of_a_kind, black black black black")
    assert got == 8 and won_values(game, s, 1) == [8]
    assert held(game, s, 1) == Counter(["black", "blue"])
    assert supply(game, s) == {**before, "black": before["black"] + 4}
    assert stack_values(game, s, "four_of_a_kind") == STACKS[4]["four_of_a_kind"][1:]


def test_LN_P4_D5_hand_limit_discards_down_to_twelve(game):
    """LN-P4, LN-D5: 15 cards and no dedication: discard exactly 3, of the
    player's choice (every distinct set of 3 is offered), back to the supply."""
    hold = ["red"] * 3 + ["white"] * 3 + ["black"] * 3 + ["blue"] * 2 + ["green"] * 2 \
        + ["purple", "orange"]
    s = next_turn(game, opening(game, 4), hold)
    s = do(game, s, "pass")                            # three pairs would be possible
    offered = game.legal_actions(s, 1)
    assert {a.name for a in offered} == {"discards"}
    assert len(offered) == len(set(itertools.combinations(sorted(hold), 3)))
    before = supply(game, s)
    after = do(game, s, "discards red white orange")
    assert sum(held(game, after, 1).values()) == 12
    assert supply(game, after) == {**before, "red": before["red"] + 1,
                                   "white": before["white"] + 1, "orange": before["orange"] + 1}
    assert deciding(game, after) == {"place"}


def test_LN_P5_D7_place_anywhere_next_to_the_lake_any_rotation(game):
    """LN-P5, LN-D7: every tile of the hand, on every empty cell sharing an
    edge with a placed tile (not a corner), in 4 rotations; colours need not match."""
    s = lay_out(game, opening(game, 3), {30: ((1, 0), 1), 23: ((0, 1), 0)})
    open_cells = {"(-1,0)", "(0,-1)", "(1,-1)", "(2,0)", "(1,1)", "(-1,1)", "(0,2)"}
    texts = texts_of(game, s)
    hand = names(game, s, "tiles(0)")
    assert sorted(texts) == sorted(f"place {t}, {c}, {r}" for t in hand for c in open_cells
                                   for r in range(4))
    assert not any("(1,-1)" in t for t in texts_of(game, lay_out(game, opening(game, 3), {})))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_LN_P5_perft_opening(game, n):
    """LN-P5 perft fixture: at the opening (seed 3) 3 tiles × 4 cells × 4
    turns = 48 placements; after each, the next player has 3 × 6 × 4 = 72
    (the two tiles in a line leave 6 open cells): 3456 at depth 2."""
    s = opening(game, n)
    first = game.legal_actions(s, 0)
    assert len(first) == 48 and {a.name for a in first} == {"place"}
    depth2 = 0
    for a in first:
        nxt = game.apply(s, a)
        acts = game.legal_actions(nxt, game.to_move(nxt)[0])
        assert len(acts) == 72
        depth2 += len(acts)
    assert depth2 == 3456


def refused(g, s, text, player=0):
    before = g.state_to_json(s)
    with pytest.raises(ActionError) as err:
        g.parse_action(s, player, text)
    assert g.state_to_json(s) == before
    return err.value


def place_line() -> int:
    return next(k for k, line in enumerate(RULES.read_text().splitlines(), 1)
                if line.startswith("action place("))


@pytest.mark.parametrize("text,why", [
    ("place {t}, (0,0), 0", "occupied"),
    ("place {t}, (1,0), 0", "occupied"),
    ("place {t}, (5,5), 0", "isolated"),
    ("place {t}, (-1,1), 0", "corner only"),
    ("place {other}, (0,-1), 0", "tile not in hand"),
    ("place {t}, (0,-1), 4", "no such rotation"),
])
def test_LN_P5_bad_placements_are_refused(game, text, why):
    """LN-P5, promise 3: an occupied cell, a cell touching no tile (or only a
    corner), a tile not in hand, a fifth rotation: action/illegal at the
    rulebook's place action; the state is unchanged."""
    s = lay_out(game, opening(game, 4), {30: ((1, 0), 1)})
    t = names(game, s, "tiles(0)")[0]
    other = names(game, s, "tile_stack")[0]
    err = refused(game, s, text.format(t=t, other=other))
    assert err.code == "action/illegal", why
    assert err.span is not None and err.span.line == place_line()


def test_LN_P5_not_your_turn_and_nonsense(game):
    """Promise 3: another player's placement and a text that is no action are refused."""
    s = opening(game, 4)
    t = names(game, s, "tiles(1)")[0]
    assert refused(game, s, f"place {t}, (1,0), 0", player=1).code == "action/not-your-turn"
    assert refused(game, s, "place").code == "action/unknown"
    assert refused(game, s, "fly away").code in ("action/unknown", "action/illegal")


def example_x1(g):
    s = lay_out(g, opening(g, 4), {}, hand=[32])
    assert supply(g, s) == {"red": 7, "white": 7, "black": 7, "blue": 7, "green": 8, "purple": 8,
                            "orange": 8}
    return s, place(g, s, "place 32, (1,0), 0")


def test_LN_X1_one_match_platform(game):
    """LN-X1, LN-P6, LN-P7, LN-P8: tile 32 at (1,0) turned 0: its W (white)
    meets the start tile's E (white). P1 gains 2 white (bonus, facing) and 1
    favour; P2 orange, P3 purple, P4 white. White supply 7 → 4."""
    s, after = example_x1(game)
    assert gains(game, s, after) == [(Counter(["white", "white"]), 1), (Counter(["orange"]), 0),
                                     (Counter(["purple"]), 0), (Counter(["white"]), 0)]
    assert held(game, after, 0) == Counter({"red": 1, "white": 2})
    assert supply(game, after)["white"] == 4
    assert var(game, after, "favour_supply") == 19
    assert lake(game, after) == {"(0,0)": (1, 0), "(1,0)": (32, 0)}


def example_x2(g, favour_supply=20):
    s = lay_out(g, opening(g, 4), {30: ((1, 0), 1), 23: ((0, 1), 0)}, hand=[34])
    s = with_supply(g, s, {"green": 3, "red": 5})
    s = set_var(g, s, "favour_supply", favour_supply)
    return s, place(g, s, "place 34, (1,1), 0")


def test_LN_X2_two_matches_shortage(game):
    """LN-X2, LN-P6, LN-P7, LN-P9, LN-D3: tile 34 at (1,1) matches tile 23 (W
    green) and tile 30 (S green): P1 takes 2 green (3 → 1) and 1 + 1 + 0 = 2
    favour; facing P1 red, P2 red, P3 green (1 → 0), P4 nothing."""
    s, after = example_x2(game)
    assert lake(game, s) == {"(0,0)": (1, 0), "(1,0)": (30, 1), "(0,1)": (23, 0)}
    assert gains(game, s, after) == [(Counter({"green": 2, "red": 1}), 2), (Counter(["red"]), 0),
                                     (Counter(["green"]), 0), (Counter(), 0)]
    assert supply(game, after)["green"] == 0 and supply(game, after)["red"] == 3
    assert var(game, after, "favour_supply") == 18


def test_LN_X2_D2_facing_first(game):
    """LN-X2 with LN-D2's variant file: facing first: P1 red, P2 red, P3 green
    (3 → 2), P4 green (2 → 1); then P1's bonus gets 1 green only (1 → 0)."""
    g = rules("facing-first")
    s, after = example_x2(g)
    assert gains(g, s, after) == [(Counter({"green": 1, "red": 1}), 2), (Counter(["red"]), 0),
                                  (Counter(["green"]), 0), (Counter(["green"]), 0)]
    assert supply(g, after)["green"] == 0


def test_LN_D2_default_and_variant_agree_without_shortage(game):
    """LN-D2: the order differs only when a stack runs short (LN-X1 in both files)."""
    g = rules("facing-first")
    s0, a0 = example_x1(game)
    s1, a1 = example_x1(g)
    assert gains(game, s0, a0) == gains(g, s1, a1)


def test_LN_P9_D3_favour_supply_short(game):
    """LN-P9, LN-D3: 2 favour due and 1 left in the supply: the player takes 1;
    no substitute card for the green P4 could not receive, and none later."""
    s, after = example_x2(game, favour_supply=1)
    assert favour(game, after, 0) == 1 and var(game, after, "favour_supply") == 0
    assert held(game, after, 3) == held(game, s, 3)
    turn = until_place(game, after)
    later = game.apply(turn, game.legal_actions(turn, 1)[0])
    got = held(game, later, 3) - held(game, after, 3)
    assert sum(got.values()) <= 1          # only the facing card of the next placement


def test_LN_X3_platform_without_match(game):
    """LN-X3, LN-P7, LN-S2 (2p): P1 N, P2 S hold red and black; tile 26 at
    (0,-1) turned 0: orange meets black, no match: no bonus, 0 favour despite
    the platform; facing P1 orange, P2 white; E and W face nobody."""
    s = lay_out(game, opening(game, 2), {}, hand=[26])
    assert held(game, s, 0) == Counter(["red"]) and held(game, s, 1) == Counter(["black"])
    after = place(game, s, "place 26, (0,-1), 0")
    assert gains(game, s, after) == [(Counter(["orange"]), 0), (Counter(["white"]), 0)]
    assert var(game, after, "favour_supply") == 20


def test_LN_P7_matched_neighbour_platform_without_own(game):
    """LN-P7: a new tile without a platform (8) whose S edge matches the N edge
    of a platform tile (32, white) gets 1 favour; turned so that nothing
    matches, 0 favour and no bonus card."""
    s = lay_out(game, opening(game, 4), {32: ((1, 0), 0)}, hand=[8])
    after = place(game, s, "place 8, (1,1), 0")        # S: white against 32's N white
    assert gains(game, s, after)[0] == (Counter(["white", "blue"]), 1)
    after = place(game, s, "place 8, (1,1), 1")        # S: red against white
    assert gains(game, s, after)[0] == (Counter(["black"]), 0)


def test_LN_P10_refill(playouts):
    """LN-P10: after placing, the player draws up to 3 tiles while the draw stack lasts."""
    for po in playouts:
        g = po.g
        for s, a, nxt in po.steps():
            if a.name != "place":
                continue
            stack = len(names(g, s, "tile_stack"))
            hand = len(names(g, s, f"tiles({a.player})")) - 1
            drawn = min(3 - hand, stack)
            assert len(names(g, nxt, f"tiles({a.player})")) == hand + drawn
            assert len(names(g, nxt, "tile_stack")) == stack - drawn


def test_LN_P12_who_sees_what(playouts):
    """LN-P12: a tile hand only by its owner (others see its size); the draw
    stack and the left-out tiles by nobody (sizes public); lantern cards,
    favour, tokens, supply, stacks and the lake by everybody. Views do not
    change when the tiles a viewer cannot see are shuffled."""
    public = {"box", "supply", "cards", "lake", "stack", "unused_tokens", "won"}
    rng = random.Random(0)
    for po in playouts:
        g = po.g
        for s in po.states[::5]:
            for viewer in list(range(po.n)) + [None]:
                view = g.view(s, viewer)
                for z in view["zones"]:
                    if z["name"] in public:
                        assert z["cards"] is not None
                    elif z["name"] in ("tile_stack", "left_out"):
                        assert z["cards"] is None and z["count"] == len(names(g, s, z["name"]))
                    else:
                        assert z["name"] == "tiles"
                        assert (z["cards"] is not None) == (z["owner"] == viewer)
                        assert z["count"] == len(names(g, s, f"tiles({z['owner']})"))
                assert g.view(permute_hidden(g, s, viewer, rng), viewer) == view


# == §4 end and scoring =======================================================================

def test_LN_E1_play_ends_with_the_last_tile(playouts):
    """LN-E1: placements go on until every tile is placed: tiles_used
    placements, the same number each, the last by the last player in turn
    order, the draw stack already empty."""
    for po in playouts:
        g, last = po.g, po.last_place()
        placers = Counter(a.player for a in po.actions if a.name == "place")
        assert placers == Counter({p: TILES_USED[po.n] // po.n for p in range(po.n)})
        assert po.actions[last].player == po.order()[-1]
        assert len(names(g, po.states[last], "tile_stack")) == 0
        end = po.states[-1]
        assert len(names(g, end, "lake")) == TILES_USED[po.n] + 1
        assert all(not names(g, end, f"tiles({p})") for p in range(po.n))


def test_LN_E2_D6_final_turns(playouts):
    """LN-E2, LN-D6: after the last tile, each player in turn order from the
    start player may exchange and dedicate once; no tile, no hand limit."""
    for po in playouts:
        final = po.actions[po.last_place() + 1:]
        assert not {a.name for a in final} & {"place", "discards"}
        players = [a.player for a in final]
        assert players == sorted(players, key=po.order().index)
        for p in range(po.n):
            mine = [a.name for a in final if a.player == p]
            assert len(mine) <= 2 and mine.count("exchange") <= 1 and mine.count("dedicate") <= 1


def test_LN_E3_honour_is_tokens_plus_four_per_grey(playouts):
    """LN-E3: honour = the values of the tokens taken + 4 per dedication on an empty stack."""
    for po in playouts:
        g, end = po.g, po.states[-1]
        dedications = Counter(a.player for a in po.actions if a.name == "dedicate")
        for p in range(po.n):
            tokens = won_values(g, end, p)
            assert len(tokens) + var(g, end, "grey", p) == dedications[p]
            assert g.outcome(end).scores[p] == sum(tokens) + 4 * var(g, end, "grey", p)


def test_LN_E4_most_honour_then_favour_then_cards(playouts):
    """LN-E4: winners recomputed from (honour, favour, lantern cards)."""
    for po in playouts:
        g, end = po.g, po.states[-1]
        out = g.outcome(end)
        key = {p: (out.scores[p], favour(g, end, p), sum(held(g, end, p).values()))
               for p in range(po.n)}
        best = max(key.values())
        assert out.winners == tuple(p for p in range(po.n) if key[p] == best)


# == LN-X4: dedications and the end ===========================================================

def test_LN_X4a_first_three_pairs_3p(game):
    """LN-X4(a), LN-P3: 3p, red 2, white 2, blue 2, green 1, black 1: the only
    three-pairs set returns the 6 paired cards and takes 9; green and black stay."""
    s = next_turn(game, opening(game, 3), ["red", "red", "white", "white", "blue", "blue",
                                           "green", "black"])
    assert sorted(t for t in texts_of(game, s) if t.startswith("dedicate")) == \
        ["dedicate three_pairs, red red white white blue blue"]
    before = supply(game, s)
    s, got = dedicate(game, s, "dedicate three_pairs, red red white white blue blue")
    assert got == 9 and held(game, s, 1) == Counter(["green", "black"])
    assert supply(game, s) == {**before, "red": before["red"] + 2, "white": before["white"] + 2,
                               "blue": before["blue"] + 2}


@pytest.mark.parametrize("n,third,fifth", [(4, 9, 8), (3, 8, 7), (2, 8, 6)])
def test_LN_X4b_seven_unique_third_and_fifth(game, n, third, fifth):
    """LN-X4(b), LN-S5: the 3rd / 5th seven-unique dedication of a game scores
    9 / 8 (4p), 8 / 7 (3p), 8 / 6 (2p)."""
    s, got = opening(game, n), []
    for _ in range(5):
        s, value = dedicate(game, next_turn(game, s, COLOURS),
                            "dedicate seven_unique, " + " ".join(COLOURS))
        got.append(value)
    assert got == STACKS[n]["seven_unique"][:5]
    assert (got[2], got[4]) == (third, fifth)


def test_LN_X4c_P3_four_of_a_kind_2p_then_grey(game):
    """LN-X4(c), LN-P3: 2p, the first six four-of-a-kind dedications score 8,
    7, 6, 5, 5, 4 (35); the 7th and later score 4 each on the empty stack,
    which stays empty (a grey marker; no token is taken)."""
    s, got = opening(game, 2), []
    for colour in ("red", "white", "black", "blue", "green", "purple", "orange", "red"):
        s, value = dedicate(game, next_turn(game, s, [colour] * 4),
                            f"dedicate four_of_a_kind, {colour} {colour} {colour} {colour}")
        got.append(value)
    assert got == [8, 7, 6, 5, 5, 4, 4, 4] and sum(got[:6]) == 35
    assert stack_values(game, s, "four_of_a_kind") == []
    assert var(game, s, "grey", 0) + var(game, s, "grey", 1) == 2
    assert len(won_values(game, s, 0)) + len(won_values(game, s, 1)) == 6


def last_placement(g, s):
    """Play on, passing every optional step, to the last placement of the game."""
    while True:
        s = until_place(g, s)
        if sum(len(names(g, s, f"tiles({p})")) for p in range(s.n)) == 1:
            return s
        acts = g.legal_actions(s, g.to_move(s)[0])
        s = g.apply(s, acts[0])


def example_x4d(g, p0_cards, favours=(2, 2)):
    """LN-X4(d): P2 (P1 here) three pairs 9, P1 seven unique 10, P2 seven
    unique 9, P1 three pairs 8 (per type in the example's order); at the last
    placement both get 2 favour and cards that allow no dedication; the last
    tile gives each one more card. Returns the state at the first final turn."""
    s = opening(g, 2)
    plan = [(["red", "red", "white", "white", "blue", "blue"],
             "dedicate three_pairs, red red white white blue blue", 9),
            (COLOURS, "dedicate seven_unique, " + " ".join(COLOURS), 10),
            (COLOURS, "dedicate seven_unique, " + " ".join(COLOURS), 9),
            (["black", "black", "green", "green", "orange", "orange"],
             "dedicate three_pairs, black black green green orange orange", 8)]
    for hold, text, value in plan:
        s, got = dedicate(g, next_turn(g, s, hold), text)
        assert got == value
    s = last_placement(g, s)
    assert g.to_move(s) == (1,)
    s = with_cards(g, s, 0, p0_cards)
    s = with_cards(g, s, 1, ["red", "red", "red", "white", "white", "black"])
    s = with_favour(g, s, list(favours))
    for a in g.legal_actions(s, 1):
        end = g.apply(s, a)
        if [sum(held(g, end, p).values()) for p in (0, 1)] == [len(p0_cards) + 1, 7] \
                and (favour(g, end, 0), favour(g, end, 1)) == tuple(favours) \
                and deciding(g, end) == {"exchange", "pass"} \
                and "dedicate" not in deciding(g, do(g, end, "pass")):
            return end
    raise AssertionError("no last placement leaves both without a dedication")


def test_LN_X4d_E4_tie_on_honour_and_favour_most_cards_wins(game):
    """LN-X4(d), LN-E2, LN-E4: honour 18 each, favour 2 each, lantern cards 5
    and 7: P2 wins."""
    s = example_x4d(game, ["red", "white", "black", "blue"])
    end = do(game, s, "pass", "pass")
    out = game.outcome(end)
    assert won_values(game, end, 0) == [8, 10] and won_values(game, end, 1) == [9, 9]
    assert out.scores == (18, 18) and out.winners == (1,) and out.ranking == (1, 0)


def test_LN_X4d_E4_still_tied_share_the_victory(game):
    """LN-X4(d), LN-E4: had both held 7 cards, both would win."""
    s = example_x4d(game, ["red", "red", "red", "white", "white", "black"])
    out = game.outcome(do(game, s, "pass", "pass"))
    assert out.scores == (18, 18) and out.winners == (0, 1)


def test_LN_E4_favour_decides_before_cards(game):
    """LN-E4: on equal honour more favour wins, even with fewer lantern cards
    (LN-X4(d) with 3 favour for P1 and 5 cards against 7)."""
    s = example_x4d(game, ["red", "white", "black", "blue"], favours=(3, 2))
    out = game.outcome(do(game, s, "pass", "pass"))
    assert out.scores == (18, 18) and out.winners == (0,)


def test_LN_D5_no_hand_limit_in_final_turns(game):
    """LN-D5, LN-E2: a player with 14 cards in the final turns is not asked to discard."""
    s = example_x4d(game, ["red", "white", "black", "blue"])
    s = with_cards(game, s, 0, ["red"] * 3 + ["white"] * 3 + ["black"] * 3 + ["blue"] * 3
                   + ["purple"] * 2)
    s = do(game, s, "pass")                           # no exchange; three pairs are offered
    assert deciding(game, s) == {"dedicate", "pass"}
    s = do(game, s, "pass", "pass")
    assert game.outcome(s) is not None and sum(held(game, s, 0).values()) == 14


# == §5 decisions and their variant files =====================================================

def test_LN_D1_default_2p_opposite(game):
    """LN-D1 (default): with 2 players the second faces south (black at setup)."""
    s = opening(game, 2)
    assert held(game, s, 1) == Counter(["black"])


def test_LN_D1_variant_seats_2p_adjacent():
    """LN-D1 variant file: P2 faces east, starts with white, and receives the
    east edge of a placement (LN-X3's tile 26: blue)."""
    g = rules("seats-2p-adjacent")
    s = opening(g, 2)
    assert held(g, s, 1) == Counter(["white"])
    s = lay_out(g, s, {}, hand=[26])
    after = place(g, s, "place 26, (0,-1), 0")
    assert gains(g, s, after) == [(Counter(["orange"]), 0), (Counter(["blue"]), 0)]
    assert [held(g, g.new_game(players=n, seed=SEED), n - 1) for n in (3, 4)] == \
        [Counter(["black"]), Counter(["blue"])]


def test_LN_D8_new_platform_once_however_many_edges_match(game):
    """LN-D8 (default): in LN-X2 two edges match; tile 34's platform counts once."""
    s, after = example_x2(game)
    assert favour(game, after, 0) - favour(game, s, 0) == 2


def test_LN_D8_variant_platform_per_matching_edge():
    """LN-D8 variant file: LN-X2's tile 34 has two matching edges: 2 + 1 = 3 favour."""
    g = rules("platform-per-matching-edge")
    s, after = example_x2(g)
    assert favour(g, after, 0) - favour(g, s, 0) == 3
    s, after = example_x1(g)                      # one matching edge: as in the base
    assert favour(g, after, 0) - favour(g, s, 0) == 1


@pytest.mark.parametrize("name", sorted(VARIANT_FILES))
def test_variant_file_turns_exactly_its_switch(name):
    """Each variant file is the base with one decision of §5 turned (LN-D1, LN-D2, LN-D8)."""
    g = rules(name)
    assert g.options == {**DEFAULTS, **VARIANT_FILES[name]}
    assert g.name.startswith("Lanterns (") and (g.min_players, g.max_players) == (2, 4)


def test_every_variant_file_is_listed():
    assert shipped_variants(VARIANTS, "lanterns") == set(VARIANT_FILES)


def test_every_switch_is_an_option(game):
    """LN-D2, LN-D8: the switches are options of the base."""
    assert game.options == DEFAULTS
    g = load_rulebook("lanterns", options={"facing_first": True})
    s, after = example_x2(g)
    assert gains(g, s, after)[3] == (Counter(["green"]), 0)


# == whole games ==============================================================================

def test_counts_are_conserved_at_every_step(playouts):
    """LN-S3, LN-S5, LN-D4: 56 lantern cards (8 a colour) across box, supply
    and players; 20 favour across supply and players; 36 tiles; every
    component in one zone."""
    for po in playouts:
        g, n = po.g, po.n
        for s in po.states:
            check_consistent(g, s)
            total = cards(g, s, "box") + sum((cards(g, s, f"supply({c})") for c in COLOURS),
                                             Counter()) + sum((held(g, s, p) for p in range(n)),
                                                              Counter())
            assert total == Counter({c: 8 for c in COLOURS})
            assert var(g, s, "favour_supply") + sum(favour(g, s, p) for p in range(n)) == 20
            tiles = sum(len(names(g, s, z)) for z in ["tile_stack", "left_out", "lake"]
                        + [f"tiles({p})" for p in range(n)])
            assert tiles == 36
            assert len(names(g, s, "left_out")) == 35 - TILES_USED[n]


def test_LN_G1_P5_the_lake_is_connected_cells(playouts):
    """LN-G1, LN-P5: every lake tile lies on its own cell, each next to another."""
    for po in playouts:
        g = po.g
        lay = g.program(po.n).lay
        for s in po.states[::3] + [po.states[-1]]:
            spots = [s.vars[lay.has["spot"][c]] for c in s.zones[zone_index(g, s, "lake")]]
            assert len(set(spots)) == len(spots)
            if len(spots) > 1:
                assert all(set(neighbours(c)) & set(spots) for c in spots)


def test_LN_P4_D5_never_above_twelve_at_a_placement(playouts):
    """LN-P4, LN-D5: after step 3 the player to place holds at most 12 cards;
    a discard leaves exactly 12."""
    for po in playouts:
        g = po.g
        for s, a, nxt in po.steps():
            if a.name == "place":
                assert sum(held(g, s, a.player).values()) <= 12
            if a.name == "discards":
                assert sum(held(g, nxt, a.player).values()) == 12


def test_the_games_end(playouts):
    for po in playouts:
        out = po.g.outcome(po.states[-1])
        assert out is not None and len(out.scores) == po.n


# == the spec and this file ===================================================================

def test_every_rule_id_of_the_spec_is_named_by_a_test():
    """Promise 8: every rule ID and worked example of the spec is named by a
    test of this file (its name, a parameter id or its docstring)."""
    assert unnamed_rule_ids(SPEC, "LN", sys.modules[__name__]) == []
