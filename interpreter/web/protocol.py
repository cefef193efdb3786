"""Every message a browser may send to the table, checked before anything
reads it.

A message is one JSON object of at most MAX_BYTES bytes, with a `type` and
exactly the fields of that type, each of its kind and size:

| type | fields | what it asks |
|---|---|---|
| `hello` | `token` (text) | to sit at the seat (or watch with the spectators' link) the token is the secret of; the first message of every socket |
| `act` | `action` (text) | to take the legal action of that text (a move pointed at, or picked from the list) |
| `undo` | | to take back the seat's last move, once the others agree |
| `agree` | `yes` (yes/no) | to agree to (or refuse) the undo asked for |
| `replay` | `step` (a whole number, or none for now) | to see a finished game at that step |

Anything else is a `ProtocolError` with a stable code (`web/too-long`,
`web/not-json`, `web/bad-message`), which the server answers without
reading further. `RateLimit` is a token bucket per socket: a browser that
sends more than RATE messages a second for long is told so, and its
messages are dropped until it slows. This module knows no game.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Optional

MAX_BYTES = 8192          # the longest message a browser may send
MAX_TEXT = 2000           # the longest action text or token
RATE = 10.0               # messages a second a socket may send, on average
BURST = 40                # and at once

FIELDS = {"hello": {"token": str}, "act": {"action": str}, "undo": {},
          "agree": {"yes": bool}, "replay": {"step": (int, type(None))}}


class ProtocolError(Exception):
    """A message no browser of this table sends: `code` says what is wrong."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code, self.message = code, message


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _too_long() -> ProtocolError:
    return ProtocolError(f"a message is at most {MAX_BYTES} bytes", code="web/too-long")


def _bad(message: str) -> ProtocolError:
    return ProtocolError(message, code="web/bad-message")


def _of_kind(value, kind) -> bool:
    """Whether a field's value is of its kind: yes/no is no number here."""
    if isinstance(kind, tuple):
        return any(_of_kind(value, k) for k in kind)
    return value is None if kind is type(None) else type(value) is kind


def read(raw) -> dict:
    """The message in `raw` (text or bytes from a socket), checked; a
    ProtocolError for anything that is not one of FIELDS' messages."""
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > MAX_BYTES:
            raise _too_long()
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message is JSON text in UTF-8", code="web/not-json") from None
    if type(raw) is not str:
        raise ProtocolError("a message is JSON text", code="web/not-json")
    if len(raw.encode("utf-8", "replace")) > MAX_BYTES:
        raise _too_long()
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("a message is one JSON object", code="web/not-json") from None
    if type(data) is not dict or type(data.get("type")) is not str or data["type"] not in FIELDS:
        raise _bad("a message is an object whose type is one of " + ", ".join(FIELDS))
    kind_of = data["type"]
    wanted = FIELDS[kind_of]
    if set(data) != {"type", *wanted}:
        raise _bad(f"a '{kind_of}' message has the fields "
                   + (", ".join(wanted) if wanted else "type alone"))
    for name, kind in wanted.items():
        value = data[name]
        if not _of_kind(value, kind):
            raise _bad(f"'{name}' of a '{kind_of}' message is not of its kind")
        if isinstance(value, str) and (len(value) > MAX_TEXT or not value.isprintable()):
            raise _bad(f"'{name}' is at most {MAX_TEXT} printable characters")
        if type(value) is int and not 0 <= value <= 10**7:
            raise _bad(f"'{name}' is a step of the game")
    return data


@dataclass
class RateLimit:
    """A token bucket: `allow()` is False once a socket has sent more than
    BURST messages faster than RATE a second."""

    rate: float = RATE
    burst: float = BURST
    clock: object = time.monotonic
    level: Optional[float] = None
    last: float = field(default=0.0)

    def allow(self) -> bool:
        now = self.clock()
        if self.level is None:
            self.level, self.last = self.burst, now
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1:
            return False
        self.level -= 1
        return True
