"""A save cannot lie: `Game.state_from_json` refuses every state that no game
of the rules can reach with save/corrupt, naming the field, and any state it
accepts plays on to the end with no error but the project's own.

Each shipped rulebook (rulebooks/*.rules) is played to a real mid-game
moment, saved, and the save is damaged in two ways: by each kind of
corruption below (a field of the wrong type or range, a card moved between
zones, flow frames the program cannot hold, …), every one of which must be
refused; and by seeded random edits of one field each, which must be
refused or lead to a state the engine plays from to its end (random moves
through `legal_actions` and `apply`, views of every seat, then
`game.playout`). Nothing here knows a game: each kind finds what it needs
in the program's layout and flow, and is skipped where a rulebook has none.

A save file (the REPL's) names its rulebook too: `play --load` opens it only
from the shipped library, and refuses any other unopened with save/rulebook.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import RulebookError, SaveError
from interpreter.runtime.decisions import EachChooses
from interpreter.runtime.statements import RepeatTimes

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = sorted((ROOT / "rulebooks").glob("*.rules"))
EDITS = 150               # random single-field edits per rulebook
PLAY_STEPS = 4            # moves through the API after a damaged save is accepted

_games: dict = {}


def mid_game(path: Path):
    """(game, state, save): a moment in the middle of a seeded random game,
    one where a frame of the flow holds local names if the game has one."""
    if path not in _games:
        g = load_rulebook(str(path))
        s = g.new_game(players=g.min_players, seed=3)
        rng = random.Random(3)
        seen = []
        while not s.over and len(seen) < 80:
            seen.append(s)
            actions = g.legal_actions(s, s.pending[0])
            s = g.apply(s, actions[rng.randrange(len(actions))])
        later = seen[1:] or seen
        with_locals = [t for t in later if any(f[2] for f in t.frames)] or later
        s = with_locals[len(with_locals) // 2]
        _games[path] = (g, s, json.loads(json.dumps(g.state_to_json(s))))
    return _games[path]


# -- the kinds of corruption ------------------------------------------------------------
# Each takes (game, state, a copy of the save) and damages the copy in place,
# returning the name of the field the refusal must name, or None where the
# rulebook offers nothing to damage that way.

KINDS: dict = {}


def kind(fn):
    KINDS[fn.__name__] = fn
    return fn


def program(g, s):
    return g.program(s.n)


def slots_of(g, s, wanted) -> list:
    """The variable slots whose declared kind passes `wanted`."""
    lay = program(g, s).lay
    found = [v.base + k for v in lay.variables.values() if wanted(v.type) for k in range(v.count)]
    for name, column in lay.has.items():
        if wanted(lay.has_type[name]):
            found.extend(slot for slot in column if slot >= 0)
    return sorted(found)


def first_card(s):
    """(zone index, position, component) of a component in a zone."""
    for i, z in enumerate(s.zones):
        if z:
            return i, len(z) - 1, z[-1]
    return None


def same_type_zone(g, s, i):
    """Another zone that holds the type of zone i."""
    ranges = program(g, s).machine.zone_range
    return next((j for j in range(len(s.zones)) if j != i and ranges[j] == ranges[i]), None)


# the simplest kinds: one field of the state set to a value it cannot hold
# (name, field, its value from the state, the field the refusal must name)
SET_FIELD = [
    ("players_count", "players", lambda s: s.n + 1, "state"),
    ("players_text", "players", lambda s: str(s.n), "state.players"),
    ("pending_out_of_range", "pending", lambda s: [s.n], "state.pending"),
    ("pending_wrong_player", "pending", lambda s: [(s.pending[0] + 1) % s.n], "state.pending"),
    ("pending_empty", "pending", lambda s: [], "state.pending"),
    ("pending_twice", "pending", lambda s: list(s.pending) * 2, "state.pending"),
    ("pending_text", "pending", lambda s: [str(p) for p in s.pending], "state.pending"),
    ("decisions_negative", "decisions", lambda s: -1, "state.decisions"),
    ("decisions_yes", "decisions", lambda s: True, "state.decisions"),
    ("round_text", "round", lambda s: str(s.round), "state.round"),
    ("turn_float", "turn", lambda s: float(s.turn), "state.turn"),
    ("rng_float", "rng", lambda s: 1.5, "state.rng"),
    ("rng_number_not_text", "rng", lambda s: s.rng, "state.rng"),
    ("rng_negative", "rng", lambda s: "-1", "state.rng"),
    ("rng_past_64_bits", "rng", lambda s: str(1 << 64), "state.rng"),
    ("over_text", "over", lambda s: "no", "state.over"),
    ("over_with_a_flow", "over", lambda s: True, "state.frames"),
    ("frames_empty", "frames", lambda s: [], "state.frames"),
    ("state_part_unknown", "cheat", lambda s: 1, "state.cheat"),
]


def _set_field(field, value, named):
    def damage(g, s, d):
        d["state"][field] = value(s)
        return named
    return damage


for _name, _field, _value, _named in SET_FIELD:
    KINDS[_name] = _set_field(_field, _value, _named)


@kind
def card_moved_loc_stale(g, s, d):
    found = first_card(s)
    j = found and same_type_zone(g, s, found[0])
    if j is None:
        return None
    i, k, c = found
    d["state"]["zones"][j].append(d["state"]["zones"][i].pop(k))
    return "state.loc"


@kind
def card_in_two_zones(g, s, d):
    found = first_card(s)
    j = found and same_type_zone(g, s, found[0])
    if j is None:
        return None
    d["state"]["zones"][j].append(found[2])
    return "state.zones"


@kind
def card_twice_in_its_zone(g, s, d):
    if first_card(s) is None:
        return None
    i, _, c = first_card(s)
    d["state"]["zones"][i].append(c)
    return "state.zones"


@kind
def card_in_no_zone(g, s, d):
    if first_card(s) is None:
        return None
    i, k, _ = first_card(s)
    del d["state"]["zones"][i][k]
    return "state.loc"


@kind
def card_of_another_type(g, s, d):
    ranges = program(g, s).machine.zone_range
    for i, (low, high) in enumerate(ranges):
        other = next((c for c in range(len(s.loc)) if not low <= c < high), None)
        if other is not None and low < high:
            if s.loc[other] >= 0:
                d["state"]["zones"][s.loc[other]].remove(other)
            d["state"]["zones"][i].append(other)
            d["state"]["loc"][other] = i
            return f"state.zones[{i}]"
    return None


@kind
def zone_holds_a_name(g, s, d):
    if not s.zones:
        return None
    d["state"]["zones"][0].append("G1")
    return "state.zones"


@kind
def zone_missing(g, s, d):
    if not s.zones:
        return None
    d["state"]["zones"].pop()
    return "state.zones"


@kind
def zone_added(g, s, d):
    d["state"]["zones"].append([])
    return "state.zones"


@kind
def loc_too_short(g, s, d):
    if not s.loc:  # a game without components (no piece to place)
        return None
    d["state"]["loc"].pop()
    return "state.loc"


@kind
def loc_past_the_zones(g, s, d):
    if not s.loc:  # a game without components (no piece to place)
        return None
    d["state"]["loc"][0] = len(s.zones)
    return "state.loc"


@kind
def vars_too_long(g, s, d):
    d["state"]["vars"].append(0)
    return "state.vars"


@kind
def current_player_out_of_range(g, s, d):
    d["state"]["vars"][program(g, s).lay.slot_current] = s.n
    return "state.vars"


@kind
def player_var_negative(g, s, d):
    slots = slots_of(g, s, lambda t: t == "player")
    if not slots:
        return None
    d["state"]["vars"][slots[0]] = -1
    return f"state.vars[{slots[0]}]"


@kind
def number_var_text(g, s, d):
    slots = slots_of(g, s, lambda t: t == "number")
    if not slots:
        return None
    d["state"]["vars"][slots[0]] = "3"
    return f"state.vars[{slots[0]}]"


@kind
def number_var_huge(g, s, d):
    slots = slots_of(g, s, lambda t: t == "number")
    if not slots:
        return None
    d["state"]["vars"][slots[0]] = 10 ** 30
    return f"state.vars[{slots[0]}]"


@kind
def bool_var_number(g, s, d):
    slots = slots_of(g, s, lambda t: t == "bool")
    if not slots:
        return None
    d["state"]["vars"][slots[0]] = 1
    return f"state.vars[{slots[0]}]"


@kind
def component_var_of_another_type(g, s, d):
    lay = program(g, s).lay
    for slot in slots_of(g, s, lambda t: t.startswith("comp:") and t[5:] in lay.types):
        first, count = lay.types[_kind_of(lay, slot)[5:]]
        outside = next((c for c in range(lay.ncomponents) if not first <= c < first + count), None)
        if outside is not None:
            d["state"]["vars"][slot] = outside
            return f"state.vars[{slot}]"
    return None


def _kind_of(lay, slot) -> str:
    for v in lay.variables.values():
        if v.base <= slot < v.base + v.count:
            return v.type
    for name, column in lay.has.items():
        if slot in column:
            return lay.has_type[name]
    return "any"


@kind
def uses_negative(g, s, d):
    limits = program(g, s).lay.limits
    if not limits:
        return None
    base = next(iter(limits.values()))[0]
    d["state"]["vars"][base] = -1
    return f"state.vars[{base}]"


@kind
def any_var_nested_too_deep(g, s, d):
    slots = slots_of(g, s, lambda t: t == "any")
    if not slots:
        return None
    deep: list = []
    for _ in range(100):
        deep = [deep]
    d["state"]["vars"][slots[0]] = deep
    return f"state.vars[{slots[0]}]"


@kind
def revealed_number(g, s, d):
    if not s.revealed:  # a game without components (no piece to place)
        return None
    d["state"]["revealed"][0] = 1
    return "state.revealed"


@kind
def revealed_too_short(g, s, d):
    if not s.revealed:  # a game without components (no piece to place)
        return None
    d["state"]["revealed"].pop()
    return "state.revealed"


@kind
def block_out_of_range(g, s, d):
    d["state"]["frames"][-1][0] = len(program(g, s).machine.blocks)
    return "state.frames"


@kind
def block_negative(g, s, d):
    d["state"]["frames"][0][0] = -1
    return "state.frames[0][0]"


@kind
def block_of_another_frame(g, s, d):
    frames = d["state"]["frames"]
    blocks = program(g, s).machine.blocks
    other = next((b for b in range(len(blocks)) if b != frames[-1][0]
                  and len(blocks[b].stmts) > frames[-1][1]), None)
    if other is None:   # no other block is as long (Yacht decides late in its longest)
        return None
    frames[-1][0] = other
    return "state.frames"


@kind
def step_past_its_block(g, s, d):
    frames = d["state"]["frames"]
    frames[-1][1] = len(program(g, s).machine.blocks[frames[-1][0]].stmts) + 1
    return "state.frames"


@kind
def step_not_at_a_decision(g, s, d):
    frames = d["state"]["frames"]
    stmts = program(g, s).machine.blocks[frames[-1][0]].stmts
    other = next((k for k, x in enumerate(stmts) if not x.suspends), None)
    if other is None:
        return None
    frames[-1][1] = other
    return "state.frames"


@kind
def step_text(g, s, d):
    d["state"]["frames"][-1][1] = "1"
    return "state.frames"


@kind
def locals_not_a_table(g, s, d):
    d["state"]["frames"][-1][2] = []
    return "state.frames"


@kind
def local_never_bound(g, s, d):
    d["state"]["frames"][-1][2]["zz_no_such_name"] = 0
    return "state.frames"


@kind
def local_of_no_kind(g, s, d):
    for k, f in enumerate(d["state"]["frames"]):
        for name in f[2]:
            if not name.startswith("#"):
                f[2][name] = {"a": 1}
                return f"state.frames[{k}][2]"
    return None


@kind
def local_missing(g, s, d):
    for k, f in enumerate(d["state"]["frames"]):
        loop = f[3]
        name = loop[0] if isinstance(loop, list) else ("me" if "me" in f[2] else None)
        if name is not None and name in f[2]:
            del f[2][name]
            return f"state.frames[{k}][2]"
    return None


@kind
def loop_data_broken(g, s, d):
    frames = d["state"]["frames"]
    blocks = program(g, s).machine.blocks
    for k, f in enumerate(frames[1:], 1):
        pusher = blocks[frames[k - 1][0]].stmts[frames[k - 1][1] - 1]
        if isinstance(f[3], list):
            f[3][2] = len(f[3][1])          # past the last item
            return f"state.frames[{k}]"
        if isinstance(pusher, RepeatTimes):
            f[3] = 0                        # no pass left, yet the body runs
            return f"state.frames[{k}]"
    return None


@kind
def phase_number_wrong(g, s, d):
    d["state"]["frames"][0][3] = 99
    return "state.frames[0][3]"


@kind
def frame_dropped(g, s, d):
    del d["state"]["frames"][0]
    return "state.frames"


@kind
def frames_reversed(g, s, d):
    if len(s.frames) < 2:
        return None
    d["state"]["frames"].reverse()
    return "state.frames"


@kind
def frame_doubled(g, s, d):
    d["state"]["frames"].append(copy.deepcopy(d["state"]["frames"][-1]))
    return "state.frames"


@kind
def frame_cut_short(g, s, d):
    d["state"]["frames"][-1] = d["state"]["frames"][-1][:3]
    return "state.frames"


@kind
def picks_damaged(g, s, d):
    f = d["state"]["frames"][-1]
    stmt = program(g, s).machine.blocks[f[0]].stmts[f[1]]
    if isinstance(stmt, EachChooses):
        f[2]["#picks"] = {str(p): "x" for p in f[2]["#picks"]}
    else:
        f[2]["#picks"] = {str(s.pending[0]): None}
    return "state.frames"


@kind
def event_unknown(g, s, d):
    d["state"]["events"] = [{"event": "boom", "text": "boom"}]
    return "state.events[0]"


@kind
def event_text_number(g, s, d):
    d["state"]["events"] = [{"event": "announce", "text": 5}]
    return "state.events[0]"


@kind
def state_part_missing(g, s, d):
    del d["state"]["loc"]
    return "state.loc"


@kind
def state_not_an_object(g, s, d):
    d["state"] = [d["state"]]
    return "state"


@kind
def save_part_unknown(g, s, d):
    d["extra"] = 1
    return "'extra'"


@pytest.mark.parametrize("path", RULEBOOKS, ids=lambda p: p.stem)
def test_every_kind_of_corruption_is_refused_naming_the_field(path):
    g, s, data = mid_game(path)
    assert g.state_from_json(copy.deepcopy(data)) == s
    for name, corrupt in KINDS.items():
        d = copy.deepcopy(data)
        field = corrupt(g, s, d)
        if field is None:
            continue
        with pytest.raises(SaveError) as err:
            g.state_from_json(d)
        assert err.value.code == "save/corrupt", name
        assert field in err.value.message, (name, err.value.message)


def test_the_kinds_are_many_and_each_meets_a_rulebook():
    used = {name: 0 for name in KINDS}
    for path in RULEBOOKS:
        g, s, data = mid_game(path)
        for name, corrupt in KINDS.items():
            used[name] += corrupt(g, s, copy.deepcopy(data)) is not None
    assert len(KINDS) >= 30
    assert [name for name, count in used.items() if not count] == []


# -- random edits of one field -------------------------------------------------------------

ODD_VALUES = (-1, 0, 1, 2, 3, 7, 99, 10 ** 30, -(10 ** 30), 1.5, float("nan"), "x", "", "0",
              None, True, False, [], {}, [0], [[0]], {"a": 1}, str(1 << 64), [None], "P0")


def paths(node, prefix=()):
    """Every place in a JSON value, as the keys and indexes leading to it."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def edited(data, rng):
    """A copy of a save with one field of its state deleted, doubled, nudged
    or replaced."""
    d = copy.deepcopy(data)
    place = rng.choice([p for p in paths(d["state"], ("state",)) if len(p) > 1])
    parent = d
    for key in place[:-1]:
        parent = parent[key]
    key, old = place[-1], parent[place[-1]]
    r = rng.random()
    if r < 0.15:
        del parent[key]
    elif r < 0.25 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(old))
    elif r < 0.5 and type(old) is int:
        parent[key] = old + rng.choice((-2, -1, 1, 2, 5, -100, 1000))
    else:
        parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    return d


