"""Per-game records of a simulation as JSON Lines, for a designer's own
analysis (`--records FILE`; docs/results.md reads them with pandas).

One JSON object a line, one line a game: its number and seed, the seats'
AI, the scores, winners, win shares and draw, its length, the seat that
took its first decision (`first`: the first mover), its score margin,
the line of the `end game` that ended it and what decided, the rulebook and
options it was played with, and the full log of the actions taken (every
seat's, hidden ones too: this is the designer's own simulation, not a
player's view). `compare` writes both rulebooks' games, side ``A`` (the
base) and ``B`` (the variant), each game's two lines one after the other
with the same ``pair``. Lines come in game order (then side), whatever the
number of workers that played them, so the same seeds give the same file.
"""

from __future__ import annotations

import heapq
import json
from typing import Iterable, Optional

from .simulate import GameRecord, Plan

SIDES = ("A", "B")


def record_json(r: GameRecord, plan: Plan, rulebook: str, options: dict,
                side: Optional[str] = None) -> dict:
    """The JSON object of one game's record (its log is in the record only
    when the plan logged actions; else the line has none)."""
    line = {"game": r.index, "seed": plan.game_seed(r.index)}
    if side is not None:
        line.update(side=side, pair=r.index)
    finished = r.winners is not None
    line.update(rulebook=rulebook, options=options, players=plan.players,
                seats=list(plan.seats), finished=finished,
                winners=list(r.winners) if finished else None,
                win_shares=[r.win_share(seat) for seat in range(plan.players)],
                draw=r.draw, scores=list(r.scores), decisions=r.decisions, rounds=r.rounds,
                first=r.first, margin=r.margin,
                end_line=r.ended[0] if r.ended else None, decided_by=r.decided_by,
                log=[text for _, text in r.log] if r.log is not None else None,
                log_seats=[seat for seat, _ in r.log] if r.log is not None else None)
    return line


def record_lines(records: list, plan: Plan, sources: list) -> Iterable[str]:
    """The JSON Lines of the records of one or two sources (`records[k]`
    sorted by game, as `parallel.run` keeps them; `sources[k]` is that
    source's (rulebook, options)), in game order and, for two, side A then
    side B of each game."""
    sides = SIDES if len(sources) == 2 else (None,)
    def tagged(k: int, rs: list):
        for r in rs:
            yield r.index, k, r
    streams = [tagged(k, rs) for k, rs in enumerate(records)]
    for _, k, r in heapq.merge(*streams, key=lambda t: t[:2]):
        rulebook, options = sources[k]
        yield json.dumps(record_json(r, plan, rulebook, options, sides[k]),
                         ensure_ascii=False, separators=(",", ":"))
