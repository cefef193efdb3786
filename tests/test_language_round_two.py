"""What the primitives of the language's second round do when a game runs:
each has a rulebook of its own under tests/language/ (checked there as data:
it loads, and starts for every player count); here its games are played and
what the primitive computed is checked against plain Python."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from interpreter.errors import RuleLoop
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir

from tests.scenario import names

LANGUAGE = Path(__file__).resolve().parent / "language"


def load(name: str) -> Game:
    path = LANGUAGE / name
    return Game(compile_ir(path.read_text(encoding="utf-8"), path.name, path.parent))


def played(game: Game, players: int, seed: int):
    """A random game to its end: every state, the last one over."""
    rng, state = random.Random(seed), game.new_game(players, seed=seed)
    states = [state]
    while game.outcome(state) is None:
        (player,) = game.to_move(state)[:1]
        state = game.apply(state, rng.choice(list(game.legal_actions(state, player))))
        states.append(state)
    return states


# -- combinations(xs, k) and slices xs[A to B] --------------------------------------

def _values(game, state, ref) -> list:
    return [int(n[1:]) for n in names(game, state, ref)]


@pytest.mark.parametrize("seed", range(6))
def test_combinations_and_slices_score_as_python_counts_them(seed):
    game = load("valid-combinations-and-slices.rules")
    end = played(game, 2, seed)[-1]
    for p in range(2):
        hand, line = _values(game, end, f"hand({p})"), _values(game, end, f"line({p})")
        runs = sum(1 for t in itertools.combinations(hand, 3)
                   if max(t) - min(t) == 2 and len(set(t)) == 3)
        best_three = sum(sorted(hand, reverse=True)[0:3])
        assert game.scores(end)[p] == best_three + runs + sum(line[0:2])


def test_combinations_past_the_budget_stop_with_rule_loop():
    text = ('game "X"\nplayers 2\nphase play\n  end game\nscoring\n'
            '  score = size(combinations(1 to 60, 30))\n')
    game = Game(compile_ir(text, "many.rules", LANGUAGE))
    state = game.new_game(2, seed=0)
    with pytest.raises(RuleLoop):
        game.scores(state)


# -- a library of rulebooks, and the rules for players --------------------------

def _copy_library(tmp_path, marker: bool) -> Path:
    import shutil
    folder = tmp_path / "games"
    shutil.copytree(LANGUAGE / "library", folder)
    if not marker:
        (folder / "rulebooks.toml").unlink()
    return folder


def test_a_variant_in_the_shipped_layout_reads_its_base_inside_its_library(tmp_path):
    from interpreter import load_rulebook
    folder = _copy_library(tmp_path, marker=True)
    game = load_rulebook(str(folder / "variants" / "dice-short.rules"))
    assert game.name == "Dice Race"
    assert len(played(game, 2, 0)) == 3      # one round: two rolls


def test_without_a_library_the_base_outside_the_folder_is_refused_until_named(tmp_path):
    from interpreter import load_rulebook
    from interpreter.errors import RulebookErrors
    folder = _copy_library(tmp_path, marker=False)
    variant = str(folder / "variants" / "dice-short.rules")
    with pytest.raises(RulebookErrors) as refused:
        load_rulebook(variant)
    (error,) = refused.value.errors
    assert error.code == "rulebook/file" and "rulebooks.toml" in error.hint
    assert error.span.line == 3
    assert load_rulebook(variant, library=str(folder)).name == "Dice Race"


def test_the_command_line_names_a_library(tmp_path, capsys):
    from interpreter.terminal import cli
    folder = _copy_library(tmp_path, marker=False)
    variant = str(folder / "variants" / "dice-short.rules")
    assert cli.main(["validate", variant]) == 1
    assert cli.main(["validate", variant, "--library", str(folder)]) == 0
    assert cli.main(["rules", variant, "--library", str(folder)]) == 0
    assert "highest total wins" in capsys.readouterr().out
    assert cli.main(["validate", variant, "--library", str(folder / "nothing")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_player_rules_beside_the_rulebook_a_line_naming_them_and_a_variants_base(tmp_path):
    from interpreter.presentation.rules import rules_file, rules_text
    folder = _copy_library(tmp_path, marker=True)
    assert rules_file(str(folder / "dice.rules")) == (folder / "dice.md").resolve()
    assert rules_file(str(folder / "variants" / "dice-short.rules")) == (folder / "dice.md").resolve()
    named = LANGUAGE / "valid-player-rules.rules"
    assert rules_file(str(named)) == (LANGUAGE / "data" / "coin-rules.md").resolve()
    assert "Nobody flips" in rules_text(str(named))
    (folder / "dice.md").unlink()
    assert rules_file(str(folder / "variants" / "dice-short.rules")) is None


# -- reveal WHAT to WHO -------------------------------------------------------------

def _take(game, state, text: str):
    (player,) = game.to_move(state)
    (action,) = [a for a in game.legal_actions(state, player) if str(a) == text]
    return game.apply(state, action)


def _zone(view, name: str, owner: int) -> dict:
    (entry,) = [z for z in view["zones"] if z["name"] == name and z["owner"] == owner]
    return entry


def test_a_hand_revealed_to_one_player_is_seen_by_that_player_alone():
    game = load("valid-reveal-to.rules")
    state = _take(game, game.new_game(3, seed=4), "peek P2")
    from interpreter.runtime.views import natural
    hand = sorted(names(game, state, "hand(2)"))
    assert _zone(game.view(state, 0), "hand", 2)["revealed"] == sorted(hand, key=natural)
    for viewer in (1, None):
        assert "revealed" not in _zone(game.view(state, viewer), "hand", 2)
    told = {p: [e["text"] for e in game.view(state, p)["events"]] for p in range(3)}
    assert told[0] == [f"revealed to P0 in hand(P2): {' '.join(hand)}", "revealed to P0 in hand(P2): 2 pieces"]
    assert told[1] == told[2] == ["revealed to P0 in hand(P2): 2 pieces"]


def test_a_card_shown_to_several_players_and_the_determinizations_keep_it_in_place():
    from interpreter.runtime.information import sample_state
    game = load("valid-reveal-to.rules")
    state = game.new_game(3, seed=1)
    (card,) = names(game, state, "hand(0)")[:1]
    state = _take(game, state, f"show {card}")
    for viewer, sees in ((0, False), (1, True), (2, True), (None, False)):
        assert (_zone(game.view(state, viewer), "hand", 0).get("revealed") == [card]) is sees
    rng = random.Random(0)
    for viewer in (1, 2):
        info = game.view(state, viewer)["info"]
        for _ in range(20):
            assert card in names(game, sample_state(game, info, rng), "hand(0)")
    # what P0 knows of whom it showed: nothing, in its information state
    assert game.view(state, 0)["info"]["revealed"] == []


def test_a_revealed_card_that_moves_is_hidden_again_and_a_save_keeps_who_saw_what():
    game = load("valid-reveal-to.rules")
    state = _take(game, game.new_game(2, seed=3), "peek P1")
    again = game.state_from_json(game.state_to_json(state))
    assert game.view(again, 0) == game.view(state, 0) and game.view(again, 1) == game.view(state, 1)
    saved = game.state_to_json(state)["state"]["revealed"]
    assert sorted(map(str, saved)) == sorted(["[0]", "[0]"] + ["False"] * (len(saved) - 2))
    state = _take(game, state, f"play {names(game, state, 'hand(1)')[0]}")
    assert _zone(game.view(state, 0), "hand", 1).get("revealed") == names(game, state, "hand(1)")
    assert sum(1 for r in state.revealed if r) == 1


def test_a_reveal_to_no_seat_of_the_game_stops_with_a_rule_error():
    from interpreter.errors import RuleError
    text = ('game "X"\nplayers 2\ncomponent card\n  | name |\n  | a |\n'
            'zone hand of each player: card, owner\nsetup\n  move all card to hand(0)\n'
            '  reveal hand(0) to size(hand(0)) + 4\nphase play\n  end game\nscoring\n  score = 0\n')
    game = Game(compile_ir(text, "seat.rules", LANGUAGE))
    with pytest.raises(RuleError, match="cannot reveal to P5") as stopped:
        game.new_game(2, seed=0)
    assert stopped.value.span.line == 9


# -- variables of two indices -------------------------------------------------------

@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2)])
def test_a_variable_of_each_player_and_column_keeps_one_value_per_pair(players, seed):
    game = load("valid-two-index-variables.rules")
    heights = {"c2": 3, "c3": 5, "c4": 7}
    progress = {(p, c): 0 for p in range(players) for c in heights}
    rng, state = random.Random(seed), game.new_game(players, seed=seed)
    while game.outcome(state) is None:
        (player,) = game.to_move(state)
        actions = list(game.legal_actions(state, player))
        # a column is offered while the player has not claimed it
        assert sorted(str(a).split()[1] for a in actions) == \
            sorted(c for c in heights if progress[player, c] < heights[c])
        action = rng.choice(actions)
        progress[player, str(action).split()[1]] += 1
        state = game.apply(state, action)
    for p in range(players):
        claimed = sum(1 for c in heights if progress[p, c] >= heights[c])
        assert game.scores(state)[p] == sum(progress[p, c] for c in heights) + 10 * claimed
    shown = game.view(state, 0)["player_variables"]
    assert shown["progress(c3)"] == {f"P{p}": progress[p, "c3"] for p in range(players)}


# -- move N of ZONE [where …] ---------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_move_n_of_the_pieces_that_pass_takes_the_topmost_as_a_deal_does(seed):
    game = load("valid-move-some.rules")
    state = game.new_game(3, seed=seed)
    assert [len(names(game, state, f"hand({p})")) for p in range(3)] == [4, 4, 4]
    for k in (3, 1, 2):
        (player,) = game.to_move(state)
        hand, deck = names(game, state, f"hand({player})"), names(game, state, "deck")
        reds = [c for c in hand if c.startswith("r")]
        high = [c for c in deck if int(c[1:]) >= 5]
        state = _take(game, state, f"keep_reds {k}")
        assert names(game, state, f"reds({player})") == reds[max(0, len(reds) - k):][::-1]
        assert names(game, state, "discard")[-1:] == high[-1:]


# -- computed columns ---------------------------------------------------------------

def _bullheads(value: int) -> int:
    return 7 if value == 55 else 5 if value % 11 == 0 else 3 if value % 10 == 0 \
        else 2 if value % 5 == 0 else 1


@pytest.mark.parametrize("seed", range(3))
def test_a_computed_column_holds_the_formula_of_each_row(seed):
    game = load("valid-computed-columns.rules")
    end = played(game, 3, seed)[-1]
    for p in range(3):
        values = _values(game, end, f"taken({p})")
        heavy_low = sum(1 for v in values if _bullheads(v) >= 3 and v <= 52)
        assert game.scores(end)[p] == sum(map(_bullheads, values)) + heavy_low
    lay = game.program(3).lay
    assert [lay.static["bullheads"][lay.instances[f"c{v}"]] for v in (55, 22, 30, 15, 7)] == \
        [7, 5, 3, 2, 1]
    assert lay.static["band"][lay.instances["c60"]] == "high"


# -- optional parameters: one of … or none -------------------------------------------

def test_an_optional_parameter_lists_none_last_as_no_name_and_a_requires_can_force_a_target():
    game = load("valid-optional-parameters.rules")
    state = game.new_game(3, seed=1)
    assert [str(a) for a in game.legal_actions(state, 0)] == ["strike P1", "strike P2", "hide"]
    state = _take(game, _take(game, _take(game, state, "hide"), "hide"), "hide")
    # everybody else is protected: the card is played with no target, and hits nobody
    assert [str(a) for a in game.legal_actions(state, 0)] == ["strike no target", "hide"]
    typed = game.parse_action(state, 0, "Strike  no target")
    after = game.apply(state, typed)
    assert game.view(after, 0)["player_variables"]["hits"] == {"P0": 0, "P1": 0, "P2": 0}
    # the fixed action space of the adapters has the option too, with its text
    space = game.action_space(3)
    ids = space.legal_ids(state, 0)
    assert sorted(space.text(i) for i in ids) == ["hide", "strike no target"]
    assert space.legal_action(state, 0, ids[0]) in game.legal_actions(state, 0)


@pytest.mark.parametrize("seed", range(4))
def test_none_is_offered_as_the_rules_say_and_hits_nobody(seed):
    game = load("valid-optional-parameters.rules")
    rng, state = random.Random(seed), game.new_game(4, seed=seed)
    hits, protected = [0] * 4, [False] * 4
    while game.outcome(state) is None:
        (player,) = game.to_move(state)
        protected[player] = False
        texts = [str(a) for a in game.legal_actions(state, player)]
        open_ = [q for q in range(4) if q != player and not protected[q]]
        assert texts == [f"strike P{q}" for q in open_] + (["strike no target"] if not open_
                                                          else []) + ["hide"]
        text = rng.choice(texts)
        if text == "hide":
            protected[player] = True
        elif text != "strike no target":
            hits[int(text[-1])] += 1
        state = _take(game, state, text)
    assert game.scores(state) == tuple(-h for h in hits)


# -- procedures -----------------------------------------------------------------------

def _cost(name: str) -> int:
    return int(name[1:])


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2)])
def test_a_procedure_does_its_steps_for_each_caller_and_waits_at_its_decision(players, seed):
    game = load("valid-procedures.rules")
    rng, state = random.Random(seed), game.new_game(players, seed=seed)
    coins, bought, suspended = [6] * players, [0] * players, 0
    while game.outcome(state) is None:
        (player,) = game.to_move(state)
        texts = [str(a) for a in game.legal_actions(state, player)]
        if texts[0].startswith("refund"):       # inside the purchase, after a buy
            suspended += 1
            assert coins[player] < 0
            # a save in the middle of a procedure loads back, frames checked
            again = game.state_from_json(game.state_to_json(state))
            assert [str(a) for a in game.legal_actions(again, player)] == texts
            text = rng.choice(texts)
            coins[player] += _cost(text.split()[1])
        else:
            text = rng.choice(texts)
            market = names(game, state, "market")
            card = min(market, key=_cost) if text == "buy_cheapest" else text.split()[1]
            coins[player] -= _cost(card)
            bought[player] += 1
        state = _take(game, state, text)
    assert game.scores(state) == tuple(c + 2 * b for c, b in zip(coins, bought))
    assert suspended > 0            # the refund, asked inside the procedure


def test_procedures_are_refused_when_unknown_miscalled_circular_or_jumping():
    from interpreter.errors import RulebookErrors
    text = '''game "X"
players 2
procedure a(k: number)
  do b
procedure b
  do a(1)
  go to play
phase play
  do a
  do c(1)
  do a("many")
scoring
  score = 0
'''
    with pytest.raises(RulebookErrors) as refused:
        compile_ir(text, "p.rules", LANGUAGE)
    found = sorted((e.code, e.span.line) for e in refused.value.errors)
    assert found == [("rulebook/arity", 9), ("rulebook/invalid", 7), ("rulebook/recursion", 4),
                     ("rulebook/unknown-name", 10)]


# -- display declarations ---------------------------------------------------------------

def test_a_zone_by_a_column_groups_by_the_column_not_a_define_of_its_name():
    game = load("valid-display-column-before-define.rules")
    end = played(game, 2, 0)[-1]
    groups = {tuple(z["groups"][i][1]) : z["groups"][i][0] for z in game.view(end, 0)["zones"]
              if z["name"] == "bought" for i in range(len(z["groups"]))}
    lay = game.program(2).lay
    assert groups and all(value == lay.static["bonus"][lay.instances[cards[0]]]
                          for cards, value in groups.items())


# -- bookkeeping variables ----------------------------------------------------------------

def test_a_bookkeeping_variable_is_in_the_state_and_the_observation_but_in_no_view():
    game = load("valid-bookkeeping.rules")
    states = played(game, 3, 0)
    end = states[-1]
    lay = game.program(3).lay
    assert end.vars[lay.variables["steps"].base] == 4
    assert game.scores(end) == (0 + 3, 1, 2)
    for state in states:
        for viewer in (0, 1, 2, None):
            view = game.view(state, viewer)
            assert "steps" not in view["variables"] and "mover" not in view["variables"]
            assert "total" in view["player_variables"]
            assert view["components"]["token"] == [{"name": "t1", "worth": 1}]
    assert any(name.startswith("steps") for name in game.observation_spec(3).names)
    told = game.changes(states[1], states[2], 0)
    assert told == ["total: P1 0 → 1"]