def plays_on(g, s, rng) -> None:
    """Views of every seat, a few moves through the API, then a random game
    to the end; only the project's own errors may stop it."""
    try:
        for _ in range(PLAY_STEPS):
            for viewer in list(range(s.n)) + [None]:
                g.view(s, viewer)
            g.scores(s)
            if g.outcome(s) is not None:
                return
            player = g.to_move(s)[0]
            actions = g.legal_actions(s, player)
            s = g.apply(s, actions[rng.randrange(len(actions))])
        end = g.playout(s, rng)
        g.view(end, None)
        g.outcome(end)
    except RulebookError:
        pass            # the rules failed: a coded error, as a rulebook's bug gives


@pytest.mark.parametrize("path", RULEBOOKS, ids=lambda p: p.stem)
def test_random_edits_are_refused_or_play_on(path):
    g, s, data = mid_game(path)
    rng = random.Random(path.stem)
    refused = accepted = 0
    for _ in range(EDITS):
        d = edited(data, rng)
        try:
            t = g.state_from_json(d)
        except SaveError as err:
            assert err.code == "save/corrupt"
            refused += 1
            continue
        accepted += 1
        plays_on(g, t, random.Random(accepted))
    assert refused + accepted == EDITS and refused > EDITS // 2


# -- data that no JSON reader gives -----------------------------------------------------------

