"""The browser table's server, through Starlette's test client: who may sit
where, what each seat is sent, every message checked, moves, undo by
agreement, saves after every move and a game resumed from one."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from interpreter import load_rulebook  # noqa: E402
from interpreter.presentation.savefile import read_save  # noqa: E402
from interpreter.web import protocol  # noqa: E402
from interpreter.web.server import make_app  # noqa: E402
from interpreter.web.table import Refused, Table, read_tokens, tokens_path  # noqa: E402


@pytest.fixture(scope="module")
def hanamikoji():
    return load_rulebook("hanamikoji")


@pytest.fixture
def table(hanamikoji, tmp_path):
    return Table(hanamikoji, rulebook="hanamikoji", players=2, seed=3,
                 save_path=str(tmp_path / "game.json"), rules="# Rules\nplay well")


@pytest.fixture
def client(table):
    """A test client whose sockets share one event loop, as a server's do."""
    with TestClient(make_app(table)) as client:
        yield client


def seated(client, token):
    ws = client.websocket_connect("/ws")
    socket = ws.__enter__()
    socket.send_text(json.dumps({"type": "hello", "token": token}))
    return ws, socket


def hidden_names(message, zone):
    """The piece names a message's drawings show in the zone instance `zone`."""
    names = []
    for section in message["sections"]:
        root = ET.fromstring(section["svg"])
        names += [e.get("data-token") for e in root.iter()
                  if e.get("data-zone") == zone and e.get("data-token") is not None]
    return names


def test_the_page_is_served_with_headers_that_keep_it_to_itself(table, client):
    page = client.get("/")
    assert page.status_code == 200 and "table.js" in page.text
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/rules").text.startswith("# Rules")
    # no token is in the page: a seat's secret is only the link's '#' part
    assert all(token not in page.text for token in table.tokens.values())


def test_links_carry_a_secret_per_seat_and_for_spectators(table):
    links = dict(table.links("http://127.0.0.1:8000"))
    assert set(links) == {"P0", "P1", "spectators"}
    tokens = {link.split("#", 1)[1] for link in links.values()}
    assert len(tokens) == 3 and all(len(t) >= 32 for t in tokens)
    assert table.seat_of(table.tokens["1"]) == (True, 1)
    assert table.seat_of(table.tokens["spectator"]) == (True, None)
    for wrong in ("", "x" * 32, table.tokens["1"][:-1], None, 7):
        assert table.seat_of(wrong) == (False, None)


def test_each_seat_is_sent_its_own_view_and_nothing_of_the_others(table, client):
    mover = table.game.to_move(table.state)[0]
    other = 1 - mover
    ws_m, me = seated(client, table.tokens[str(mover)])
    ws_o, them = seated(client, table.tokens[str(other)])
    ws_w, watch = seated(client, table.tokens["spectator"])
    mine, theirs, seen = (json.loads(s.receive_text()) for s in (me, them, watch))
    hand = next(z for z in table.game.view(table.state, mover)["zones"]
                if z["name"] == "hand" and z["owner"] == mover)["cards"]
    assert set(hidden_names(mine, f"hand(P{mover})")) == set(hand)   # alike pieces drawn once
    assert hidden_names(theirs, f"hand(P{mover})") == []
    assert hidden_names(seen, "hand(P0)") == [] and hidden_names(seen, "hand(P1)") == []
    assert mine["options"] and theirs["options"] == [] and seen["options"] == []
    # the mover keeps a card secret: the other seat and the spectators read the move without it
    secret = next(o["text"] for o in mine["options"] if o["name"] == "secret")
    me.send_text(json.dumps({"type": "act", "action": secret}))
    after, after_them, after_seen = (json.loads(s.receive_text()) for s in (me, them, watch))
    assert after["log"][0]["text"].startswith(secret)
    for message in (after_them, after_seen):
        assert message["log"][0]["text"].startswith("secret ?")
        assert hidden_names(message, f"secret(P{mover})") == []
    for ws in (ws_m, ws_o, ws_w):
        ws.__exit__(None, None, None)


