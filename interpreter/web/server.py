"""The browser table's ASGI application: Starlette, with one WebSocket per
browser tab.

`GET /` is the page (`static/index.html`), `/static/…` its script and style;
`/ws` is the socket. A socket's first message says who it is (`hello` with
the token from its link); from then on it may act only for that seat, and
after every change of the table each socket is sent its own seat's message
(`Table.message_for`) and nothing else: no message holds what another seat
sees. Every message from a browser is read by `protocol.read` (sized,
checked) and rate-limited; a socket from another origin is refused, as is a
token of nobody. Moves and the AI seats' thinking run off the event loop,
one at a time. Starlette and uvicorn are imported here and nowhere else,
inside the functions that need them (the core runs without them).

The page is sent with headers that keep it to itself: a content security
policy of its own origin only (no inline script), no framing, no sniffing,
no referrer.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Optional

from . import protocol
from ..errors import RulebookError
from .table import Refused, Table

STATIC = Path(__file__).with_name("static")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
CLOSE_POLICY = 1008       # WebSocket close code: policy violation
HELLO_TIMEOUT = 10        # seconds a socket has to say whose seat it is
SEND_TIMEOUT = 20         # seconds a browser has to take a message before it is dropped
MAX_SOCKETS = 64          # sockets at one table at once


class Headers:
    """ASGI middleware: every HTTP response carries HEADERS."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message = dict(message, headers=list(message.get("headers", [])) + [
                    (k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                    if k.lower().encode() not in have])
            await send(message)
        return await self.app(scope, receive, with_headers)


class Hub:
    """The sockets at one table, each with its seat; sends every socket its
    own seat's message after each change."""

    def __init__(self, table: Table):
        self.table = table
        self.sockets: dict = {}          # WebSocket -> seat (None: a spectator)
        self.replays: dict = {}          # WebSocket -> the step it looks at, for a finished game
        self.moving = asyncio.Lock()

    async def message(self, seat, step) -> str:
        """A seat's message as JSON, or a refusal naming why it cannot be
        made (the rules failing in a view's formula)."""
        try:
            return json.dumps(await asyncio.to_thread(self.table.message_for, seat, step))
        except RulebookError as err:
            return json.dumps({"type": "refused", "code": err.code,
                               "text": self.table.explained(err)})

    async def send_all(self) -> None:
        messages: dict = {}
        for ws, seat in list(self.sockets.items()):
            key = (seat, self.replays.get(ws))
            if key not in messages:
                messages[key] = await self.message(*key)
            await self.send(ws, messages[key])

    async def send_one(self, socket) -> None:
        await self.send(socket, await self.message(self.sockets[socket],
                                                   self.replays.get(socket)))

    async def send(self, socket, text: str) -> None:
        """`text` to `socket`; a socket that does not take it within
        SEND_TIMEOUT (a browser that stopped reading) is closed, so that it
        holds up nobody else."""
        from starlette.websockets import WebSocketDisconnect
        try:
            await asyncio.wait_for(socket.send_text(text), SEND_TIMEOUT)
        except asyncio.TimeoutError:
            self.sockets.pop(socket, None)
            try:
                await socket.close(code=CLOSE_POLICY)
            except (RuntimeError, WebSocketDisconnect, OSError):
                pass
        except (RuntimeError, WebSocketDisconnect, OSError):
            pass            # a socket closing as it is sent to: it is dropped when it reads

    async def error(self, socket, code: str, text: str) -> None:
        await self.send(socket, json.dumps({"type": "refused", "code": code, "text": text}))

    async def ai_moves(self) -> None:
        """The AI seats' moves, each told to the table as it is made."""
        while self.table.ai_to_move() is not None:
            await asyncio.to_thread(self.table.play_ai_move)
            await self.send_all()


def same_origin(socket, hosts: Optional[set] = None) -> bool:
    """Whether the socket's page came from this server: a browser always
    says where the page that opens a socket came from (`Origin`), and a page
    of another site may not sit at the table (a program without a browser
    sends none, and needs a token all the same). With `hosts`, the host the
    browser asked for must be one of them, so a page of another site whose
    name was pointed at this machine is refused too."""
    host = socket.headers.get("host", "")
    if hosts is not None and _hostname(host) not in hosts:
        return False
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    return origin in (f"http://{host}", f"https://{host}")


