"""Load a rulebook: the gated pipeline from a file to checked IR.

read → parse (AST with spans) → static checks (every error collected) → IR →
schema validation; `load.load_rulebook` then makes the `Game` (which compiles
per player count). Each gate stops
the pipeline with all the errors it found, each with its code and
file:line:column. A bare name (a file name without ``.rules``) is looked up in the
project's ``rulebooks/`` folder. Every file is read through `files`: a
regular file of bounded size, and the files a rulebook names (its base, its
data) only from its own folder or the library.
"""

from __future__ import annotations

import errno
from pathlib import Path

from .checks import check
from . import files, variants
from ..errors import FileNotReadable, LimitExceeded, RulebookError, RulebookErrors
from .limits import MAX_FILE_NAME, MAX_RULEBOOK_BYTES
from .schema import validate_ir
from .syntax import parse, room_to_nest

RULEBOOK_DIR = files.LIBRARY
SUFFIX = ".rules"


def find_rulebook(name_or_path: str) -> Path:
    """A path as given, or a name from rulebooks/ (with or without .rules)."""
    path = Path(name_or_path)
    try:
        if path.exists():
            return path
        for candidate in (RULEBOOK_DIR / name_or_path, RULEBOOK_DIR / (str(name_or_path) + SUFFIX)):
            if candidate.is_file():
                return candidate
    except OSError as e:        # the file system refuses the name itself
        shown = files.brief(name_or_path)
        if e.errno == errno.ENAMETOOLONG:
            raise RulebookErrors([LimitExceeded(
                f"the rulebook name '{shown}' is too long for a file name",
                hint=f"a file name is at most {MAX_FILE_NAME} characters")]) from None
        raise RulebookErrors([FileNotReadable(f"cannot read '{shown}': {e.strerror or e}")]
                             ) from None
    known = sorted(p.stem for p in RULEBOOK_DIR.glob("*" + SUFFIX))
    raise RulebookErrors([FileNotReadable(
        f"no rulebook file or game named '{name_or_path}'",
        hint="known games: " + ", ".join(known) if known else None)])


def shown_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _parse(text: str, filename: str) -> dict:
    try:
        return parse(text, filename)
    except RulebookErrors:
        raise
    except RulebookError as e:       # a syntax error
        raise RulebookErrors([e]) from None


def _read(path: Path) -> str:
    """A rulebook's text: a regular file of at most MAX_RULEBOOK_BYTES."""
    try:
        return files.read_text(path, str(path), MAX_RULEBOOK_BYTES, "rulebook")
    except RulebookError as e:
        raise RulebookErrors([e]) from None


def _parse_file(path: Path) -> tuple[dict, str]:
    shown = shown_path(path)
    return _parse(_read(path), shown), shown


def compile_ir(text: str, filename: str, base_dir: Path, library=None) -> dict:
    """Rulebook text → checked, schema-valid IR (a variant is merged with its
    base first, see `variants`). Its files are read from its folder, its
    library (`library`, else the nearest folder above with a
    ``rulebooks.toml``) and the shipped library (`files.roots`)."""
    ast = _parse(text, filename)
    header = variants.variant_header(ast)
    changes = [item for item in ast["items"] if item["node"] != "variant"]
    readable = files.roots(base_dir, library)
    ast = variants.resolve(ast, Path(base_dir) / Path(filename).name, filename, _parse_file,
                           allowed=readable)
    try:
        with room_to_nest():
            ir = check(ast, filename, base_dir, readable)
            validate_ir(ir)
    except RulebookErrors as e:
        if header is not None:
            variants.blame(e.errors, filename, changes)
        raise
    return ir


def load_ir(name_or_path: str, library=None) -> tuple[dict, Path]:
    path = find_rulebook(str(name_or_path))
    return compile_ir(_read(path), shown_path(path), path.parent, library), path


def blame_variant(errors: list, path: Path, filename: str) -> None:
    """Point errors found after the checks (while compiling) at the changes
    of the variant file `path`, when it is one."""
    ast = _parse(_read(path), filename)
    if variants.variant_header(ast) is not None:
        variants.blame(errors, filename, [i for i in ast["items"] if i["node"] != "variant"])
