"""`rulebook lsp` over the protocol: the server spawned as `python -m
interpreter lsp`, spoken to over its standard input and output by pygls'
own client, the way an editor speaks to it.

One server for the whole module (starting one costs a second). A broken
rulebook is opened and gets validate's error, code and range; fixed by an
incremental change, its diagnostics empty; then hover, definition and
completion on it, a burst of edits of which the last is reported, a data
file's errors published for the data file too and cleared when it is fixed
and saved, a line with characters outside the BMP, and shutdown and exit.
When Neovim is on the PATH, the setups docs/editor.md gives for it are
tried in a headless Neovim on a broken rulebook.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
types = pytest.importorskip("lsprotocol.types")

from pygls.lsp.client import BaseLanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20           # seconds at most for an answer

BROKEN = """\
game "Draw"
players 2
component card
  | name | points |
  | A    | 1      |
  | B    | 2      |
zone deck: card, hidden
zone hand of each player: card, owner
define top_points(p) = max(c.points for c in hand(p))
phase play
  deal 1 from deck to hand(next_player(current))
  let top = first(deck)
  announce "🎴 {top} {nope}"
  end game
scoring
  score = top_points(p)
"""
FIXED = BROKEN.replace("{nope}", "{top}")


class Client(BaseLanguageClient):
    """pygls' client, keeping every publishDiagnostics notification."""

    def __init__(self):
        super().__init__("rulebook-tests", "1")
        self.published: dict = {}
        self.versions: dict = {}            # uri -> the version of each publication
        self.arrived = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: types.PublishDiagnosticsParams):
            self.published.setdefault(params.uri, []).append(params.diagnostics)
            self.versions.setdefault(params.uri, []).append(params.version)
            self.arrived.set()

    async def diagnostics_of(self, uri: str, count: int) -> list:
        """The `count`-th publication for `uri`, waited for."""
        async def wait():
            while len(self.published.get(uri, [])) < count:
                self.arrived.clear()
                await self.arrived.wait()
            return self.published[uri][count - 1]
        return await asyncio.wait_for(wait(), WAIT)

    async def diagnostics_of_version(self, uri: str, version: int) -> list:
        """The first publication for `uri` of that version of its text, waited for."""
        async def wait():
            while version not in self.versions.get(uri, []):
                self.arrived.clear()
                await self.arrived.wait()
            return self.published[uri][self.versions[uri].index(version)]
        return await asyncio.wait_for(wait(), WAIT)