def test_a_socket_acts_only_for_its_own_seat(table, client):
    mover = table.game.to_move(table.state)[0]
    ws1, p1 = seated(client, table.tokens[str(1 - mover)])
    p1.receive_text()
    move = str(table.game.legal_actions(table.state, mover)[0])
    p1.send_text(json.dumps({"type": "act", "action": move}))
    refused = json.loads(p1.receive_text())
    assert refused["type"] == "refused" and refused["code"] == "action/not-your-turn"
    assert table.actions == []
    wsw, watch = seated(client, table.tokens["spectator"])
    watch.receive_text()
    watch.send_text(json.dumps({"type": "act", "action": move}))
    assert json.loads(watch.receive_text())["code"] == "action/not-your-turn"
    assert table.actions == []
    ws1.__exit__(None, None, None)
    wsw.__exit__(None, None, None)


def test_a_refused_move_is_explained_as_the_repl_explains_it_and_changes_nothing(table, client):
    ws, p0 = seated(client, table.tokens[str(table.game.to_move(table.state)[0])])
    p0.receive_text()
    before = table.state
    p0.send_text(json.dumps({"type": "act", "action": "secret G99"}))
    refused = json.loads(p0.receive_text())
    assert refused["code"] == "action/illegal"
    assert re.match(r"hanamikoji\.rules:\d+:\d+: error\[action/illegal\]", refused["text"])
    assert "^" in refused["text"] and "hint: possible now" in refused["text"]
    assert "/" not in refused["text"].split(":", 1)[0], "the server's paths stay on the server"
    assert table.state is before and table.actions == []
    ws.__exit__(None, None, None)


def test_a_token_of_nobody_is_refused_and_the_socket_closed(table, client):
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "guess" * 8}))
        assert json.loads(ws.receive_text())["code"] == "web/unknown-token"
        assert ws.receive()["type"] == "websocket.close"
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "act", "action": "pass"}))
        assert json.loads(ws.receive_text())["code"] == "web/no-seat"


def test_a_socket_from_another_site_is_refused(table, client):
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_text()


@pytest.mark.parametrize("raw, code", [
    ("not json", "web/not-json"),
    ("[1, 2]", "web/bad-message"),
    ('{"type": "act"}', "web/bad-message"),
    ('{"type": "act", "action": 7}', "web/bad-message"),
    ('{"type": "act", "action": "x", "seat": 1}', "web/bad-message"),
    ('{"type": "agree", "yes": 1}', "web/bad-message"),
    ('{"type": "replay", "step": true}', "web/bad-message"),
    ('{"type": "replay", "step": -1}', "web/bad-message"),
    ('{"type": "act", "action": "a\\u0000b"}', "web/bad-message"),
    ('{"type": "eval", "code": "x"}', "web/bad-message"),
    ('{"type": "act", "action": NaN}', "web/not-json"),
    ("[" * 5000 + "]" * 5000, "web/too-long"),
    ('{"type": "act", "action": "' + "x" * 9000 + '"}', "web/too-long"),
])
def test_every_message_is_checked(raw, code):
    with pytest.raises(protocol.ProtocolError) as found:
        protocol.read(raw)
    assert found.value.code == code


def test_bad_messages_are_answered_and_change_nothing(table, client):
    ws, p0 = seated(client, table.tokens[str(table.game.to_move(table.state)[0])])
    p0.receive_text()
    for raw in ("{", '{"type": "act", "action": 1}', b"\xff\xfe"):
        if isinstance(raw, bytes):
            p0.send_bytes(raw)
        else:
            p0.send_text(raw)
        assert json.loads(p0.receive_text())["type"] == "refused"
    assert table.actions == []
    ws.__exit__(None, None, None)


def test_a_socket_that_sends_too_fast_is_slowed():
    now = [0.0]
    limit = protocol.RateLimit(rate=10, burst=5, clock=lambda: now[0])
    assert [limit.allow() for _ in range(7)] == [True] * 5 + [False] * 2
    now[0] += 0.5                 # five more earned
    assert sum(limit.allow() for _ in range(10)) == 5


