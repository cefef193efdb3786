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

    async def send_all(self) -> None:
        messages: dict = {}
        for ws, seat in list(self.sockets.items()):
            step = self.replays.get(ws)
            key = (seat, step)
            if key not in messages:
                messages[key] = json.dumps(await asyncio.to_thread(
                    self.table.message_for, seat, step))
            await _send(ws, messages[key])

    async def send_one(self, socket) -> None:
        seat, step = self.sockets[socket], self.replays.get(socket)
        await _send(socket, json.dumps(await asyncio.to_thread(self.table.message_for, seat, step)))


async def _send(socket, text: str) -> None:
    from starlette.websockets import WebSocketDisconnect
    try:
        await socket.send_text(text)
    except (RuntimeError, WebSocketDisconnect, OSError):
        pass            # a socket closing as it is sent to: it is dropped when it reads


async def _error(socket, code: str, text: str) -> None:
    await _send(socket, json.dumps({"type": "refused", "code": code, "text": text}))


def same_origin(socket) -> bool:
    """Whether the socket's page came from this server: a browser always
    says where the page that opens a socket came from (`Origin`), and a page
    of another site may not sit at the table (a program without a browser
    sends none, and needs a token all the same)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    host = socket.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


def make_app(table: Table):
    """The Starlette application serving `table`."""
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
        if not same_origin(socket):
            await socket.close(code=CLOSE_POLICY)
            return
        await socket.accept()
        limit = protocol.RateLimit()
        seat: Optional[int] = None
        seated = False
        try:
            while True:
                raw = await socket.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                if not limit.allow():
                    await _error(socket, "web/too-fast", "too many messages: wait a moment")
                    continue
                try:
                    message = protocol.read(raw.get("text") if raw.get("text") is not None
                                            else raw.get("bytes"))
                except protocol.ProtocolError as err:
                    await _error(socket, err.code, err.message)
                    continue
                kind = message["type"]
                if not seated:
                    if kind != "hello":
                        await _error(socket, "web/no-seat", "say hello with your link's token first")
                        continue
                    found, seat = table.seat_of(message["token"])
                    if not found:
                        await _error(socket, "web/unknown-token",
                                     "this link sits nobody at this table: ask for your seat's link")
                        await socket.close(code=CLOSE_POLICY)
                        return
                    seated = True
                    hub.sockets[socket] = seat
                    await hub.send_one(socket)
                    continue
                if kind == "hello":
                    await _error(socket, "web/seated", "this page already sits at the table")
                    continue
                if kind == "replay":
                    hub.replays[socket] = message["step"]
                    await hub.send_one(socket)
                    continue
                try:
                    async with hub.moving:
                        if kind == "act":
                            await asyncio.to_thread(table.act, seat, message["action"])
                        elif kind == "undo":
                            await asyncio.to_thread(table.undo, seat)
                        elif kind == "agree":
                            await asyncio.to_thread(table.agree, seat, message["yes"])
                except Refused as err:
                    await _error(socket, err.code, err.text)
                    continue
                await hub.send_all()
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
    base = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    for who, link in table.links(base):
        announce(f"{who}: {link}")
    announce("Each seat opens its own link; the game is saved after every move"
             + (f" to {table.save_path}." if table.save_path else "."))
    config = uvicorn.Config(make_app(table), log_level="warning", lifespan="off",
                            ws_max_size=protocol.MAX_BYTES)
    uvicorn.Server(config).run(sockets=[sock])
