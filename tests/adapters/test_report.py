"""`--report FILE.html`: the charts of `simulate` and `compare` in one page.

matplotlib is an optional extra (`rulebook[plot]`), so this file runs only
where it is installed; the core suite checks the coded error without it
(tests/test_cli.py). A page is rendered from a small run and read back:
every chart is a PNG inside the page, nothing is fetched from elsewhere,
and the table under each chart holds exactly the figures of the JSON
report. The same games give the same page, byte for byte, with one worker
or two.
"""

from __future__ import annotations

import base64
import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from interpreter.terminal import cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COUNTER = ROOT / "tests" / "engine" / "counter.rules"
PNG = b"\x89PNG\r\n\x1a\n"


class Page(HTMLParser):
    """The charts of a page: name -> {"images": [bytes], "rows": [[value]]},
    each row the exact values (`data-value`) of a table row under it."""

    def __init__(self, text: str):
        super().__init__()
        self.charts: dict = {}
        self.current = None
        self.row = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-chart" in attrs:
            self.current = self.charts.setdefault(attrs["data-chart"],
                                                  {"images": [], "rows": []})
        elif tag == "img" and self.current is not None:
            head, _, data = attrs["src"].partition(",")
            assert head == "data:image/png;base64"
            self.current["images"].append(base64.b64decode(data))
        elif tag == "tr" and self.current is not None:
            self.row = []
            self.current["rows"].append(self.row)
        elif tag == "td" and self.row is not None:
            self.row.append(json.loads(attrs["data-value"]))

    def handle_endtag(self, tag):
        if tag in ("figure", "section"):
            self.current = None
        elif tag == "tr":
            self.row = None


def run(tmp_path, name, *argv) -> tuple:
    page, out = tmp_path / f"{name}.html", tmp_path / f"{name}.json"
    assert cli.main([*argv, "--report", str(page), "--json", str(out), "--quiet"]) == 0
    text = page.read_text(encoding="utf-8")
    return text, Page(text).charts, json.loads(out.read_text())


def rows_of(chart: dict) -> list:
    return [r for r in chart["rows"] if r]          # the header row has no values


def test_a_simulation_page_draws_its_figures(tmp_path, capsys):
    text, charts, report = run(tmp_path, "sim", "simulate", "hanamikoji", "--games", "12",
                               "--seed", "4", "--coverage", "--workers", "1")
    capsys.readouterr()
    assert set(charts) == {"win-rates", "convergence", "scores", "margin", "length",
                           "endings", "actions", "actions-by", "coverage"}
    for name in ("win-rates", "convergence", "scores", "margin", "length", "endings",
                 "actions", "actions-by"):
        assert [image[:8] for image in charts[name]["images"]] == [PNG]
    assert not re.search(r"(src|href)=\"(https?:)?//", text)      # self-contained: opens offline
    assert "<script" not in text
    assert rows_of(charts["win-rates"]) == [
        ["P%d (%s)" % (s["seat"], s["ai"]), "this run", s["win_rate"], *s["ci95"], s["wins"]]
        for s in report["seats"]]
    assert [r[2] for r in rows_of(charts["scores"])] == [s["score"]["mean"]
                                                         for s in report["seats"]]
    assert rows_of(charts["length"])[0][:3] == ["decisions", "this run",
                                                report["decisions"]["mean"]]
    assert rows_of(charts["actions"]) == [[name, "this run", a["count"], a["share"]]
                                          for name, a in report["actions"].items()]
    off = [r for r in rows_of(charts["coverage"]) if r[3]]
    assert [r[3] for r in off] == [", ".join(r["options"])
                                   for r in report["coverage"]["off_by_option"]]
    margin = report["margin"]
    assert rows_of(charts["margin"])[0][:3] == ["this run", margin["n"], margin["mean"]]
    ends = report["endings"]["ends"]
    assert rows_of(charts["endings"])[:len(ends)] == [
        [e["text"], "this run", e["games"], e["games"] / 12] for e in ends]
    last = report["convergence"]
    assert last["games"][-1] == 12
    assert [r[3] for r in rows_of(charts["convergence"]) if r[0] == 12] == [
        *(s["win_rate"][-1] for s in last["seats"]), last["first_mover"]["win_rate"][-1]]
    assert [r[3] for r in rows_of(charts["actions-by"]) if r[2] == "seat P1"] == [
        a["count"] for a in report["actions_by_seat"][1]["actions"].values()]
    assert report["fingerprint"] in text
    assert report["command"].startswith("rulebook simulate hanamikoji --games 12")
    words = re.findall(r'<span class="word">([^<]*)</span>', text)
    assert " ".join(words) == report["command"].replace(str(tmp_path), html.escape(str(tmp_path)))
    first, p0 = report["first_mover"], report["seat_p0"]
    assert f"the player who moved first wins {first['win_rate']:.1%}" in text
    assert f"seat P0 wins {p0['win_rate']:.1%}" in text