def position(text: str, needle: str, offset: int = 0) -> types.Position:
    """The protocol's position (UTF-16) of `needle` in `text`, plus `offset` characters."""
    before = text[:text.index(needle) + offset]
    line = before.count("\n")
    column = before.rsplit("\n", 1)[-1]
    return types.Position(line, len(column.encode("utf-16-le")) // 2)


async def session(tmp_path: Path) -> dict:
    """Everything the test asks of one server, gathered into a dict."""
    client = Client()
    await client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(ROOT))
    got: dict = {}
    try:
        init = await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=tmp_path.as_uri())), WAIT)
        got["capabilities"] = init.capabilities
        client.initialized(types.InitializedParams())

        rulebook = tmp_path / "draw.rules"
        rulebook.write_text(BROKEN, encoding="utf-8")
        uri = rulebook.as_uri()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="rulebook", version=1,
                               text=BROKEN)))
        got["broken"] = await client.diagnostics_of(uri, 1)

        start = position(BROKEN, "{nope}", 1)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeEvent_Type1(
                types.Range(start, types.Position(start.line, start.character + 4)), "top")]))
        got["fixed"] = await client.diagnostics_of(uri, 2)

        doc = types.TextDocumentIdentifier(uri)
        got["hover_zone"] = await client.text_document_hover_async(types.HoverParams(
            doc, position(FIXED, "from deck", 6)))
        got["hover_builtin"] = await client.text_document_hover_async(types.HoverParams(
            doc, position(FIXED, "next_player", 2)))
        got["hover_after_emoji"] = await client.text_document_hover_async(types.HoverParams(
            doc, position(FIXED, "{top} {top}", 8)))
        got["definition"] = await client.text_document_definition_async(types.DefinitionParams(
            doc, position(FIXED, "top_points(p)\n", 1)))
        got["completion"] = await client.text_document_completion_async(types.CompletionParams(
            doc, position(FIXED, "  end game", 0)))
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=3, uri=uri),
            [types.TextDocumentContentChangeEvent_Type2(FIXED.replace(
                "  end game", "  let n = top.\n  end game"))]))
        got["attributes"] = await client.text_document_completion_async(types.CompletionParams(
            doc, types.Position(FIXED.count("\n", 0, FIXED.index("  end game")), 14)))

        # typed fast: each text names another unknown word; the last one is what is reported
        seen = len(client.published[uri])
        typed = [FIXED.replace("{top} {top}", f"{{top}} {{typo{k}}}") for k in range(1, 6)]
        for k, text in enumerate(typed, 4):
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=k, uri=uri),
                [types.TextDocumentContentChangeEvent_Type2(text)]))
        got["typed_last"] = await client.diagnostics_of_version(uri, 3 + len(typed))
        await asyncio.sleep(0.5)            # nothing older may come after it
        got["typed"] = list(zip(client.versions[uri][seen:], client.published[uri][seen:]))

        (tmp_path / "tiles.yaml").write_text("- name: a\n  copies: -3\n", encoding="utf-8")
        tiles = tmp_path / "tiles.rules"
        text = FIXED.replace("component card\n", 'component tile from "tiles.yaml"\ncomponent card\n')
        tiles.write_text(text, encoding="utf-8")
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=tiles.as_uri(), language_id="rulebook", version=1,
                               text=text)))
        got["with_data"] = await client.diagnostics_of(tiles.as_uri(), 1)
        got["data_file"] = await client.diagnostics_of((tmp_path / "tiles.yaml").as_uri(), 1)
        # the data file fixed and saved: the rulebook that reads it is checked again
        (tmp_path / "tiles.yaml").write_text("- name: a\n  copies: 3\n", encoding="utf-8")
        data = (tmp_path / "tiles.yaml").as_uri()
        seen, seen_data = len(client.published[tiles.as_uri()]), len(client.published[data])
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            types.TextDocumentIdentifier(data)))
        got["data_fixed"] = await client.diagnostics_of(tiles.as_uri(), seen + 1)
        got["data_file_fixed"] = await client.diagnostics_of(data, seen_data + 1)

        await asyncio.wait_for(client.shutdown_async(None), WAIT)
        client.exit(None)
        await asyncio.wait_for(client._server.wait(), WAIT)
        got["exit_code"] = client._server.returncode
    finally:
        await client.stop()
    return got


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    return asyncio.run(session(tmp_path_factory.mktemp("lsp")))


def test_the_server_says_what_it_offers(answers):
    caps = answers["capabilities"]
    assert caps.hover_provider and caps.definition_provider
    assert "." in caps.completion_provider.trigger_characters
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental


def test_a_broken_rulebook_gets_the_error_validate_reports(answers):
    (d,) = answers["broken"]
    assert d.code == "rulebook/unknown-name"
    assert d.severity == types.DiagnosticSeverity.Error
    line = BROKEN.splitlines()[12]
    assert line == '  announce "🎴 {top} {nope}"'
    # validate says 13:22 (characters); the emoji is two UTF-16 code units
    assert (d.range.start.line, d.range.start.character) == (12, 22)
    assert (d.range.end.line, d.range.end.character) == (12, 26)


def test_the_fixed_rulebook_has_no_diagnostics(answers):
    assert answers["fixed"] == []


def test_hover_says_what_a_name_is(answers):
    zone = answers["hover_zone"]
    assert "zone deck: card, hidden" in zone.contents.value
    assert zone.range.start.line == 10
    assert "the player k seats to the left" in answers["hover_builtin"].contents.value
    assert "let top = first(deck)" in answers["hover_after_emoji"].contents.value


def test_definition_goes_to_the_define(answers):
    location = answers["definition"]
    assert location.uri.endswith("draw.rules")
    assert (location.range.start.line, location.range.start.character) == (8, 7)


def test_completion_lists_names_builtins_and_keywords(answers):
    labels = {item.label for item in answers["completion"].items}
    assert {"deck", "hand", "top_points", "top", "card", "A", "count", "opponent", "players",
            "announce"} <= labels
    attributes = {item.label for item in answers["attributes"].items}
    assert attributes == {"name", "points"}


def test_an_included_data_file_gets_its_errors(answers):
    (on_include,) = answers["with_data"]
    assert on_include.code == "data/invalid" and "tiles.yaml" in on_include.message
    assert on_include.range.start.line == 2
    assert on_include.related_information[0].location.uri.endswith("tiles.yaml")
    (in_file,) = answers["data_file"]
    assert in_file.code == "data/invalid"
    assert (in_file.range.start.line, in_file.range.start.character) == (1, 10)


