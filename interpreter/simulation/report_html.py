"""A simulation's or comparison's report drawn as charts in one HTML page
(`--report FILE.html`).

The figures come from the JSON report alone (`simulate.Tally.report`,
`Pairing.report`), so the page shows what the text and `--json` say: win
rate per seat with its 95% interval, score distributions per seat, game
length, action shares, and for a comparison each difference with its 95%
interval. matplotlib draws them (an optional extra, ``pip install
'rulebook[plot]'``, imported only here and only when a page is asked for);
each chart is a PNG inside the page as base64, so the file is one
self-contained page that opens offline and mails as one attachment. Under
every chart a table holds its numbers, each cell's exact figure in a
``data-value`` attribute, for a reader who wants the figure and for tests.
The page is the same, byte for byte, for the same report.
"""

from __future__ import annotations

import base64
import html
import io
import json

from ..errors import CommandError
from .simulate import decided_text

INSTALL = "pip install 'rulebook[plot]'"
# colours of seats and phases, the first two also one per run: the base (or
# the only run) and the variant
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860",
           "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd")
COLOURS = PALETTE[:2]
SIGNIFICANT, NOT_SIGNIFICANT = "#c44e52", "#8c8c8c"


def require():
    """matplotlib's Figure, or the coded error that says how to install it.
    Called before any game is played, so a missing library costs no run."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CommandError(f"--report draws its charts with matplotlib, which is not "
                           f"installed: {INSTALL}", code="simulate/plot-missing") from None
    return Figure


# -- the page -------------------------------------------------------------------------

STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
color:#222}figure{margin:2rem 0}img{max-width:100%}figcaption{font-weight:600;margin:.3rem 0}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}td,th{border:1px solid #ccc;
padding:.15rem .5rem;text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{
text-align:left}p.note{color:#555;font-size:.9rem}dl.provenance{display:grid;
grid-template-columns:max-content 1fr;gap:.2rem 1rem;font-size:.9rem}dl.provenance dt{
color:#555}dl.provenance dd{margin:0}span.word{display:inline-block}"""


def _page(title: str, intro: list, figures: list, provenance: str = "") -> str:
    body = "\n".join(f"<p>{html.escape(line)}</p>" for line in intro) + \
        (f"\n{provenance}" if provenance else "")
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{html.escape(title)}</h1>\n{body}\n" + "\n".join(figures) +
            "\n</body>\n</html>\n")


def _figure(name: str, caption: str, image: str, table: str, note: str = "") -> str:
    alt = html.escape(caption, quote=True)
    extra = f"<p class=\"note\">{html.escape(note)}</p>\n" if note else ""
    return (f"<figure data-chart=\"{name}\">\n<figcaption>{html.escape(caption)}</figcaption>\n"
            f"<img alt=\"{alt}\" src=\"{image}\">\n{extra}{table}\n</figure>")


def _cell(value, text=None) -> str:
    """A table cell showing `text` (or the value) and holding the exact value."""
    shown = text if text is not None else (value if isinstance(value, str) else _num(value))
    data = json.dumps(value)
    return f"<td data-value=\"{html.escape(data, quote=True)}\">{html.escape(str(shown))}</td>"


def _table(headers: list, rows: list) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "\n".join("<tr>" + "".join(row) + "</tr>" for row in rows)
    return f"<table>\n<tr>{head}</tr>\n{body}\n</table>"


def _num(x) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"


def _pct(x) -> str:
    return f"{x:.1%}"