def test_nesting_and_numbers_beyond_any_limit_are_refused_not_raised():
    g, s, data = mid_game(RULEBOOKS[0])
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for place, value in ((("vars", 0), deep), (("vars", 0), 10 ** 5000),
                         (("frames", 0, 2), {"x": deep}), (("events",), [deep]),
                         (("rng",), deep), (("pending",), deep), (("players",), 10 ** 5000)):
        d = copy.deepcopy(data)
        parent = d["state"]
        for key in place[:-1]:
            parent = parent[key]
        parent[place[-1]] = value
        with pytest.raises(SaveError) as err:
            g.state_from_json(d)
        assert err.value.code == "save/corrupt"
    for top in (deep, {"format": deep}, {**data, "rulebook": deep}, None, 7, "save"):
        with pytest.raises(SaveError):
            g.state_from_json(top)


def test_a_loaded_state_shares_nothing_with_the_data_it_came_from():
    g, s, data = mid_game(RULEBOOKS[1])
    d = copy.deepcopy(data)
    t = g.state_from_json(d)
    for zone in d["state"]["zones"]:
        zone.clear()
    for f in d["state"]["frames"]:
        f[2].clear()
    assert t == s


# -- the rulebook a save file names ------------------------------------------------------------
# `rulebook play --load SAVE` opens the rulebook the save names only from the
# library (a game's name, or a path that leads into rulebooks/); any other is
# refused with save/rulebook before it is opened, and nothing of it is printed.

