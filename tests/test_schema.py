"""The JSON Schemas: the IR's (schemas/rulebook.schema.json) and the
component data files' (schemas/components.schema.json).

A valid IR passes; a broken one is refused with ``rulebook/schema`` errors
placed at the rulebook line of the nearest node. The fast predicate that
`validate_ir` tries first must agree with the general validator. Data files
that are not YAML, or break their schema, are refused with ``data/invalid``
at the data file's line and column.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import random
import re
from pathlib import Path

import jsonschema
import pytest

from interpreter.language import checks, checks_declarations, schema as ir_schema, syntax
from interpreter.stdlib.builtins import AGGREGATES
from interpreter.language.checks import walk
from interpreter.language.data import SCHEMA_DIR, load_component_rows
from interpreter.errors import FileNotReadable, RulebookErrors
from interpreter.language.loader import compile_ir, load_ir
from interpreter.language.schema import ir_predicate, ir_validator, validate_ir

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = ROOT / "tests" / "language"


@functools.lru_cache(maxsize=None)
def _compiled(name):
    path = LANGUAGE / f"{name}.rules"
    return compile_ir(path.read_text(), path.name, path.parent)


def fresh_ir(name="valid-features"):
    """A private copy of a valid IR (the language test that uses most of the language)."""
    return copy.deepcopy(_compiled(name))


@pytest.fixture(scope="module")
def hanamikoji_ir():
    return load_ir("hanamikoji")[0]


def small_ir():
    return fresh_ir("valid-features")


def schema_errors(ir) -> list:
    with pytest.raises(RulebookErrors) as info:
        validate_ir(ir)
    return info.value.errors


# -- the schemas themselves ------------------------------------------------------

@pytest.mark.parametrize("name", ["rulebook.schema.json", "components.schema.json"])
def test_schemas_are_valid_draft_2020_12(name):
    jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMA_DIR / name).read_text()))


def _schema_kinds(definition: str) -> set:
    defs = json.loads((SCHEMA_DIR / "rulebook.schema.json").read_text())["$defs"]
    return set(defs[definition]["properties"]["node"]["enum"])


def test_every_node_kind_the_parser_makes_is_in_the_schema():
    source = inspect.getsource(syntax)
    made = set(re.findall(r'_node\("([a-z_]+)"', source))
    schema_text = (SCHEMA_DIR / "rulebook.schema.json").read_text()
    known = set(re.findall(r'"const": "([a-z_]+)"', schema_text)) | {"most", "fewest"}
    # 'variant' never reaches the IR: the variant is merged into its base first;
    # 'shape' is a check of a component's data, done before the IR;
    # 'score_order' becomes the scoring's 'lowest_wins'; an 'each' cell
    # becomes the rows it stands for (language/tables.py); 'player_rules'
    # names a file the checks find and the terminal shows, no rule of play; a
    # 'computed' column becomes a cell of every row (language/cells.py); a
    # 'shows' line becomes its component's `shows`; the 'called' lines, the IR's `called`;
    # the 'layout', the IR's `layout`; 'estimate' (like 'score'), the scoring's `estimate`
    assert made - {"rulebook", "game", "players", "table", "setup", "scoring", "score",
                   "tie_break", "winners", "score_order", "estimate", "row", "variant", "shape",
                   "each", "player_rules", "computed", "shows", "called", "layout"} <= known


def test_aggregates_and_name_kinds_in_the_schema_match_the_checker():
    defs = json.loads((SCHEMA_DIR / "rulebook.schema.json").read_text())["$defs"]
    assert set(defs["aggregate"]["properties"]["fn"]["enum"]) == set(AGGREGATES)
    source = inspect.getsource(checks) + inspect.getsource(checks_declarations)
    declared = set(re.findall(r'self\.declare\([^,]+, "(\w+)"', source))
    assert declared == {"option", "component_type", "table", "zone", "variable", "define", "grid"}
    refs = set(defs["name_expr"]["properties"]["ref"]["enum"])
    assert refs == declared | {"local", "constant", "component"}
    assert "builtin" in defs["call"]["properties"]["ref"]["enum"]


def test_statement_and_expression_kinds(hanamikoji_ir):
    stmts, exprs = _schema_kinds("stmt"), _schema_kinds("expr")
    assert {"move", "deal", "if", "for_each", "turn", "take_action", "choose", "go_to"} <= stmts
    assert {"name", "call", "aggregate", "attribute", "compare", "arith", "otherwise"} <= exprs


# -- valid IRs pass ------------------------------------------------------------------

def test_hanamikoji_ir_is_valid(hanamikoji_ir):
    validate_ir(hanamikoji_ir)
    assert ir_predicate()(hanamikoji_ir)
    assert ir_validator().is_valid(hanamikoji_ir)


@pytest.mark.parametrize("name", ["valid-small", "valid-features", "data-valid", "reachable-by-go-to"])
def test_valid_language_files_give_valid_ir(name):
    path = LANGUAGE / f"{name}.rules"
    ir = compile_ir(path.read_text(), path.name, path.parent)
    assert ir_predicate()(ir) and ir_validator().is_valid(ir)


def test_the_ir_is_plain_json(hanamikoji_ir):
    assert json.loads(json.dumps(hanamikoji_ir)) == hanamikoji_ir


# -- broken IRs are refused, at the nearest rulebook line ----------------------------

def _first(ir, kind, **where):
    for n in walk(ir):
        if n["node"] == kind and all(n.get(k) == v for k, v in where.items()):
            return n
    raise LookupError(kind)


def _drop(node, key):
    del node[key]


MUTATIONS = [
    # (description, find the node, change it) — the error must be on that node's line
    ("an 'if' without its condition", lambda ir: _first(ir, "if"), lambda n: _drop(n, "cond")),
    ("an unknown statement kind", lambda ir: _first(ir, "shuffle"), lambda n: n.update(node="stir")),
    ("an unknown expression kind", lambda ir: _first(ir, "compare"), lambda n: n.update(node="resembles")),
    ("a number that is a string", lambda ir: _first(ir, "number"), lambda n: n.update(value="six")),
    ("a stray field on a zone", lambda ir: ir["zones"][2], lambda n: n.update(colour="red")),
    ("an unknown visibility", lambda ir: ir["zones"][0], lambda n: n.update(visibility="secret")),
    ("an aggregate nobody implements", lambda ir: _first(ir, "aggregate"), lambda n: n.update(fn="average")),
    ("an unresolved name", lambda ir: _first(ir, "name"), lambda n: _drop(n, "ref")),
    ("a comparison with an unknown operator", lambda ir: _first(ir, "compare"), lambda n: n.update(op="=~")),
    ("a limit of zero", lambda ir: _first(ir, "once_per"), lambda n: n.update(times=0)),
    ("an empty block", lambda ir: ir["phases"][0]["body"], lambda n: n.update(stmts=[])),
    ("a span of two numbers", lambda ir: _first(ir, "deal"), lambda n: n["count"].update(at=[1, 2])),
    ("a choice of an unknown kind", lambda ir: _first(ir, "choose"), lambda n: n["choice"].update(node="pick")),
    ("a has value of no type", lambda ir: ir["components"][1]["has"][0], lambda n: n.update(type=None)),
    ("a table value that is not a cell", lambda ir: ir["table"]["hand_size"],
     lambda n: n["values"].update({"2": 6})),
]


@pytest.mark.parametrize("description, find, change", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_broken_ir_is_refused_at_the_nearest_node(description, find, change):
    ir = fresh_ir()
    node = find(ir)
    line = node["at"][0]
    change(node)
    errors = schema_errors(ir)
    assert errors
    for e in errors:
        assert e.code == "rulebook/schema"
        assert e.span.file == ir["file"]
        assert e.message.startswith("IR /")
    assert any(e.span.line == line for e in errors), [str(e) for e in errors]
    assert not ir_predicate()(ir)


@pytest.mark.parametrize("change, pointer", [
    (lambda ir: ir.update(format="rulebook-ir/0"), "/format"),
    (lambda ir: ir.pop("phases"), "/"),
    (lambda ir: ir.update(phases=[]), "/phases"),
    (lambda ir: ir["players"].update(min=0), "/players/min"),
])
def test_top_level_problems_point_at_the_top_of_the_file_or_the_declaration(change, pointer):
    ir = fresh_ir()
    change(ir)
    errors = schema_errors(ir)
    assert [e.code for e in errors] == ["rulebook/schema"] * len(errors)
    assert any(e.message.startswith(f"IR {pointer}:") for e in errors)
    for e in errors:
        assert e.span.line >= 1 and e.span.column >= 1


def test_every_violation_is_reported_sorted_by_position():
    ir = fresh_ir()
    late, early = _first(ir, "go_to"), ir["zones"][1]
    late["phase"] = 7
    early["ordered"] = "yes"
    errors = schema_errors(ir)
    assert [e.span.line for e in errors] == sorted([late["at"][0], early["at"][0]])


def test_long_values_are_cut_short_in_messages():
    ir = fresh_ir()
    ir["phases"][0]["body"] = "x" * 1000
    (error,) = schema_errors(ir)
    assert len(error.message) < 300


def test_a_data_file_row_is_placed_in_its_data_file():
    path = LANGUAGE / "data-valid.rules"
    ir = compile_ir(path.read_text(), path.name, path.parent)
    ir["components"][0]["rows"][1]["cells"]["value"] = {"node": "number", "value": "2", "at": [5, 10, 0, 0]}
    (error,) = schema_errors(ir)
    assert (error.span.file, error.span.line, error.span.column) == ("data/cards.yaml", 5, 10)


# -- the fast predicate agrees with jsonschema ---------------------------------------

_ODD_VALUES = ["x", 1.5, None, [], {}, True, -1, 0, {"node": "number", "at": [1, 1, 1, 2], "value": 3}]


def _random_mutation(ir, rng):
    nodes = [n for n in walk(ir)]
    if not nodes:
        return
    node = rng.choice(nodes)
    key = rng.choice(sorted(node))
    action = rng.randrange(4)
    if action == 0:
        del node[key]
    elif action == 1:
        node[key] = copy.deepcopy(rng.choice(_ODD_VALUES))
    elif action == 2:
        node["surplus"] = 1
    else:
        node["node"] = rng.choice(["name", "call", "block", "move", "zone", "number", "list", "bogus"])


def _agree(schema_json, base, rounds, seed):
    fast = ir_schema.compile_schema(schema_json)
    slow = jsonschema.Draft202012Validator(schema_json)
    rng = random.Random(seed)
    disagreements = []
    for _ in range(rounds):
        value = copy.deepcopy(rng.choice(base))
        for _ in range(rng.randint(1, 2)):
            _random_mutation(value, rng)
        if fast(value) != slow.is_valid(value):
            disagreements.append(json.dumps(value)[:300])
    return disagreements


def test_fast_predicate_agrees_with_jsonschema_on_broken_irs():
    path = LANGUAGE / "valid-small.rules"
    ir = compile_ir(path.read_text(), path.name, path.parent)
    rulebook_schema = json.loads((SCHEMA_DIR / "rulebook.schema.json").read_text())
    assert not _agree(rulebook_schema, [ir], rounds=25, seed=1)


@pytest.mark.parametrize("definition, kinds", [
    ("stmt", None), ("expr", None), ("component", {"component"}), ("zone", {"zone"}),
    ("action", {"action"}), ("option", {"option"}), ("variable", {"variable"}),
])
def test_fast_predicate_agrees_with_jsonschema_on_broken_nodes(definition, kinds):
    rulebook_schema = json.loads((SCHEMA_DIR / "rulebook.schema.json").read_text())
    one = {"$schema": rulebook_schema["$schema"], "$defs": rulebook_schema["$defs"],
           "$ref": f"#/$defs/{definition}"}
    kinds = kinds or _schema_kinds(definition)
    ir = small_ir()
    sections = {"component": ir["components"], "zone": ir["zones"], "option": ir["options"],
                "variable": ir["variables"], "action": ir["actions"]}
    if definition in sections:
        nodes = sections[definition]
    else:
        body = [ir["setup"], ir["phases"], ir["actions"], ir["defines"], ir["scoring"]]
        nodes = [n for n in walk(body) if n["node"] in kinds]
    assert nodes
    rounds = 40 if definition in ("action", "component") else 100
    assert not _agree(one, nodes, rounds=rounds, seed=len(definition))


def test_the_fast_predicate_knows_every_keyword_the_schema_uses():
    # compile_schema raises NotImplementedError for unknown keywords, and
    # ir_predicate would then fall back to "always ask jsonschema".
    ir_schema.compile_schema(json.loads((SCHEMA_DIR / "rulebook.schema.json").read_text()))


def test_the_kind_table_gives_the_same_errors_as_branch_by_branch_evaluation():
    rulebook_schema = json.loads((SCHEMA_DIR / "rulebook.schema.json").read_text())
    plain = jsonschema.Draft202012Validator(rulebook_schema)
    ours = ir_validator()
    path = LANGUAGE / "valid-small.rules"
    base = compile_ir(path.read_text(), path.name, path.parent)
    rng = random.Random(7)
    for _ in range(8):
        ir = copy.deepcopy(base)
        _random_mutation(ir, rng)

        def described(validator):
            return sorted((list(e.absolute_path), e.message) for e in validator.iter_errors(ir))
        assert described(ours) == described(plain)


# -- component data files ------------------------------------------------------------

def rows_of(tmp_path, text, name="tiles.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return load_component_rows(path, name)


def data_errors(tmp_path, text, name="tiles.yaml"):
    with pytest.raises(RulebookErrors) as info:
        rows_of(tmp_path, text, name)
    return [(e.code, e.span.file, e.span.line, e.span.column) for e in info.value.errors]


def test_a_list_of_records(tmp_path):
    columns, rows = rows_of(tmp_path, "- name: T1\n  points: 2\n- name: T2\n  points: 3\n  copies: 2\n")
    assert columns == ["name", "points", "copies"]
    assert [r["cells"]["copies"]["value"] for r in rows] == [1, 2]
    assert rows[1]["cells"]["points"] == {"node": "number", "value": 3, "at": [4, 11, 4, 12]}
    assert rows[0]["file"] == "tiles.yaml"


def test_a_mapping_with_components_and_notes(tmp_path):
    columns, rows = rows_of(tmp_path, "notes: from the box\ncomponents:\n  - colour: red\n    tags: [a, b]\n")
    assert columns == ["colour", "tags"]
    assert rows[0]["cells"]["colour"]["node"] == "symbol"
    assert rows[0]["cells"]["tags"]["node"] == "list"


def test_malformed_yaml_is_refused_at_its_line_and_column(tmp_path):
    assert data_errors(tmp_path, "components:\n  - name: A\n   - name: B\n") == \
        [("data/invalid", "tiles.yaml", 3, 4)]


def test_a_repeated_key_is_refused(tmp_path):
    assert data_errors(tmp_path, "- name: A\n  points: 1\n  points: 2\n") == \
        [("data/invalid", "tiles.yaml", 3, 3)]


def test_schema_violations_are_all_refused_at_the_offending_value(tmp_path):
    text = ("components:\n"
            "  - name: A\n"
            "    points: 2.5\n"             # not a whole number
            "  - name: B\n"
            "    points: {x: 1}\n"          # not a plain value
            "    copies: many\n"            # not a count
            "  - 7\n")                      # not a record
    assert data_errors(tmp_path, text) == [
        ("data/invalid", "tiles.yaml", 3, 13),
        ("data/invalid", "tiles.yaml", 5, 13),
        ("data/invalid", "tiles.yaml", 6, 13),
        ("data/invalid", "tiles.yaml", 7, 5),
    ]


@pytest.mark.parametrize("text", ["", "just words\n", "components: []\n", "components:\n  - {}\n",
                                  "- bad name: 1\n", "- name: two words\n"])
def test_empty_or_shapeless_files_are_refused(tmp_path, text):
    errors = data_errors(tmp_path, text)
    assert errors and all(code == "data/invalid" and file == "tiles.yaml" for code, file, _, _ in errors)


def test_a_missing_data_file_is_not_readable(tmp_path):
    with pytest.raises(FileNotReadable) as info:
        load_component_rows(tmp_path / "nope.yaml", "nope.yaml")
    assert info.value.code == "rulebook/file" and "nope.yaml" in info.value.message
