"""Variant rulebooks: a file that names its base and overrides what changes
(interpreter/language/variants.py), and the variant files shipped in rulebooks/variants/."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.terminal.cli import main
from interpreter.errors import RulebookErrors

HERE = Path(__file__).parent / "variants"
SHIPPED = Path(__file__).resolve().parent.parent / "rulebooks" / "variants"


def errors_of(path):
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(path)
    return info.value.errors


def finish(game, players, seed):
    rng = random.Random(seed)
    s = game.new_game(players=players, seed=seed)
    while game.outcome(s) is None:
        p = game.to_move(s)[0]
        s = game.apply(s, rng.choice(game.legal_actions(s, p)))
    return s


def test_a_variant_overrides_options_table_rows_and_scoring_parts():
    base, variant = load_rulebook(HERE / "base" / "tiny.rules"), load_rulebook(HERE / "goal-one.rules")
    assert (base.name, variant.name) == ("Tiny", "Tiny (quick)")
    assert base.options == {"goal": 3} and variant.options == {"goal": 1}
    s = variant.new_game(players=2, seed=0)
    s = variant.apply(s, variant.legal_actions(s, 0)[0])
    assert variant.outcome(s) is None or variant.scores(s)[0] == 2      # draws 2 (table row)
    end = finish(variant, 2, 1)
    assert max(variant.outcome(end).scores) >= 1
    assert len(variant.program(2).tie_break) == 1 and not base.program(2).tie_break


def test_data_files_of_the_base_are_found_from_the_variant_folder():
    variant = load_rulebook(HERE / "goal-one.rules")
    assert variant.program(2).lay.ncomponents == 12


def test_a_variant_of_a_variant():
    g = load_rulebook(HERE / "of-a-variant.rules")
    assert g.name == "Tiny (quick, scored by red)" and g.options == {"goal": 1}
    finish(g, 3, 2)


def test_naming_what_the_base_lacks_is_refused_at_the_variant_lines():
    errs = errors_of(HERE / "unknown-names.rules")
    found = {(e.code, Path(e.span.file).name, e.span.line) for e in errs}
    assert found == {("rulebook/variant", "unknown-names.rules", 2),
                     ("rulebook/variant", "unknown-names.rules", 5),
                     ("rulebook/variant", "unknown-names.rules", 6)}
    hints = " ".join(e.hint or "" for e in errs)
    assert "'goal'" in hints and "'draw'" in hints


def test_a_missing_base_and_a_late_header_are_refused():
    (err,) = errors_of(HERE / "missing-base.rules")
    assert err.code == "rulebook/variant" and (err.span.line, err.span.column) == (1, 12)
    (err,) = errors_of(HERE / "late-header.rules")
    assert err.code == "rulebook/variant" and err.span.line == 2


def test_breaking_the_base_types_points_at_the_base_line_and_names_the_variant():
    errs = errors_of(HERE / "breaks-types.rules")
    assert errs and all(e.code == "rulebook/type" for e in errs)
    assert {Path(e.span.file).name for e in errs} == {"tiny.rules"}
    assert all("breaks-types.rules" in e.hint and "define at line 2" in e.hint for e in errs)


@pytest.mark.parametrize("path", sorted(SHIPPED.glob("*.rules")), ids=lambda p: p.stem)
def test_shipped_variants_validate(path, capsys):
    assert main(["validate", str(path)]) == 0


def test_hanamikoji_variant_files_switch_the_spec_decisions():
    """HK-D1 and HK-D3 as variant files."""
    seat = load_rulebook(SHIPPED / "hanamikoji-p0-starts.rules")
    assert seat.options["first_player"] == "P0"
    assert all(seat.to_move(seat.new_game(players=2, seed=k)) == (0,) for k in range(10))
    reveal = load_rulebook(SHIPPED / "hanamikoji-reveal-trade-off.rules")
    assert reveal.options["reveal_trade_off_at_round_end"] is True
    s = finish(reveal, 2, 3)
    shown = [z for z in reveal.view(s, 0)["zones"] if z["name"] == "trade_off" and z["owner"] == 1]
    assert shown[0].get("revealed") or shown[0]["cards"] == []


@pytest.mark.parametrize("data", [
    "- name: A\n- name: [1, 2]\n",          # a record the components' schema refuses
    "- name: A\n  name: B\n",               # a file that does not read: a key twice
])
def test_a_broken_data_file_of_the_base_is_blamed_once_however_often_it_is_read(tmp_path, data):
    """A data file is read and checked once while it is unchanged; the
    variant's note on each of its errors is added to that reading's errors,
    not to the kept ones, so a second check (an editor's, at each edit) says
    the same as the first."""
    (tmp_path / "cards.yaml").write_text(data, encoding="utf-8")
    (tmp_path / "base.rules").write_text(
        'game "Cards"\nplayers 2\ncomponent card from "cards.yaml"\nzone deck: card, hidden\n'
        'phase play\n  end game\nscoring\n  score = 0\n', encoding="utf-8")
    (tmp_path / "more.rules").write_text('variant of "base.rules"\nplayers 3\n', encoding="utf-8")
    first, again = (errors_of(tmp_path / "more.rules") for _ in range(2))
    assert [e.code for e in first] == ["data/invalid"]
    assert [e.hint for e in again] == [e.hint for e in first]
    assert first[0].hint.count("the base is changed by") == 1