def _png(fig) -> str:
    """The figure as a data: URI; without the 'Software' stamp, so that the
    same figure gives the same bytes whatever matplotlib's version."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _seat(row: dict) -> str:
    return f"P{row['seat']} ({row['ai']})"


# -- the charts of one or two runs ---------------------------------------------------
# `runs` is [(label, report)]: one for simulate, the base and the variant for compare.

def win_rates(Figure, runs: list) -> str:
    players = runs[0][1]["plan"]["players"]
    fig = Figure(figsize=(7, 3.4), layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / len(runs)
    for k, (label, report) in enumerate(runs):
        xs = [s["seat"] + (k - (len(runs) - 1) / 2) * width for s in report["seats"]]
        rates = [s["win_rate"] for s in report["seats"]]
        below = [r - s["ci95"][0] for r, s in zip(rates, report["seats"])]
        above = [s["ci95"][1] - r for r, s in zip(rates, report["seats"])]
        ax.bar(xs, rates, width * 0.9, yerr=[below, above], capsize=4, color=COLOURS[k],
               label=label)
    ax.axhline(1 / players, color="#555", linestyle="--", linewidth=1,
               label=f"an even share (1/{players})")
    ax.set_xticks(range(players), [_seat(s) for s in runs[0][1]["seats"]])
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    _legend(ax, loc="upper right")
    rows = []
    for label, report in runs:
        for s in report["seats"]:
            rows.append([_cell(_seat(s)), _cell(label), _cell(s["win_rate"], _pct(s["win_rate"])),
                         _cell(s["ci95"][0], _pct(s["ci95"][0])),
                         _cell(s["ci95"][1], _pct(s["ci95"][1])), _cell(s["wins"])])
    table = _table(["seat", "run", "win rate", "95% low", "95% high", "wins"], rows)
    notes = []
    for label, report in runs:
        for key, who in (("first_mover", "the player who moved first"),
                         ("seat_p0", "seat P0")):
            test = report.get(key)
            if test and test["n"]:
                notes.append(f"{label}: {who} wins {_pct(test['win_rate'])} of {test['n']} "
                             f"games (95% interval "
                             f"{_pct(test['ci95'][0])}–{_pct(test['ci95'][1])}) against an "
                             f"even {_pct(test['expected'])}, p = {test['p']:.3f}.")
    return _figure("win-rates", "Win rate per seat, with its 95% interval", _png(fig), table,
                   " ".join(notes))


def _legend(ax, **where) -> None:
    """A legend, where something drawn has a label (an empty run draws none)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", **where)


def _stairs(ax, histogram: dict, total: int, colour: str, label: str) -> None:
    if histogram["counts"]:
        shares = [c / total for c in histogram["counts"]] if total else histogram["counts"]
        ax.stairs(shares, histogram["edges"], color=colour, linewidth=1.6, label=label)


def scores(Figure, runs: list) -> str:
    seats = runs[0][1]["seats"]
    fig = Figure(figsize=(7, 1.2 + 1.6 * len(seats)), layout="constrained")
    axes = fig.subplots(len(seats), 1, sharex=True, squeeze=False)[:, 0]
    for ax, row in zip(axes, seats):
        for k, (label, report) in enumerate(runs):
            d = report["seats"][row["seat"]]["score"]
            _stairs(ax, d["histogram"], d["n"], COLOURS[k], label)
        ax.set_title(_seat(row), loc="left", fontsize="medium")
        ax.set_ylabel("share of games")
    axes[-1].set_xlabel("score" + (" (the lowest wins)" if runs[0][1].get("lowest_wins") else ""))
    if len(runs) > 1:
        _legend(axes[0])
    rows = []
    for label, report in runs:
        for s in report["seats"]:
            d, q = s["score"], s["score"]["quantiles"]
            rows.append([_cell(_seat(s)), _cell(label), _cell(d["mean"]), _cell(d["sd"]),
                         _cell(d["min"]), _cell(q["p25"]), _cell(q["p50"]), _cell(q["p75"]),
                         _cell(d["max"])])
    table = _table(["seat", "run", "mean", "sd", "min", "p25", "median", "p75", "max"], rows)
    return _figure("scores", "Score distribution per seat", _png(fig), table)