def test_undo_waits_for_every_other_seat_to_agree(table):
    game = table.game
    a = game.to_move(table.state)[0]
    b = 1 - a
    table.act(a, str(game.legal_actions(table.state, a)[0]))
    assert len(table.actions) == 1
    with pytest.raises(Refused):
        table.undo(b)                       # b has made no move
    table.undo(a)
    assert len(table.actions) == 1 and table.message_for(b)["undo"]["waiting"] == [b]
    table.agree(b, False)
    assert table.undo_asked is None and len(table.actions) == 1
    table.undo(a)
    table.agree(b, True)
    assert table.actions == [] and len(table.states) == 1


def test_ai_seats_play_on_the_server(hanamikoji, tmp_path):
    table = Table(hanamikoji, rulebook="hanamikoji", players=2, seed=5, ai={1: "random"},
                  save_path=str(tmp_path / "g.json"))
    table.play_ai()                 # as serve does before it prints the links
    while hanamikoji.outcome(table.state) is None:
        assert 0 in hanamikoji.to_move(table.state)
        table.act(0, str(hanamikoji.legal_actions(table.state, 0)[0]))
        table.play_ai()                     # as the server has them, once the move is told
    assert dict(table.links("http://h")).keys() == {"P0", "spectators"}   # nobody sits at P1
    with pytest.raises(Refused) as refused:
        table.act(1, "anything")
    assert refused.value.code == "action/not-your-turn"
    message = table.message_for(0)
    assert message["outcome"]["winners"] and message["steps"] == len(table.actions)
    # a finished game replays, step by step, as the seat saw it then
    start = table.message_for(0, step=0)
    assert start["step"] == 0 and start["log"] == [] and start["options"] == []
    # undo with no other human: at once
    table2 = Table(hanamikoji, rulebook="hanamikoji", players=2, seed=5, ai={1: "random"})
    table2.play_ai()
    first = len(table2.actions)
    table2.act(0, str(hanamikoji.legal_actions(table2.state, 0)[0]))
    table2.undo(0)
    assert len(table2.actions) == first
    with pytest.raises(Refused) as over:
        table.undo(0)                       # a finished game is replayed, not taken back
    assert over.value.code == "undo/game-over"


def test_the_game_is_saved_after_every_move_and_resumes(table):
    game = table.game
    for _ in range(3):
        player = game.to_move(table.state)[0]
        table.act(player, str(game.legal_actions(table.state, player)[0]))
    states, actions, data = read_save(game, table.save_path)
    assert [str(a) for a in actions] == [str(a) for a in table.actions]
    assert states[-1] == table.state
    assert read_tokens(tokens_path(table.save_path), 2) == table.tokens
    import os
    import stat
    assert stat.S_IMODE(os.stat(tokens_path(table.save_path)).st_mode) == 0o600
    again = Table(game, rulebook="hanamikoji", players=data["players"], seed=data["seed"],
                  ai=data["ai"], save_path=table.save_path, states=states, actions=actions,
                  tokens=read_tokens(tokens_path(table.save_path), 2))
    assert again.state == table.state and again.seat_of(table.tokens["0"]) == (True, 0)


def test_a_closed_tab_reconnects_to_its_seat(table, client):
    mover = table.game.to_move(table.state)[0]
    ws, p0 = seated(client, table.tokens[str(mover)])
    first = json.loads(p0.receive_text())
    p0.send_text(json.dumps({"type": "act", "action": first["options"][0]["text"]}))
    p0.receive_text()
    ws.__exit__(None, None, None)
    ws, p0 = seated(client, table.tokens[str(mover)])
    again = json.loads(p0.receive_text())
    assert again["seat"] == mover and again["steps"] == 1 and again["log"]
    ws.__exit__(None, None, None)