def _hostname(host: str) -> str:
    """The name of a Host header without its port: 'localhost:8000' →
    'localhost', '[::1]:80' → '::1'."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def hosts_of(host: str) -> Optional[set]:
    """The names a browser may use for a server listening on `host`: the
    address itself, and localhost's names for a loopback address; None
    (any) for an address of every interface."""
    if host in ("0.0.0.0", "::", ""):
        return None
    loopback = host.startswith("127.") or host in ("::1", "localhost")
    return {host} | ({"localhost", "127.0.0.1", "::1"} if loopback else set())


def make_app(table: Table, hosts: Optional[set] = None):
    """The Starlette application serving `table`; `hosts`, the names a
    browser may call it by (`hosts_of`; None: any)."""
    from starlette.applications import Starlette
    from starlette.responses import FileResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocketDisconnect
    hub = Hub(table)

    async def page(request):
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def rules(request):
        return Response(table.rules or "", media_type="text/markdown; charset=utf-8")

    async def socket_endpoint(socket):
        if not same_origin(socket, hosts) or len(hub.sockets) >= MAX_SOCKETS:
            await socket.close(code=CLOSE_POLICY)
            return
        await socket.accept()
        limit = protocol.RateLimit()
        seat: Optional[int] = None
        seated = False
        try:
            while True:
                try:
                    raw = await (socket.receive() if seated else
                                 asyncio.wait_for(socket.receive(), HELLO_TIMEOUT))
                except asyncio.TimeoutError:
                    await hub.error(socket, code="web/no-seat",
                                    text="no seat was asked for in time")
                    await socket.close(code=CLOSE_POLICY)
                    return
                if raw["type"] == "websocket.disconnect":
                    break
                if not limit.allow():
                    await hub.error(socket, code="web/too-fast",
                                    text="too many messages: wait a moment")
                    continue
                try:
                    message = protocol.read(raw.get("text") if raw.get("text") is not None
                                            else raw.get("bytes"))
                except protocol.ProtocolError as err:
                    await hub.error(socket, err.code, err.message)
                    continue
                kind = message["type"]
                if not seated:
                    if kind != "hello":
                        await hub.error(socket, code="web/no-seat",
                                        text="say hello with your link's token first")
                        continue
                    found, seat = table.seat_of(message["token"])
                    if not found:
                        await hub.error(socket, code="web/unknown-token",
                                        text="this link sits nobody at this table: ask for "
                                             "your seat's link")
                        await socket.close(code=CLOSE_POLICY)
                        return
                    seated = True
                    hub.sockets[socket] = seat
                    await hub.send_one(socket)
                    continue
                if kind == "hello":
                    await hub.error(socket, code="web/seated",
                                    text="this page already sits at the table")
                    continue
                if kind == "replay":
                    hub.replays[socket] = message["step"]
                    await hub.send_one(socket)
                    continue
                async with hub.moving:
                    try:
                        if kind == "act":
                            await asyncio.to_thread(table.act, seat, message["action"])
                        elif kind == "undo":
                            await asyncio.to_thread(table.undo, seat)
                        elif kind == "agree":
                            await asyncio.to_thread(table.agree, seat, message["yes"])
                    except Refused as err:
                        await hub.error(socket, err.code, err.text)
                        continue
                    except RulebookError as err:      # the move stands; its save failed
                        await hub.error(socket, err.code, err.message)
                    await hub.send_all()
                    await hub.ai_moves()
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets.pop(socket, None)
            hub.replays.pop(socket, None)

    app = Starlette(routes=[
        Route("/", page),
        Route("/rules", rules),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        WebSocketRoute("/ws", socket_endpoint),
    ])
    app.add_middleware(Headers)
    return app


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` (port 0: any free one), or OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve(table: Table, sock: socket.socket, announce=print) -> None:
    """Runs the table's server on `sock` (`listening`) until it is stopped
    (Ctrl-C): the AI seats that move first play, the links are printed, then
    uvicorn serves."""
    import uvicorn
    table.play_ai()
    table.save()
    host, port = sock.getsockname()[:2]
    # every interface: the links name this machine as others on the network reach it
    shown = socket.gethostname() if hosts_of(host) is None else host
    base = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"
    for who, link in table.links(base):
        announce(f"{who}: {link}")
    if table.trouble:
        announce(table.trouble)
    announce("Each seat opens its own link; the game is saved after every move"
             + (f" to {table.save_path}." if table.save_path else "."))
    config = uvicorn.Config(make_app(table, hosts_of(host)), log_level="warning",
                            lifespan="off", ws_max_size=protocol.MAX_BYTES)
    uvicorn.Server(config).run(sockets=[sock])