def library_game():
    if "library" not in _games:
        _games["library"] = load_rulebook("hanamikoji")
    return _games["library"]


def save_file(tmp_path, rulebook, **fields) -> Path:
    """A save of a game of the library at its first decision that names `rulebook`."""
    g = library_game()
    path = tmp_path / "forged.save.json"
    path.write_text(json.dumps({
        "format": "rulebook-save", "version": 1, "rulebook": rulebook, "game": g.name,
        "options": g.options, "players": 2, "seed": 7, "ai": {}, "history": [],
        "state": g.state_to_json(g.new_game(players=2, seed=7)), **fields}))
    return path


def opened_while(monkeypatch, run) -> list:
    """The paths `run()` opens (os.open and open), as real paths."""
    import builtins
    import io
    import os
    seen: list = []
    real_os_open, real_open = os.open, builtins.open

    def spy_os_open(path, *a, **k):
        seen.append(os.path.realpath(path))
        return real_os_open(path, *a, **k)

    def spy_open(path, *a, **k):
        if isinstance(path, (str, bytes, os.PathLike)):
            seen.append(os.path.realpath(path))
        return real_open(path, *a, **k)
    monkeypatch.setattr(os, "open", spy_os_open)
    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    run()
    monkeypatch.undo()
    return seen


@pytest.fixture
def library(tmp_path, monkeypatch):
    """A library of one game, a link out of it, a FIFO and a folder."""
    import os
    from interpreter.language import files
    lib = tmp_path / "library"
    (lib / "sub.rules").mkdir(parents=True)
    (lib / "game.rules").write_text((ROOT / "rulebooks" / "hanamikoji.rules").read_text())
    (lib / "out.rules").symlink_to("/etc/passwd")
    (lib / "up.rules").symlink_to(ROOT / "rulebooks" / "hanamikoji.rules")
    os.mkfifo(lib / "pipe.rules")
    monkeypatch.setattr(files, "LIBRARY", lib)
    return lib


