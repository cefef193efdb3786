"""`load_rulebook`: a rulebook file or a game's name to a ready `Game`.

The whole pipeline in one call: `loader.load_ir` reads, parses, checks and
validates the file; the `Game` then compiles the IR for its smallest player
count, so that a rulebook that fails to compile is refused here, and every
other count when a game of that count is first asked for (`Game.program`;
`Game.compile_all` compiles each count `rulebook validate` checks). Errors
found while compiling are pointed at a variant file's changes when it is one.

`library_rulebook` finds a rulebook from a name that nobody typed (the one a
save file holds): only in the shipped library, confined as a rulebook's data
files are, so that such a name never opens a file elsewhere on the machine.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

from .engine import Game
from ..errors import FileNotReadable, RulebookError
from ..language import files
from ..language.limits import MAX_RULEBOOK_BYTES
from ..language.loader import SUFFIX, blame_variant, load_ir


def load_rulebook(name_or_path, options: dict | None = None, library=None) -> Game:
    """Load, check and prepare a rulebook; raises RulebookErrors. `library`
    is the folder of the library it belongs to, where a variant's base and
    the data files may lie too (default: the nearest folder above the file
    that holds a ``rulebooks.toml``)."""
    ir, path = load_ir(str(name_or_path), library)
    game = Game(ir, options, str(path),
                blame=partial(blame_variant, path=path, filename=ir["file"]))
    game.program(game.min_players)
    return game


def library_rulebook(name: str) -> Path:
    """The rulebook file of the library that `name` names: a game's name as
    `play GAME` takes it (`NAME`, `variants/NAME`,
    with or without `.rules`), or a path (from the current folder, or
    absolute) that leads into the library. The file, links followed, must
    lie in the library and be a regular file of a rulebook's size; it is
    checked without being opened (`files.locate`). Anything else raises
    FileNotReadable (rulebook/file) saying why, never what the file holds."""
    library = os.path.realpath(files.LIBRARY)
    written = [name] if name.endswith(SUFFIX) else [name, name + SUFFIX]
    bare = not (os.path.isabs(name) or os.sep in name or "/" in name)
    folders = [library] if bare else [library, os.getcwd()]
    shown = files.brief(name)
    refused = None
    escaped = missing = False   # escaped: a reading from the library leads out of it
    for folder in folders:
        for text in written:
            if "\x00" in text:
                raise FileNotReadable(f"the rulebook path '{shown}' holds a NUL character")
            if not _inside(os.path.realpath(os.path.join(folder, text)), library):
                escaped = escaped or folder == library
                continue
            try:
                return files.locate(text, folder, (library,), MAX_RULEBOOK_BYTES, "rulebook")
            except files.FileMissing:
                missing = True
            except RulebookError as e:     # a folder, a FIFO, a device, too large
                refused = refused or e
    if refused is not None:
        raise refused
    if escaped or not (missing or bare):
        raise FileNotReadable(f"'{shown}' lies outside the library of games (rulebooks/), "
                              f"links followed")
    known = sorted(p.stem for p in Path(library).glob("*" + SUFFIX))
    raise FileNotReadable(f"no game of the library is named '{shown}'",
                          hint="games: " + ", ".join(known) if known else None)


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:          # another drive
        return False