def length(Figure, runs: list) -> str:
    fig = Figure(figsize=(7, 2.8), layout="constrained")
    axes = fig.subplots(1, 2)
    for ax, measure in zip(axes, ("decisions", "rounds")):
        for k, (label, report) in enumerate(runs):
            _stairs(ax, report[measure]["histogram"], report[measure]["n"], COLOURS[k], label)
        ax.set_xlabel(measure + " per game")
        ax.set_ylabel("share of games")
    if len(runs) > 1:
        _legend(axes[0])
    rows = []
    for label, report in runs:
        for measure in ("decisions", "rounds"):
            d = report[measure]
            rows.append([_cell(measure), _cell(label), _cell(d["mean"]), _cell(d["sd"]),
                         _cell(d["min"]), _cell(d["quantiles"]["p50"]), _cell(d["max"])])
    table = _table(["length in", "run", "mean", "sd", "min", "median", "max"], rows)
    return _figure("length", "Game length, in decisions and in rounds", _png(fig), table)


def actions(Figure, runs: list) -> str:
    names = list(dict.fromkeys(n for _, report in runs for n in report["actions"]))
    fig = Figure(figsize=(7, 1.0 + 0.35 * max(1, len(names)) * len(runs)),
                 layout="constrained")
    ax = fig.add_subplot()
    height = 0.8 / len(runs)
    for k, (label, report) in enumerate(runs):
        ys = [i + (k - (len(runs) - 1) / 2) * height for i in range(len(names))]
        shares = [report["actions"].get(n, {"share": 0.0})["share"] for n in names]
        ax.barh(ys, shares, height * 0.9, color=COLOURS[k], label=label)
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("share of all decisions")
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    if len(runs) > 1:
        _legend(ax)
    rows = []
    for label, report in runs:
        for n, a in report["actions"].items():
            rows.append([_cell(n), _cell(label), _cell(a["count"]),
                         _cell(a["share"], _pct(a["share"]))])
    table = _table(["action", "run", "times taken", "share"], rows)
    return _figure("actions", "How often each action was taken", _png(fig), table)


def actions_by_seat(Figure, runs: list) -> str:
    """Each action's share of each seat's decisions (and of each phase's
    where the rulebook has more than one), a panel per run."""
    names = list(dict.fromkeys(n for _, report in runs for n in report["actions"]))
    groups = []                      # (run label, what "seat"/"phase", [(label, row)])
    for label, report in runs:
        groups.append((label, "seat", [(f"P{r['seat']}", r) for r in
                                       report.get("actions_by_seat", [])]))
        phases = report.get("actions_by_phase", [])
        if len(phases) > 1:
            groups.append((label, "phase", [(r["phase"], r) for r in phases]))
    fig = Figure(figsize=(7, 0.9 + len(groups) * (0.6 + 0.3 * max(1, len(names)))),
                 layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False)[:, 0]
    palette = PALETTE
    rows = []
    for ax, (label, what, items) in zip(axes, groups):
        height = 0.8 / max(1, len(items))
        for k, (who, row) in enumerate(items):
            ys = [i + (k - (len(items) - 1) / 2) * height for i in range(len(names))]
            shares = [row["actions"].get(n, {"share": 0.0})["share"] for n in names]
            # phases in colours of their own, not the seats'
            colour = palette[(k + (0 if what == "seat" else 4)) % len(palette)]
            ax.barh(ys, shares, height * 0.9, color=colour,
                    label=f"{who} ({row['decisions']} decisions)")
            for n in names:
                a = row["actions"].get(n)
                if a:
                    rows.append([_cell(n), _cell(label), _cell(f"{what} {who}"),
                                 _cell(a["count"]), _cell(a["share"], _pct(a["share"]))])
        ax.set_yticks(range(len(names)), names)
        ax.invert_yaxis()
        ax.set_title(f"by {what}" + (f" ({label})" if len(runs) > 1 else ""), loc="left",
                     fontsize="medium")
        ax.set_xlabel(f"share of the {what}'s decisions")
        ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        _legend(ax, loc="lower right")
    table = _table(["action", "run", "of", "times taken", "share"], rows)
    phased = any(what == "phase" for _, what, _ in groups)
    caption = "Each action's share of each seat's decisions" + (
        ", and of each phase's" if phased else "")
    return _figure("actions-by", caption, _png(fig), table,
                   f"A share is of that seat's{' (or phase' + chr(39) + 's)' if phased else ''} "
                   f"own decisions, so each colour's bars add up to 100%.")


