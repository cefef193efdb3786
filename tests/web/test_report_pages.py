"""The pages of `--report` as a designer opens them: in Chromium, at a
laptop's size, every chart's picture loads and has its caption, and the
page says how it was made (its command and the rules' fingerprint)."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from interpreter.terminal import cli  # noqa: E402

PAGES = [
    ("simulate", ["simulate", "hanamikoji", "--games", "20"],
     ["Win rate per seat", "Win rates as games accumulate", "Score margin",
      "How the games ended", "Each action's share of each seat's decisions"]),
    ("compare", ["compare", "hanamikoji", "hanamikoji", "--variant-option",
                 "first_player=P0", "--games", "20"],
     ["Each difference (variant − base)", "Win rates as games accumulate", "Score margin"]),
    ("analyse", ["analyse", "kalah", "--games", "20"],
     ["The metrics", "Branching factor", "Decisiveness", "Lead changes per game",
      "How the games ended"]),
]


@pytest.mark.parametrize("name, argv, captions", PAGES, ids=[p[0] for p in PAGES])
def test_a_report_page_shows_its_charts_in_a_browser(browser, tmp_path, capsys, screenshots,
                                                     name, argv, captions):
    path = tmp_path / f"{name}.html"
    assert cli.main([*argv, "--workers", "1", "--quiet", "--report", str(path)]) == 0
    capsys.readouterr()
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    try:
        page.goto(path.as_uri())
        shown = page.locator("figcaption, h2").all_inner_texts()
        for caption in captions:
            assert any(text.startswith(caption) for text in shown), (caption, shown)
        images = page.locator("figure img")
        assert images.count() >= len(captions) - 1
        # every picture decoded, none wider than the page
        sizes = page.eval_on_selector_all(
            "figure img", "imgs => imgs.map(i => [i.naturalWidth, i.getBoundingClientRect().right])")
        assert all(natural > 0 and right <= 1366 for natural, right in sizes)
        assert page.locator("dl.provenance dt").first.inner_text() == "command"
        assert "fingerprint" in page.locator("dl.provenance").inner_text()
        page.screenshot(path=str(screenshots / f"report-{name}.png"), full_page=True)
    finally:
        page.close()