FORGED_RULEBOOKS = [        # (the rulebook the save names, what the refusal says)
    ("/etc/passwd", "outside the library"),
    ("/proc/self/environ", "outside the library"),
    ("../../../../../../../etc/passwd", "outside the library"),
    ("../" * 40 + "proc/self/environ", "outside the library"),
    ("/tmp", "outside the library"),
    ("/dev/zero", "outside the library"),
    ("/dev/stdin", "outside the library"),
    ("variants", "a folder"),
    ("variants/../../README.md", "outside the library"),
    ("nosuchgame", "no game of the library"),
    ("variants/nosuchgame.rules", "no game of the library"),
]


@pytest.mark.parametrize("rulebook, reason", FORGED_RULEBOOKS)
def test_a_save_naming_a_rulebook_outside_the_library_is_refused_unopened(
        tmp_path, monkeypatch, capsys, rulebook, reason):
    from interpreter.terminal import cli
    path = save_file(tmp_path, rulebook)
    codes = []
    opened = opened_while(monkeypatch, lambda: codes.append(cli.main(["play", "--load", str(path)])))
    out = capsys.readouterr()
    assert codes == [1] and out.out == ""
    assert "error[save/rulebook]" in out.err and reason in out.err, out.err
    assert "rulebook play FILE --load" in out.err
    assert "root:" not in out.err and "PATH=" not in out.err
    import os
    target = os.path.realpath(os.path.join(ROOT / "rulebooks", rulebook))
    assert target not in opened and os.path.realpath(rulebook) not in opened


