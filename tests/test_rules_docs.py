"""The rules for players are inside the project: every shipped game has
NAME.md beside its rulebook with the sections a player looks for, its
rulebook's header says so, `rulebook rules GAME` and `rules` at the table show it,
and a variant file shows its base game's rules."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.terminal import cli
from interpreter.terminal.repl import Repl
from interpreter.presentation.rules import rules_file

ROOT = Path(__file__).resolve().parent.parent
GAMES_DOCS = ROOT / "rulebooks"
GAMES = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rules"))
SECTIONS = ("Components", "Setup", "Scoring", "Playing it here", "Variants")


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_game_has_its_rules_for_players(game):
    doc = GAMES_DOCS / f"{game}.md"
    assert doc.is_file(), f"rulebooks/{game}.md is missing"
    headings = re.findall(r"^## (.+)$", doc.read_text(encoding="utf-8"), re.M)
    for section in SECTIONS:
        assert any(h.startswith(section) for h in headings), f"{game}: no '{section}' section"


@pytest.mark.parametrize("game", GAMES)
def test_the_rulebook_header_points_to_its_rules(game):
    header = (ROOT / "rulebooks" / f"{game}.rules").read_text(encoding="utf-8").split("\n\n")[0]
    assert f"{game}.md, beside this file" in header


def test_the_variants_of_a_game_are_all_in_its_rules():
    for game in GAMES:
        text = (GAMES_DOCS / f"{game}.md").read_text(encoding="utf-8")
        for variant in (ROOT / "rulebooks" / "variants").glob(f"{game}-*.rules"):
            assert variant.stem in text, f"rulebooks/{game}.md does not name {variant.name}"


def test_a_variant_file_shows_its_base_games_rules():
    variant = ROOT / "rulebooks" / "variants" / "paris-allow-mirror.rules"
    assert rules_file(str(variant)) == GAMES_DOCS / "paris.md"
    assert rules_file("hanamikoji") == GAMES_DOCS / "hanamikoji.md"
    assert rules_file("no-such-game") is None


def test_rulebook_rules_prints_them_and_refuses_an_unknown_game(capsys):
    assert cli.main(["rules", "kalah"]) == 0
    assert "Kalah" in capsys.readouterr().out
    assert cli.main(["rules", "no-such-game"]) != 0
    err = capsys.readouterr().err
    assert "error[command/usage]" in err and "hanamikoji" in err


def test_rules_at_the_table_then_the_game_again(tmp_path):
    game = load_rulebook("hanamikoji")
    out = io.StringIO()
    lines = ["", "rules"]

    def read(prompt):
        if not lines:
            raise EOFError
        line = lines.pop(0)
        out.write(f"{prompt}{line}\n")
        return line

    repl = Repl(game, players=2, seed=1, rulebook="hanamikoji", input_fn=read,
                console=Console(file=out, width=120, color_system=None), save_dir=str(tmp_path))
    repl.run()
    text = out.getvalue()
    after = text.split("> rules\n", 1)[1]
    assert "Components" in after and "Legal actions" in after


@pytest.mark.parametrize("base", ["/etc/passwd", "../../../../../../etc/hostname", "fifo.rules",
                                  "folder", "/dev/zero"])
def test_a_variant_line_opens_no_file_outside_its_folder_and_the_library(base, tmp_path,
                                                                         monkeypatch):
    """The base a variant names is looked for as the loader looks: a file
    elsewhere, a FIFO, a folder or a device is never opened, and there are no rules."""
    os.mkfifo(tmp_path / "fifo.rules")
    (tmp_path / "folder").mkdir()
    variant = tmp_path / "mine.rules"
    variant.write_text(f'variant of "{base}"\n', encoding="utf-8")
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open",
                        lambda path, *a, **k: opened.append(str(path)) or real_open(path, *a, **k))
    assert rules_file(str(variant)) is None
    assert opened == [str(variant)]