def test_the_last_of_several_rapid_edits_is_the_one_reported(answers):
    (d,) = answers["typed_last"]
    assert "typo5" in d.message
    versions = [v for v, _ in answers["typed"]]
    assert versions == sorted(versions) and versions[-1] == 8     # nothing older after it
    for version, found in answers["typed"]:     # each publication is of its own version's text
        assert [f"typo{version - 3}" in x.message for x in found] == [True]


def test_a_fixed_and_saved_data_file_clears_the_errors_of_the_rulebook_that_reads_it(answers):
    assert answers["data_fixed"] == [] and answers["data_file_fixed"] == []


def test_shutdown_then_exit_ends_the_server(answers):
    assert answers["exit_code"] == 0


# -- Neovim: the docs' setups, in the Neovim on the PATH (skipped without one) ----------

NVIM_CHECK = """\
local arrived = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local found, clients = {}, {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { lnum = d.lnum, col = d.col, code = d.code })
end
for _, c in pairs(vim.lsp.buf_get_clients(0)) do table.insert(clients, c.name) end
vim.fn.writefile({ vim.fn.json_encode({ filetype = vim.bo.filetype, clients = clients,
                   diagnostics = found, arrived = arrived }) }, vim.g.rulebook_result)
vim.cmd("qa!")
"""


def neovim_setup(kind: str) -> str:
    """init.lua as docs/editor.md gives it: `runtime` (editors/nvim on the
    runtime path) or `inline` (the autocommands in init.lua itself), with
    this checkout's server as the command."""
    command = "{ %s, '-m', 'interpreter', 'lsp' }" % json.dumps(sys.executable)
    page = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    section = page[page.index("## Neovim\n"):page.index("## Helix\n")]
    blocks = re.findall(r"```lua\n(.*?)```", section, re.S)
    runtime, inline = blocks[0], next(b for b in blocks if "start_client" in b)
    if kind == "runtime":
        assert "editors/nvim" in runtime
        return (runtime.replace("/path/to/rulebook", str(ROOT))
                + f"vim.g.rulebook_lsp_cmd = {command}\n")
    assert '{ "rulebook", "lsp" }' in inline
    return inline.replace('{ "rulebook", "lsp" }', command)


@pytest.mark.parametrize("kind", ["runtime", "inline"])
def test_neovim_with_the_docs_setup_detects_attaches_and_shows_the_errors(kind, tmp_path):
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("no nvim on the PATH")
    (tmp_path / "init.lua").write_text(neovim_setup(kind), encoding="utf-8")
    (tmp_path / "check.lua").write_text(NVIM_CHECK, encoding="utf-8")
    (tmp_path / "draw.rules").write_text(BROKEN, encoding="utf-8")
    result = tmp_path / "result.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([nvim, "--headless", "-u", str(tmp_path / "init.lua"), "-i", "NONE",
                    "-c", f"let g:rulebook_result = '{result}'", "draw.rules",
                    "-c", "luafile check.lua"], cwd=tmp_path, env=env, timeout=30,
                   stdin=subprocess.DEVNULL, capture_output=True, check=False)
    got = json.loads(result.read_text(encoding="utf-8"))
    assert got["filetype"] == "rulebook" and got["clients"] == ["rulebook"]
    assert got["arrived"] and got["diagnostics"] == [
        {"lnum": 12, "col": 24, "code": "rulebook/unknown-name"}]    # bytes: the emoji is 4


def test_a_saved_file_makes_every_index_be_built_again():
    """An index is kept while its rulebook's text is unchanged; once a file
    is saved (a data file the rulebook reads, say), the next question builds
    it again, though the rulebook's own text is the same."""
    from interpreter.editor.server import Session

    session = Session()
    text = (ROOT / "rulebooks" / "kuhn-poker.rules").read_text(encoding="utf-8")
    path = str(ROOT / "rulebooks" / "kuhn-poker.rules")
    first = session.index("file:///kuhn-poker.rules", text, path)
    assert session.index("file:///kuhn-poker.rules", text, path) is first
    session.forget_texts()
    again = session.index("file:///kuhn-poker.rules", text, path)
    assert again is not first and again.names == first.names
    session.worker.shutdown()
