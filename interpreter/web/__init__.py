"""The table in the browser: `rulebook serve`, any rulebook played on a drawn
board by players on their own screens (an optional extra, `rulebook[web]`).

`svg` draws a viewer's table as SVG from the presentation model
(`presentation/`): boards, zones and pieces, each piece and cell a player
may point at marked with its token; `table` is the game at the table on the
server (the seats and their secret tokens, the AI seats, the moves, undo by
agreement, the save after every move); `protocol` checks every message a
browser sends; `server` is the ASGI application (Starlette, WebSockets),
which sends each socket only its own seat's view; `static/` is the page and
its script, which need no build step. Starlette and uvicorn are imported
only inside `server` and the command that starts it.

May import: presentation, simulation, ai, game, compiler, runtime, language, stdlib, errors, printable.
"""