def test_a_comparison_page_draws_each_difference(tmp_path, capsys):
    _, charts, result = run(tmp_path, "cmp", "compare", str(COUNTER), str(COUNTER),
                            "--variant-option", "target=3", "--games", "30", "--workers", "1")
    capsys.readouterr()
    assert {"differences", "win-rates", "scores", "length", "actions"} <= set(charts)
    comparison = result["comparison"]
    expected = [r["win_rate"] for r in comparison["seats"]] + [comparison["draws"]["difference"]]
    expected += [r["score"] for r in comparison["seats"]]
    expected += [comparison["length"][m]["difference"] for m in ("decisions", "rounds")]
    rows = rows_of(charts["differences"])
    assert [r[1:4] for r in rows] == [[t["difference"], t["half_width"], t["p"]]
                                      for t in expected]
    assert [r[4] for r in rows] == [t["p"] < comparison["alpha"] for t in expected]
    runs = {(r[0], r[1]): r[2] for r in rows_of(charts["win-rates"])}
    assert runs[("P0 (random)", "variant")] == result["variant"]["seats"][0]["win_rate"]
    assert runs[("P1 (random)", "base")] == result["base"]["seats"][1]["win_rate"]


def test_the_same_games_give_the_same_page(tmp_path, capsys):
    argv = ["simulate", str(COUNTER), "--games", "60", "--players", "3", "--seed", "1"]
    one, _, _ = run(tmp_path, "one", *argv, "--workers", "1")
    two, _, _ = run(tmp_path, "two", *argv, "--workers", "2")
    capsys.readouterr()
    # the page says the command that made it, which names the workers
    command = re.compile(r"<dt>command</dt><dd>.*?</dd>", re.DOTALL)
    assert len(command.findall(one)) == 1
    assert command.sub("", one) == command.sub("", two)


def test_an_analysis_page_draws_every_metric(tmp_path, capsys):
    text, charts, report = run(tmp_path, "ana", "analyse", "kalah", "--games", "20",
                               "--seed", "2", "--workers", "1")
    capsys.readouterr()
    assert {"metrics", "win-rates", "convergence", "length", "branching", "decisiveness",
            "lead-changes", "margin", "endings", "coverage"} <= set(charts)
    for name in ("branching", "decisiveness", "lead-changes"):
        assert [image[:8] for image in charts[name]["images"]] == [PNG]
    m = report["metrics"]
    values = {r[0]: r[1] for r in rows_of(charts["metrics"])}
    assert values["decisiveness (mean over games one player won)"] == m["decisiveness"]["mean"]
    assert values["lead changes a game (mean)"] == m["lead_changes"]["mean"]
    assert values["branching factor: largest"] == m["branching"]["max"]
    assert values["drawishness: share of draws"] == m["drawishness"]["rate"]
    assert rows_of(charts["branching"])[-1] == [
        "every phase", m["branching"]["decisions"], m["branching"]["mean"],
        m["branching"]["median"], m["branching"]["max"]]
    assert rows_of(charts["decisiveness"])[0][:2] == [m["decisiveness"]["n"],
                                                      m["decisiveness"]["mean"]]
    assert "<h1>Kalah (kalah): analysis</h1>" in text
    assert report["fingerprint"] in text