@pytest.mark.parametrize("rulebook, reason", [
    ("out", "outside the library"), ("out.rules", "outside the library"),
    ("pipe", "a FIFO"), ("sub", "a folder"), ("up", "outside the library")])
def test_a_link_a_fifo_or_a_folder_in_the_library_is_refused(
        library, tmp_path, monkeypatch, capsys, rulebook, reason):
    from interpreter.terminal import cli
    path = save_file(tmp_path, rulebook)
    codes = []
    opened = opened_while(monkeypatch, lambda: codes.append(cli.main(["play", "--load", str(path)])))
    err = capsys.readouterr().err
    assert codes == [1] and "error[save/rulebook]" in err and reason in err, err
    assert "root:" not in err
    assert not any(p in opened for p in ("/etc/passwd", str(library / "pipe.rules")))


def resumed(monkeypatch, argv) -> str:
    """The path of the rulebook `rulebook play … --load` resumes a game of."""
    from interpreter.terminal import cli
    from interpreter.terminal.repl import Repl
    seen = {}

    def run(self):
        seen["path"] = self.game.path
        return 0
    monkeypatch.setattr(Repl, "run", run)
    assert cli.main(argv) == 0
    return seen["path"]


@pytest.mark.parametrize("rulebook", [
    "hanamikoji", "hanamikoji.rules", "variants/../hanamikoji", str(ROOT / "rulebooks" /
                                                                      "hanamikoji.rules")])
def test_a_save_of_a_game_of_the_library_loads_by_its_name(tmp_path, monkeypatch, rulebook):
    path = save_file(tmp_path, rulebook)
    found = resumed(monkeypatch, ["play", "--load", str(path)])
    assert Path(found).resolve() == (ROOT / "rulebooks" / "hanamikoji.rules").resolve()


def test_a_path_into_the_library_from_the_current_folder_loads(tmp_path, monkeypatch):
    path = save_file(tmp_path, "rulebooks/hanamikoji.rules")
    monkeypatch.chdir(ROOT)
    found = resumed(monkeypatch, ["play", "--load", str(path)])
    assert Path(found).resolve() == (ROOT / "rulebooks" / "hanamikoji.rules").resolve()