def margins(Figure, runs: list) -> str:
    """The score margin: the winner's score minus the runner-up's."""
    fig = Figure(figsize=(7, 2.6), layout="constrained")
    ax = fig.add_subplot()
    for k, (label, report) in enumerate(runs):
        d = report["margin"]
        _stairs(ax, d["histogram"], d["n"], COLOURS[k], label)
    lowest = runs[0][1].get("lowest_wins")
    ax.set_xlabel("winner's score − runner-up's" + (" (the lowest wins: runner-up's − "
                                                      "winner's)" if lowest else ""))
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    if len(runs) > 1:
        _legend(ax)
    rows = []
    for label, report in runs:
        d, q = report["margin"], report["margin"]["quantiles"]
        rows.append([_cell(label), _cell(d["n"]), _cell(d["mean"]), _cell(d["sd"]),
                     _cell(d["min"]), _cell(q["p25"]), _cell(q["p50"]), _cell(q["p75"]),
                     _cell(d["max"])])
    table = _table(["run", "games", "mean", "sd", "min", "p25", "median", "p75", "max"], rows)
    return _figure("margin", "Score margin: the winner's score minus the runner-up's",
                   _png(fig), table,
                   "The first and the second of the final ranking. 0: level on the score "
                   "(a tie-break or the rulebook's own winners rule decided, or a draw); below "
                   "0: the rulebook's winners rule named the lower score.")


