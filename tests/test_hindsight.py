"""A log with hindsight (`Game.log`): a hidden action reads `NAME ?` to the
other players until the table reveals it to them, and in full from then on —
only when the viewer can tell which pieces were the action's, and only to
the viewers who saw the reveal."""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from interpreter.errors import RulebookErrors, SaveError


def played(game, players, seed, until=None):
    """(states, actions) of a seeded random game, to its end or until
    `until(state)` holds."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    states, actions = [state], []
    while game.outcome(state) is None and not (until and until(state)):
        player = game.to_move(state)[0]
        action = rng.choice(list(game.legal_actions(state, player)))
        state = game.apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


def texts(game, states, actions, viewer, name):
    """[(actual text, text in the viewer's log)] of the other players' `name` actions."""
    log = game.log(states, actions, viewer)
    return [(str(a), t) for a, t in zip(actions, log) if a.name == name and a.player != viewer]


@pytest.fixture(scope="module")
def hanamikoji():
    return load_rulebook("hanamikoji")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_HK_E1_the_secret_card_reads_in_full_once_the_round_reveals_it(hanamikoji, seed):
    states, actions = played(hanamikoji, 2, seed)
    for viewer in (0, 1):
        secrets = texts(hanamikoji, states, actions, viewer, "secret")
        assert secrets and all(shown == actual for actual, shown in secrets)
        # the trade-off cards are never turned over (HK-S4): they stay hidden
        trade_offs = texts(hanamikoji, states, actions, viewer, "trade_off")
        assert trade_offs and all(shown == "trade_off ?" for _, shown in trade_offs)
    # the player who took it always reads it
    own = hanamikoji.log(states, actions, 0)
    assert all(t == str(a) for a, t in zip(actions, own) if a.player == 0)


def test_HK_E1_before_the_round_ends_the_secret_stays_hidden(hanamikoji):
    states, actions = played(hanamikoji, 2, 4, until=lambda s: s.round > 1 or any(
        e.get("event") == "reveal" for e in s.events))
    # stop before the reveal: drop the transition that made it
    states, actions = states[:-1], actions[:-1]
    secrets = texts(hanamikoji, states, actions, 1, "secret") + \
        texts(hanamikoji, states, actions, 0, "secret")
    assert secrets and all(shown == "secret ?" for _, shown in secrets)


def test_HK_D3_the_variant_that_reveals_the_trade_off_shows_it_in_the_log():
    game = load_rulebook("hanamikoji", options={"reveal_trade_off_at_round_end": True})
    states, actions = played(game, 2, 1)
    trade_offs = texts(game, states, actions, 1, "trade_off")
    assert trade_offs and all(shown == actual for actual, shown in trade_offs)


def test_FL_P2_picks_and_FL_P6_character_colours_read_in_full_after_the_reveal():
    game = load_rulebook("festival-of-lights")
    states, actions = played(game, 3, 2)
    log = game.log(states, actions, 0)
    hidden = [(str(a), t) for a, t in zip(actions, log) if a.player != 0 and t != str(a)]
    assert hidden == []
    picks = texts(game, states, actions, 0, "pick")
    assert picks and all(shown == actual for actual, shown in picks)
    # while the others have not all picked, a pick is still hidden
    first = next(k for k, a in enumerate(actions) if a.player != 0)
    assert game.log(states[:first + 2], actions[:first + 1], 0)[first].endswith("?")


def test_FL_P6_a_reveal_of_a_choice_of_values_is_an_event_naming_the_players():
    game = load_rulebook("festival-of-lights")
    states, _ = played(game, 3, 2)
    events = [e for s in states for e in s.events if e.get("choice") == "character_on"]
    assert events, "no character was played in this game"
    assert all(e["event"] == "reveal" and e["players"] and e["text"].startswith(
        "revealed character_on: P") for e in events)


def test_cards_passed_on_are_never_turned_over_so_they_stay_hidden():
    # the receiver sees what arrived, but no rule reveals the pass itself,
    # and what lies where at the next decision proves nothing about it
    game = load_rulebook("hearts")
    states, actions = played(game, 4, 1, until=lambda s: s.round > 1)
    passed = [(k, a) for k, a in enumerate(actions) if a.name.startswith("pass")]
    assert passed
    logs = {v: game.log(states, actions, v) for v in range(4)}
    for k, a in passed:
        assert all(logs[v][k] == (str(a) if v == a.player else a.text_for(v)) for v in range(4))


def test_SM_S4_the_tiles_kept_behind_the_screen_stay_hidden():
    game = load_rulebook("samurai")
    states, actions = played(game, 3, 1, until=lambda s: s.decisions > 30)
    keeps = texts(game, states, actions, 0, "keep")
    assert keeps and all(shown == "keep ?" for _, shown in keeps)


FACE_DOWN = """\
game "Face down"
players 2
component card
  | name |
  | a    |
  | b    |
  | c    |
  | d    |
  | e    |
  | f    |
zone deck: card, hidden, ordered
zone hand of each player: card, owner
zone pile: card, hidden
zone secret of each player: card, owner
setup
  move all card to deck
  shuffle deck
  for each p in players
    deal 3 from deck to hand(p)
phase play
  0 takes an action from hide
  1 takes an action from hide
  0 takes an action from drop
  1 takes an action from drop
  reveal pile
  for each p in players
    reveal secret(p)
  move all card to deck
  shuffle deck
  deal 1 from deck to hand(1)
  1 takes an action from drop
action hide(c: one of hand(me)) private
  move c to secret(me)
action drop(c: one of hand(me)) private
  move c to pile
scoring
  score = 0
"""


@pytest.fixture
def face_down(tmp_path):
    path = tmp_path / "face-down.rules"
    path.write_text(FACE_DOWN, encoding="utf-8")
    return load_rulebook(str(path))


def test_only_a_card_the_viewer_can_tell_apart_is_shown(face_down):
    states, actions = played(face_down, 2, 5, until=lambda s: s.decisions == 4)
    log = face_down.log(states, actions, 1)
    # P0's card turned over alone in its secret zone: in full, though the
    # rules put it back into the deck before anybody decided again
    assert log[0] == str(actions[0])
    # P0's card dropped on a pile that was turned over with P1's: hidden
    assert log[2] == "drop ?"
    # and the spectator, who saw the same reveals, reads both secrets
    assert face_down.log(states, actions, None) == [*map(str, actions[:2]), "drop ?", "drop ?"]


SHUFFLED_BACK = FACE_DOWN.replace("""  reveal pile
  for each p in players
    reveal secret(p)
  move all card to deck
  shuffle deck
  deal 1 from deck to hand(1)
""", """  move all card to deck
  shuffle deck
  deal 6 from deck to hand(1)
""")


def test_a_card_shuffled_back_and_dealt_to_the_viewer_stays_hidden(tmp_path):
    path = tmp_path / "shuffled.rules"
    path.write_text(SHUFFLED_BACK, encoding="utf-8")
    game = load_rulebook(str(path))
    states, actions = played(game, 2, 5, until=lambda s: s.decisions == 4)
    # P1 now holds every card, P0's among them, and cannot tell which they were
    assert all(game.view(states[-1], 1)["zones"])
    assert [t for a, t in zip(actions, game.log(states, actions, 1)) if a.player == 0] == \
        ["hide ?", "drop ?"]


def test_the_log_of_a_replayed_game_reads_the_same(hanamikoji):
    states, actions = played(hanamikoji, 2, 6)
    again = [hanamikoji.new_game(players=2, seed=6)]
    for a in actions:
        again.append(hanamikoji.apply(again[-1], a))
    loaded = [hanamikoji.state_from_json(hanamikoji.state_to_json(s)) for s in again]
    assert hanamikoji.log(loaded, actions, 1) == hanamikoji.log(states, actions, 1)


def test_reveal_takes_pieces_a_zone_or_picks(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(FACE_DOWN.replace("  reveal pile\n", "  reveal 3\n"), encoding="utf-8")
    with pytest.raises(RulebookErrors) as err:
        load_rulebook(str(path))
    assert "reveal shows pieces, a zone or the picks" in str(err.value)
    assert ":13:" in str(err.value.errors[0].span) or err.value.errors[0].span is not None


def test_a_saved_pick_reveal_event_is_read_back_and_a_damaged_one_refused():
    game = load_rulebook("festival-of-lights")
    states, _ = played(game, 3, 2)
    state = next(s for s in states if any(e.get("choice") for e in s.events))
    data = game.state_to_json(state)
    assert game.state_to_json(game.state_from_json(data)) == data
    events = data["state"]["events"]
    k = next(i for i, e in enumerate(events) if e.get("choice"))
    events[k]["players"] = ["P1"]
    with pytest.raises(SaveError):
        game.state_from_json(data)


def test_the_ids_a_reveal_keeps_for_the_log_stay_out_of_every_view(hanamikoji):
    states, _ = played(hanamikoji, 2, 1)
    state = next(s for s in states if any(e.get("event") == "reveal" for e in s.events))
    assert any("pieces" in e for e in state.events)
    for viewer in (0, 1, None):
        view = hanamikoji.view(state, viewer)
        assert view["events"] and all("pieces" not in e for e in view["events"])
        assert all("pieces" not in e for e in view["info"]["events"])


def _log_session(name, seed, lines, width, tmp_path):
    """What the table prints for `lines` typed after the end of a seeded
    random game, P0 at the device."""
    import io
    from rich.console import Console
    from interpreter.terminal.repl import Quit, Repl

    game = load_rulebook(name)
    states, actions = played(game, game.max_players, seed)
    out = io.StringIO()
    typed = iter([*lines, "quit", "no"])
    repl = Repl(game, players=game.max_players, seed=seed, input_fn=lambda prompt: next(typed),
                console=Console(file=out, width=width, color_system=None),
                ai={p: "random" for p in range(1, game.max_players)}, save_dir=str(tmp_path))
    repl.states, repl.actions, repl.shown_to = states, actions, 0
    with pytest.raises(Quit):
        repl.after_the_end()
    return actions, out.getvalue()


def test_the_tables_log_reads_with_hindsight(tmp_path):
    actions, text = _log_session("hanamikoji", 3, ["log"], 120, tmp_path)
    secrets = [f"P1: {a}" for a in actions if a.player == 1 and a.name == "secret"]
    assert secrets and all(s in text for s in secrets)          # revealed at the round's end
    assert "P1: trade_off ?" in text


def test_the_tables_log_shows_the_latest_that_fit_a_screen_or_all(tmp_path):
    from interpreter.terminal.repl import LOG_ROWS

    actions, text = _log_session("othello", 1, ["log", "log all", "log everything"], 30,
                                 tmp_path)
    assert len(actions) > LOG_ROWS
    short, every = text.split("log all' for every one):\n", 1)[1].split(" 1. P0: ", 1)
    assert f"The last {LOG_ROWS} of {len(actions)} actions" in text
    assert len(short.splitlines()) == LOG_ROWS                  # one column of the latest
    assert f"{len(actions)}. " in short and f"{len(actions) - LOG_ROWS}. " not in short
    assert f"{len(actions)}. " in every                          # 'log all': every one
    assert "error[command/usage]" in text                        # 'log everything'