def test_a_save_of_a_rulebook_elsewhere_loads_when_the_command_line_names_it(
        tmp_path, monkeypatch, capsys):
    from interpreter.terminal import cli
    mine = tmp_path / "mine.rules"
    mine.write_text((ROOT / "rulebooks" / "hanamikoji.rules").read_text())
    path = save_file(tmp_path, str(mine))
    assert cli.main(["play", "--load", str(path)]) == 1
    assert "error[save/rulebook]" in capsys.readouterr().err
    assert Path(resumed(monkeypatch, ["play", str(mine), "--load", str(path)])) == mine
    # the path the user gives is theirs; the one the save holds is not even read then
    forged = save_file(tmp_path, "/etc/passwd")
    assert Path(resumed(monkeypatch, ["play", str(mine), "--load", str(forged)])) == mine


# -- the options a save file holds -------------------------------------------------------------
# read as `--option` reads them, by each option's kind: a forged value is a
# coded save error on `play --load` and on the table's `load`, never a game.

FORGED_OPTIONS = [          # (the options changed, the code of `play --load`)
    ({"reveal_trade_off_at_round_end": "NaN"}, "save/corrupt"),
    ({"reveal_trade_off_at_round_end": None}, "save/corrupt"),
    ({"reveal_trade_off_at_round_end": 1}, "save/corrupt"),
    ({"reveal_trade_off_at_round_end": 1.5}, "save/corrupt"),
    ({"reveal_trade_off_at_round_end": {"x": 1}}, "save/corrupt"),
    ({"reveal_trade_off_at_round_end": "yes"}, "save/mismatch"),
    ({"first_player": "seat_9"}, "save/corrupt"),
    ({"first_player": ["P0"]}, "save/corrupt"),
    ({"first_player": "P0\x1b]52;c;aGk=\x07"}, "save/corrupt"),
    ({"nosuch": 1}, "save/corrupt"),
]


@pytest.mark.parametrize("options, code", FORGED_OPTIONS)
def test_a_save_whose_options_are_of_another_kind_is_refused(tmp_path, capsys, options, code):
    from interpreter.terminal import cli
    from interpreter.presentation.savefile import read_save
    path = save_file(tmp_path, "hanamikoji")
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "options": {**data["options"], **options}}))
    assert cli.main(["play", "--load", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"error[{code}]" in err and "internal" not in err and "\x1b" not in err
    with pytest.raises(SaveError) as refused:        # the table's `load`, into its own game
        read_save(library_game(), str(path))
    assert refused.value.code in ("save/corrupt", "save/mismatch")


def test_a_save_with_a_number_no_json_reader_gives_is_refused(tmp_path, capsys):
    from interpreter.terminal import cli
    path = save_file(tmp_path, "hanamikoji")
    text = path.read_text().replace('"reveal_trade_off_at_round_end": false',
                                    '"reveal_trade_off_at_round_end": NaN')
    assert "NaN" in text
    path.write_text(text)
    assert cli.main(["play", "--load", str(path)]) == 1
    assert "error[save/corrupt]" in capsys.readouterr().err


def test_the_tables_load_reads_a_save_into_its_own_game_and_opens_no_rulebook(
        tmp_path, monkeypatch):
    """`load FILE` at the table replays the save on the game the user
    started, whatever rulebook the save names: that one is never opened."""
    import io
    from rich.console import Console
    from interpreter.terminal.repl import Repl
    path = save_file(tmp_path, "/etc/passwd")
    lines = iter(["", f"load {path}", "", "quit", "n"])

    def typed(prompt):
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None
    out = io.StringIO()
    repl = Repl(library_game(), players=2, seed=7, rulebook="hanamikoji",
                console=Console(file=out, width=200, color_system=None), input_fn=typed,
                save_dir=str(tmp_path))
    opened = opened_while(monkeypatch, repl.run)
    assert f"Loaded {path}" in out.getvalue() and "root:" not in out.getvalue()
    assert "/etc/passwd" not in opened and repl.rulebook == "hanamikoji"