def endings(Figure, runs: list) -> str:
    """How the games ended: which end, and the games cut off apart."""
    bars = []                                    # (label, run, games, share of played)
    for label, report in runs:
        e = report["endings"]
        played = e["completed"] + e["capped"]
        for end in e["ends"]:
            text = end.get("text") or end["end"]
            bars.append((text, label, end["games"], end["games"] / played if played else 0))
        if e["capped"]:
            bars.append((f"cut off at {report['plan']['max_decisions']} decisions "
                         f"(not ended)", label, e["capped"], e["capped"] / played))
    names = list(dict.fromkeys(b[0] for b in bars))
    fig = Figure(figsize=(7, 1.0 + 0.45 * max(1, len(names)) * len(runs)),
                 layout="constrained")
    ax = fig.add_subplot()
    height = 0.8 / len(runs)
    for k, (label, _) in enumerate(runs):
        mine = {b[0]: b[3] for b in bars if b[1] == label}
        ys = [i + (k - (len(runs) - 1) / 2) * height for i in range(len(names))]
        ax.barh(ys, [mine.get(n, 0.0) for n in names], height * 0.9, color=COLOURS[k],
                label=label)
    ax.set_yticks(range(len(names)), [_wrapped(n) for n in names], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the games played")
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    if len(runs) > 1:
        _legend(ax)
    rows = [[_cell(n), _cell(label), _cell(games), _cell(share, _pct(share))]
            for n, label, games, share in bars]
    for label, report in runs:
        for d in report["endings"]["decided_by"]:
            rows.append([_cell(f"decided by {decided_text(d['by'])}"), _cell(label),
                         _cell(d["games"]),
                         _cell(d["share"], _pct(d["share"]))])
    table = _table(["how the game ended", "run", "games", "share"], rows)
    return _figure("endings", "How the games ended", _png(fig), table,
                   "Which 'end game' ended each game (with the conditions above it), or the "
                   "flow running out after the last phase; games cut off at the decision cap "
                   "apart. \"Decided by\" rows: what told the winners apart, of the games "
                   "that ended.")


def _wrapped(text: str, width: int = 38) -> str:
    """A long label in lines of at most about `width` characters."""
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    return "\n".join(lines + [line])


def convergence(Figure, runs: list) -> str:
    """Each seat's and the first mover's win rate over the first k games,
    with its 95% interval, against k: where the figures settle."""
    fig = Figure(figsize=(7, 1.4 + 2.6 * len(runs)), layout="constrained")
    axes = fig.subplots(len(runs), 1, squeeze=False, sharex=True)[:, 0]
    palette = PALETTE[:6]
    rows = []
    for ax, (label, report) in zip(axes, runs):
        c = report.get("convergence") or {"games": []}
        xs = c["games"]
        players = report["plan"]["players"]
        lines = [(f"P{s['seat']} ({report['seats'][s['seat']]['ai']})", s, palette[
            s["seat"] % len(palette)], "-") for s in c.get("seats", [])]
        if any(c.get("first_mover", {}).get("n", [])):
            lines.append(("the player who moved first", c["first_mover"], "#222", ":"))
        for name, s, colour, style in lines:
            if not xs:
                continue
            ax.plot(xs, s["win_rate"], color=colour, linestyle=style, linewidth=1.5,
                    label=name)
            ax.fill_between(xs, [lo for lo, _ in s["ci95"]], [hi for _, hi in s["ci95"]],
                            color=colour, alpha=0.12, linewidth=0)
        ax.axhline(1 / players, color="#555", linestyle="--", linewidth=1,
                   label=f"an even share (1/{players})")
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate so far")
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        if len(runs) > 1:
            ax.set_title(label, loc="left", fontsize="medium")
        _legend(ax, loc="upper right", ncols=2)
        for i, k in enumerate(xs):
            if i == len(xs) - 1 or i in _shown_points(len(xs)):
                for name, s, _, _ in lines:
                    rows.append([_cell(k), _cell(label), _cell(name),
                                 _cell(s["win_rate"][i], _pct(s["win_rate"][i])),
                                 _cell(s["ci95"][i][0], _pct(s["ci95"][i][0])),
                                 _cell(s["ci95"][i][1], _pct(s["ci95"][i][1]))])
    axes[-1].set_xlabel("games played (in game order: seeds S, S+1, …)")
    table = _table(["after games", "run", "who", "win rate", "95% low", "95% high"], rows)
    return _figure("convergence", "Win rates as games accumulate, with their 95% intervals",
                   _png(fig), table,
                   "Each line is the win rate over the first k games; the band its 95% "
                   "interval. Once the bands are narrow and the lines flat, more games would "
                   "change little. The table gives a few of the points.")


def _shown_points(n: int) -> set:
    """The points of a convergence table: about five, spread out."""
    return {round(i * (n - 1) / 4) for i in range(5)} if n else set()


def differences(Figure, comparison: dict) -> str:
    """Every difference (variant - base) with its 95% interval, by unit: win
    rates and draws in percentage points, scores, the game's length."""
    alpha = comparison["alpha"]
    groups = [
        ("win rate and draws (points)", 100,
         [(f"{_seat(r)} win rate", r["win_rate"]) for r in comparison["seats"]]
         + [("draws", comparison["draws"]["difference"])]),
        ("mean score", 1, [(f"{_seat(r)} score", r["score"]) for r in comparison["seats"]]),
        ("game length", 1, [(f"{m} per game", comparison["length"][m]["difference"])
                            for m in ("decisions", "rounds") if m in comparison.get("length", {})]),
    ]
    groups = [g for g in groups if g[2]]
    fig = Figure(figsize=(7, 1.0 + 0.55 * sum(len(g[2]) for g in groups)), layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False,
                        height_ratios=[len(g[2]) for g in groups])[:, 0]
    rows = []
    for ax, (unit, scale, items) in zip(axes, groups):
        for i, (label, test) in enumerate(items):
            colour = SIGNIFICANT if test["p"] < alpha else NOT_SIGNIFICANT
            ax.errorbar([scale * test["difference"]], [i], xerr=[scale * test["half_width"]],
                        fmt="o", color=colour, capsize=4)
            rows.append([_cell(label), _cell(test["difference"]), _cell(test["half_width"]),
                         _cell(test["p"], f"{test['p']:.3f}"),
                         _cell(test["p"] < alpha, "yes" if test["p"] < alpha else "no")])
        ax.axvline(0, color="#555", linewidth=1)
        ax.set_yticks(range(len(items)), [label for label, _ in items])
        ax.set_ylim(len(items) - 0.5, -0.5)
        ax.set_xlabel(f"variant − base: {unit}")
    table = _table(["difference of", "variant − base", "± (95%)", "p", "significant"], rows)
    return _figure("differences", "Each difference (variant − base) with its 95% interval",
                   _png(fig), table, f"Coloured: significant (p < {alpha}), paired by seed; grey: "
                   f"not significant. Win rates and draws are drawn in percentage points; "
                   f"the table gives them as fractions.")


def coverage_section(coverage: dict, label: str = "") -> str:
    """The statements and actions that never fired, and those off by option."""
    def rows(found, off):
        return [[_cell(f"{r['file']}:{r['line']}:{r['column']}"), _cell(r["kind"]),
                 _cell(r["context"]), _cell(", ".join(r.get("options", [])) if off else ""),
                 _cell(r.get("source", ""))] for r in found]
    body = rows(coverage["never_fired"], False) + rows(coverage.get("off_by_option", []), True)
    table = _table(["where", "statement", "in", "off by option", "source"], body)
    title = f"Coverage{' of ' + label if label else ''}: {len(coverage['never_fired'])} of " \
            f"{coverage['total']} statements and actions never fired, " \
            f"{len(coverage.get('off_by_option', []))} off by option"
    return f"<section data-chart=\"coverage\">\n<h2>{html.escape(title)}</h2>\n{table}\n</section>"


# -- pages ------------------------------------------------------------------------------

def _intro(report: dict) -> list:
    plan = report["plan"]
    seats = ", ".join(f"P{k} {kind}" for k, kind in enumerate(plan["seats"]))
    last = plan["seed"] + report["games"] - 1
    lines = [f"{report['games']} games (dealt with seeds {plan['seed']}–{last}), "
             f"{plan['players']} players; seats: {seats}.",
             f"{report['completed']} games finished, {report['capped']} cut off at "
             f"{plan['max_decisions']} decisions."]
    draws = report.get("draws")
    if draws:
        lines.append(f"Draws: {draws['count']} of {report['completed']} games "
                     f"({_pct(draws['rate'])}).")
    if report.get("interrupted"):
        lines.append(f"Interrupted: the figures of the {report['played']} games finished.")
    return lines


def _provenance(command: str, sides: list) -> str:
    """The command that made the page, and of each rulebook (`sides`:
    [(label, report)]) the options in force and the rules' fingerprint, as
    a definition list a reader can copy from."""
    items = []
    if command:
        # each word unbroken: a line may break between words, not in '--games'
        words = " ".join(f"<span class=\"word\">{html.escape(w)}</span>"
                         for w in command.split(" "))
        items.append(("command", f"<code>{words}</code>"))
    for label, side in sides:
        options = side.get("options")
        if options is not None:
            shown = ", ".join(f"{k} = {json.dumps(v)}" for k, v in options.items()) or "none"
            items.append((f"{label}options in force", html.escape(shown)))
        if side.get("fingerprint"):
            items.append((f"{label}rules fingerprint",
                          f"<code>{html.escape(side['fingerprint'])}</code>"))
    body = "".join(f"<dt>{html.escape(k)}</dt><dd>{v}</dd>" for k, v in items)
    return f"<dl class=\"provenance\">{body}</dl>"


def simulation_page(report: dict, title: str) -> str:
    """The page of one `simulate` report (with its coverage, if measured)."""
    Figure = require()
    runs = [("this run", report)]
    figures = [chart(Figure, runs) for chart in (win_rates, convergence, scores, margins,
                                                 length, endings, actions, actions_by_seat)
               if _has(chart, report)]
    if "coverage" in report:
        figures.append(coverage_section(report["coverage"]))
    return _page(title, _intro(report), figures,
                 _provenance(report.get("command", ""), [("", report)]))


# the report key each chart draws from (a report of an older run may lack it)
_KEYS = {"convergence": "convergence", "margins": "margin", "endings": "endings",
         "actions_by_seat": "actions_by_seat"}


def _has(chart, report: dict) -> bool:
    key = _KEYS.get(chart.__name__)
    return key is None or key in report


def comparison_page(result: dict, base_title: str, variant_title: str) -> str:
    """The page of a `compare` result: the differences first, then both
    rulebooks' figures side by side."""
    Figure = require()
    comparison = result["comparison"]
    runs = [("base", result["base"]), ("variant", result["variant"])]
    intro = [f"Base: {base_title}.", f"Variant: {variant_title}.",
             f"{comparison['pairs']} games finished on both rulebooks; {comparison['test']}; "
             f"significant means p < {comparison['alpha']}.",
             *_intro(result["base"])[:1]]
    figures = [differences(Figure, comparison)]
    figures += [chart(Figure, runs) for chart in (win_rates, convergence, scores, margins,
                                                  length, endings, actions, actions_by_seat)
                if _has(chart, result["base"])]
    for key in ("base", "variant"):
        if "coverage" in result[key]:
            figures.append(coverage_section(result[key]["coverage"], key))
    provenance = _provenance(result.get("command", ""),
                             [("base: ", result["base"]), ("variant: ", result["variant"])])
    return _page(f"{result['base']['game']}: base vs variant", intro, figures, provenance)


# -- the page of `rulebook analyse` ---------------------------------------------------

def metrics_table(report: dict) -> str:
    """Every metric's figure in one table, each row named as docs/results.md
    defines it."""
    m = report["metrics"]
    d, b = m["duration"], m["branching"]
    dec, lc, dr, bal = m["decisiveness"], m["lead_changes"], m["drawishness"], m["balance"]
    rows = [("duration: decisions a game (mean)", d["decisions"]["mean"], None),
            ("duration: rounds a game (mean)", d["rounds"]["mean"], None),
            ("branching factor: legal actions a decision (mean)", b["mean"], None),
            ("branching factor: largest", b["max"], None)]
    rows += [(f"branching factor in phase {p['phase']}: mean (max {_num(p['max'])})",
              p["mean"], None) for p in b["by_phase"]]
    rows += [("decisiveness (mean over games one player won)", dec["mean"], None),
             ("lead changes a game (mean)", lc["mean"], None),
             ("games with a lead change", lc["games_with_a_change"], None),
             ("drawishness: share of draws", dr["rate"], _pct(dr["rate"])),
             ("games cut off unfinished", dr["unfinished"], None)]
    rows += [(f"balance: P{s['seat']} ({s['ai']}) win rate", s["win_rate"],
              f"{_pct(s['win_rate'])} ({_pct(s['ci95'][0])}–{_pct(s['ci95'][1])})")
             for s in bal["seats"]]
    for key, who in (("first_mover", "the player who moved first"), ("seat_p0", "seat P0")):
        t = bal[key]
        rows.append((f"balance: {who}'s win rate", t["win_rate"],
                     f"{_pct(t['win_rate'])} ({_pct(t['ci95'][0])}–{_pct(t['ci95'][1])}), "
                     f"p = {t['p']:.3f}"))
    if "never_used" in m:
        nu = m["never_used"]
        rows.append(("rules never used (statements and actions)", len(nu["never_fired"]),
                     f"{len(nu['never_fired'])} of {nu['rules']}"))
    table = _table(["metric", "value"], [[_cell(name), _cell(v, text)] for name, v, text in rows])
    return (f"<section data-chart=\"metrics\">\n<h2>The metrics</h2>\n"
            f"<p class=\"note\">Each is defined, with its formula, in docs/results.md "
            f"(\"rulebook analyse\").</p>\n{table}\n</section>")


def branching(Figure, runs: list) -> str:
    """The number of legal actions at a decision: its distribution, and its
    mean and largest by phase."""
    report = runs[0][1]
    b = report["metrics"]["branching"]
    phases = b["by_phase"]
    fig = Figure(figsize=(7, 2.8 + 0.3 * len(phases)), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[3, 2])
    _stairs(left, b["histogram"], b["decisions"], COLOURS[0], "this run")
    left.set_xlabel("legal actions of the player to move")
    left.set_ylabel("share of decisions")
    left.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ys = range(len(phases))
    right.barh(ys, [p["mean"] for p in phases], 0.6, color=COLOURS[0], label="mean")
    right.plot([p["max"] for p in phases], list(ys), "|", color="#222", markersize=14,
               label="largest")
    right.set_yticks(list(ys), [p["phase"] for p in phases])
    right.set_ylim(max(len(phases), 3) - 0.5, -0.5)      # a bar stays a bar with one phase
    right.set_xlabel("legal actions, by phase")
    _legend(right, loc="lower right")
    rows = [[_cell(p["phase"]), _cell(p["decisions"]), _cell(p["mean"]), _cell(p["median"]),
             _cell(p["max"])] for p in phases]
    rows.append([_cell("every phase"), _cell(b["decisions"]), _cell(b["mean"]),
                 _cell(b["median"]), _cell(b["max"])])
    table = _table(["phase", "decisions", "mean", "median", "largest"], rows)
    return _figure("branching", "Branching factor: the legal actions at each decision",
                   _png(fig), table,
                   "A decision's branching factor is the number of options the player to "
                   "move has (an action with its parameters counts once for each choice of "
                   "them).")


def _distribution(Figure, name: str, caption: str, d: dict, xlabel: str, note: str,
                  percent_x: bool = False) -> str:
    fig = Figure(figsize=(7, 2.6), layout="constrained")
    ax = fig.add_subplot()
    _stairs(ax, d["histogram"], d["n"], COLOURS[0], "this run")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    if percent_x:
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    q = d["quantiles"]
    table = _table(["games", "mean", "sd", "min", "p25", "median", "p75", "max"],
                   [[_cell(d["n"]), _cell(d["mean"]), _cell(d["sd"]), _cell(d["min"]),
                     _cell(q["p25"]), _cell(q["p50"]), _cell(q["p75"]), _cell(d["max"])]])
    return _figure(name, caption, _png(fig), table, note)


def decisiveness(Figure, runs: list) -> str:
    return _distribution(
        Figure, "decisiveness", "Decisiveness: how much of the game the winner led for good",
        runs[0][1]["metrics"]["decisiveness"],
        "share of the game's decisions after which the winner led alone to the end",
        "Over the games one player won. 100%: the winner led alone from the first "
        "decision on; near 0%: the lead was taken for good at the very end (0%: the "
        "winner never led alone on the score at the end, won by a tie-break or the "
        "rulebook's own winners rule).", percent_x=True)


def lead_change_chart(Figure, runs: list) -> str:
    return _distribution(
        Figure, "lead-changes", "Lead changes per game", runs[0][1]["metrics"]["lead_changes"],
        "times the sole leader on the score changed",
        "A change: after a decision one player leads alone, and the last player who "
        "led alone was another (a tie for the lead is not one).")


def analysis_page(report: dict, title: str) -> str:
    """The page of `rulebook analyse`: the metrics' table, then their charts
    (balance, win rates as games accumulate, length, branching,
    decisiveness, lead changes, ends) and the rules never used."""
    Figure = require()
    runs = [("this run", report)]
    figures = [metrics_table(report)]
    figures += [chart(Figure, runs) for chart in (win_rates, convergence, length, branching,
                                                  decisiveness, lead_change_chart, margins,
                                                  endings)]
    if "coverage" in report:
        figures.append(coverage_section(report["coverage"]))
    return _page(f"{title}: analysis", _intro(report), figures,
                 _provenance(report.get("command", ""), [("", report)]))
