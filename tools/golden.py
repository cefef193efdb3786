"""Golden playthroughs: seeded random games of every rulebook, recorded so a
change to the engine can be shown to play the same games.

Usage:
  python tools/golden.py [RULEBOOK ...]          record (all rulebooks by default)
  python tools/golden.py --check [RULEBOOK ...]  replay and report the first difference

For each rulebook in rulebooks/ and rulebooks/variants/ and each player count
it supports, a few seeded random games are played through the public API. At
every decision the record keeps who decided, the legal actions' texts (a
digest of them when there are more than `SHOWN`), the action taken and a
digest of the state after it; at the end, the scores and the winners. The
records are written to tests/golden/NAME.json, one decision a line, so a
changed game shows as a readable diff; tests/test_golden.py replays them.

The state digest covers everything that the game is made of (zones, where
each component is, variables, revealed cards, the random generator, round,
turn, who must decide, events) and leaves out the machine's frames (where
it is in its compiled blocks, and the local names and loop data it keeps
there), which a new compiler may lay out otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load_rulebook  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
# Games a player count: seeds 1, 2, … until at least GAMES games and DECISIONS
# decisions are recorded (a game of a few decisions, such as Kuhn poker, needs
# many to take every line of play); a variant file changes a rule or two, so
# fewer. At most MAX_GAMES.
GAMES, DECISIONS = 3, 60
VARIANT_GAMES, VARIANT_DECISIONS = 1, 20
MAX_GAMES = 30
SHOWN = 40                 # more legal actions than this are kept as a digest
MAX_DECISIONS = 3000       # a safety cap, far above any shipped game's length


def rulebooks() -> list:
    """Every rulebook file, games first, then variant files."""
    return sorted((ROOT / "rulebooks").glob("*.rules")) + \
        sorted((ROOT / "rulebooks" / "variants").glob("*.rules"))


def name_of(path: Path) -> str:
    return path.stem


def digest(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def state_digest(game, state) -> str:
    data = dict(game.state_to_json(state)["state"])
    del data["frames"]
    return digest(data)


def play(game, players: int, seed: int) -> dict:
    """One seeded random game: each decision the first player to move picks
    uniformly among its legal actions, with a generator seeded by `seed`."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    decisions = [{"state": state_digest(game, state)}]
    while game.outcome(state) is None and len(decisions) <= MAX_DECISIONS:
        player = game.to_move(state)[0]
        texts = [str(a) for a in game.legal_actions(state, player)]
        choice = rng.randrange(len(texts))
        state = game.apply(state, game.legal_actions(state, player)[choice])
        decisions.append({"player": player, "take": texts[choice], "legal": len(texts),
                          "texts": texts if len(texts) <= SHOWN else digest(texts),
                          "state": state_digest(game, state)})
    outcome = game.outcome(state)
    return {"players": players, "seed": seed, "decisions": decisions,
            "outcome": None if outcome is None else
            {"scores": list(outcome.scores), "winners": list(outcome.winners)}}


def record(path: Path) -> dict:
    game = load_rulebook(str(path))
    games, decisions = ((VARIANT_GAMES, VARIANT_DECISIONS) if path.parent.name == "variants"
                        else (GAMES, DECISIONS))
    out = []
    for n in range(game.min_players, game.max_players + 1):
        played, taken = 0, 0
        while played < MAX_GAMES and (played < games or taken < decisions):
            rec = play(game, n, played + 1)
            out.append(rec)
            played += 1
            taken += len(rec["decisions"]) - 1
    return {"rulebook": str(path.relative_to(ROOT)), "games": out}


def dumps(rec: dict) -> str:
    """JSON with one decision a line, so a diff shows the decision that changed."""
    out = ["{", f'  "rulebook": {json.dumps(rec["rulebook"])},', '  "games": [']
    for g, game in enumerate(rec["games"]):
        out.append(f'    {{"players": {game["players"]}, "seed": {game["seed"]}, '
                   f'"outcome": {json.dumps(game["outcome"])}, "decisions": [')
        lines = [json.dumps(d, ensure_ascii=False) for d in game["decisions"]]
        out += [f"      {line}{',' if i < len(lines) - 1 else ''}" for i, line in enumerate(lines)]
        out.append("    ]}" + ("," if g < len(rec["games"]) - 1 else ""))
    out += ["  ]", "}"]
    return "\n".join(out) + "\n"


def golden_file(path: Path) -> Path:
    return GOLDEN / f"{name_of(path)}.json"


def first_difference(want: dict, got: dict) -> str | None:
    """Where two records of one rulebook part, in words; None when equal."""
    if len(want["games"]) != len(got["games"]):
        return f"{len(got['games'])} games played, {len(want['games'])} recorded"
    for w, g in zip(want["games"], got["games"]):
        where = f"{w['players']} players, seed {w['seed']}"
        for i, (dw, dg) in enumerate(zip(w["decisions"], g["decisions"])):
            if dw != dg:
                keys = [k for k in dw if dw.get(k) != dg.get(k)]
                return (f"{where}, decision {i}: {', '.join(keys)} differ: recorded "
                        f"{ {k: dw.get(k) for k in keys} }, now { {k: dg.get(k) for k in keys} }")
        if len(w["decisions"]) != len(g["decisions"]):
            return f"{where}: {len(g['decisions'])} decisions now, {len(w['decisions'])} recorded"
        if w["outcome"] != g["outcome"]:
            return f"{where}: outcome {g['outcome']} now, {w['outcome']} recorded"
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulebooks", nargs="*", help="files or names; default: every rulebook")
    parser.add_argument("--check", action="store_true", help="compare with the recorded games")
    args = parser.parse_args(argv)
    paths = rulebooks()
    if args.rulebooks:
        wanted = {Path(r).stem for r in args.rulebooks}
        paths = [p for p in paths if p.stem in wanted]
        if not paths:
            print(f"no rulebook named {', '.join(sorted(wanted))}", file=sys.stderr)
            return 2
    GOLDEN.mkdir(parents=True, exist_ok=True)
    failed = 0
    for path in paths:
        rec = record(path)
        target = golden_file(path)
        if args.check:
            if not target.exists():
                print(f"{name_of(path)}: no recorded games ({target.relative_to(ROOT)})")
                failed += 1
                continue
            diff = first_difference(json.loads(target.read_text(encoding="utf-8")), rec)
            print(f"{name_of(path)}: {'same games' if diff is None else diff}")
            failed += diff is not None
        else:
            target.write_text(dumps(rec), encoding="utf-8")
            decisions = sum(len(g["decisions"]) - 1 for g in rec["games"])
            print(f"{name_of(path)}: {len(rec['games'])} games, {decisions} decisions "
                  f"→ {target.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