def test_the_serve_command_refuses_what_it_cannot_do(capsys):
    from interpreter.terminal.cli import main
    assert main(["serve", "hanamikoji", "--players", "9"]) == 2
    assert "players" in capsys.readouterr().err
    assert main(["serve", "hanamikoji", "--ai", "5=random"]) == 2
    assert main(["serve", "hanamikoji", "--port", "70000"]) == 2
    assert main(["serve"]) == 2


def test_a_simultaneous_pick_stays_hidden_until_revealed():
    game = load_rulebook("festival-of-lights")
    table = Table(game, rulebook="festival-of-lights", players=3, seed=2)
    assert game.to_move(table.state) == (0, 1, 2)
    pick = str(game.legal_actions(table.state, 0)[0])
    table.act(0, pick)
    mine, theirs, seen = (table.message_for(s) for s in (0, 1, None))
    assert mine["log"][0]["text"].startswith(pick) and mine["options"] == []
    for message in (theirs, seen):
        assert message["log"][0]["text"].startswith(game.legal_actions(table.state, 1)[0].name + " ?")
    assert theirs["options"] and theirs["to_move"] == [1, 2]
    for seat in (1, 2):
        table.act(seat, str(game.legal_actions(table.state, seat)[0]))
    # revealed: everybody reads every pick now
    assert table.message_for(1)["log"][0]["text"].startswith(pick)


def test_rules_that_fail_on_a_move_are_told_and_the_game_kept(tmp_path):
    """A move the rules cannot finish (here a repeat that never ends, which
    the engine stops with rule/loop) is refused with the rule's place, the
    game as it was, and the server goes on."""
    from pathlib import Path
    hostile = Path(__file__).resolve().parents[1] / "hostile" / "play" / "repeat-until-never.rules"
    game = load_rulebook(str(hostile))
    table = Table(game, rulebook=str(hostile), players=2, seed=1, save_path=str(tmp_path / "g.json"))
    with TestClient(make_app(table)) as client:
        ws, socket = seated(client, table.tokens["0"])
        socket.receive_text()
        socket.send_text(json.dumps({"type": "act", "action": "go"}))
        refused = json.loads(socket.receive_text())
        assert refused["code"] == "rule/loop"
        assert re.match(r"repeat-until-never\.rules:\d+:\d+: error\[rule/loop\]", refused["text"])
        assert table.actions == []
        socket.send_text(json.dumps({"type": "undo"}))
        assert json.loads(socket.receive_text())["code"] == "undo/nothing"
        ws.__exit__(None, None, None)


def test_rules_that_fail_on_an_ai_seats_move_are_told_to_the_table():
    """The AI seat's move that the rules cannot finish is not made: the
    table says why to every seat, keeps its game, and the AI seats stop."""
    from pathlib import Path
    hostile = Path(__file__).resolve().parents[1] / "hostile" / "play" / "repeat-until-never.rules"
    game = load_rulebook(str(hostile))
    table = Table(game, rulebook=str(hostile), players=2, seed=1, ai={0: "random"})
    table.play_ai()
    assert table.actions == [] and "rule/loop" in table.trouble
    assert table.trouble.startswith("P0's move failed: repeat-until-never.rules:")
    for seat in (1, None):
        assert table.message_for(seat)["trouble"] == table.trouble
    assert table.ai_to_move() is None


def test_each_seats_log_is_the_games_log_with_what_each_move_changed(table):
    """The table works out what a move changed once per seat, not at every
    message: its log is still `Game.log(changes=True)`, also after an undo
    replaced moves."""
    game = table.game

    def play(n):
        for _ in range(n):
            player = game.to_move(table.state)[0]
            table.act(player, str(game.legal_actions(table.state, player)[-1]))

    def same():
        for seat in (0, 1, None):
            told = [e["text"] for e in table.message_for(seat)["log"]]
            assert told == game.log(table.states, table.actions, seat, changes=True), seat
    play(4)
    same()
    mover = table.actions[-1].player
    table.undo(mover)
    table.agree(1 - mover, True)
    same()
    play(3)
    same()
