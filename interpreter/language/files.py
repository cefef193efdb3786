"""Reading the files a rulebook names: confined, regular and bounded.

A rulebook names other files: its data files (``component … from "FILE"``),
its player rules (``rules for players "FILE"``) and, for a variant, its base
(``variant of "FILE"``). `locate` finds one: the path, symlinks followed,
must lie inside the rulebook's own folder (or below it), inside the library
the rulebook belongs to — the nearest folder above it that holds a
``rulebooks.toml``, or the folder the user names (``--library``) — or inside
the shipped ``rulebooks/`` library (which holds a ``rulebooks.toml`` too),
and name a regular file no larger than its limit. Anything else is refused *before the file is
opened*, with an error that names the path as written and the rule it
breaks, never anything the file holds: a rulebook cannot show or load a
file from elsewhere on the machine, and a FIFO or a device is never opened.
`read_text` then reads at most the limit (and one byte more, to tell), so a
file that changes between the two still cannot fill the memory.

The errors carry no span: the caller knows where the path is written.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..errors import FileNotReadable, LimitExceeded
from .limits import MAX_FILE_NAME, count

LIBRARY = Path(__file__).resolve().parents[2] / "rulebooks"
SHOWN = 60          # characters of a path quoted in a message


class FileMissing(FileNotReadable):
    """The path names nothing (the caller may say it in its own words)."""


LIBRARY_FILE = "rulebooks.toml"      # the file that makes a folder a library of rulebooks


def library_of(folder) -> str | None:
    """The library a rulebook in `folder` belongs to: the nearest folder,
    `folder` itself or above it, that holds a ``rulebooks.toml``; or None."""
    here = os.path.realpath(folder)
    while True:
        if os.path.isfile(os.path.join(here, LIBRARY_FILE)):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def roots(folder, library=None) -> tuple[str, ...]:
    """The folders a rulebook in `folder` may read from: its own, its
    library (`library` as the user named it, else `library_of`), and the
    shipped library."""
    own = library_of(folder) if library is None else os.path.realpath(library)
    return tuple(dict.fromkeys(f for f in (os.path.realpath(folder), own,
                                           os.path.realpath(LIBRARY)) if f is not None))


def locate(written: str, folder, allowed: tuple[str, ...], limit: int, what: str) -> Path:
    """The real path of the file `written` (relative to `folder`, or
    absolute), checked without opening it: inside one of the `allowed`
    folders, a regular file, at most `limit` bytes. `what` names it in
    messages ("data file", "base rulebook")."""
    shown = brief(written)
    if "\x00" in written:              # no file system names a file so
        raise FileNotReadable(f"the {what} path '{shown}' holds a NUL character",
                              hint="write the file's name as it is")
    if any(len(part) > MAX_FILE_NAME for part in Path(written).parts):
        raise LimitExceeded(f"the {what} path '{shown}' has a name longer than "
                            f"{MAX_FILE_NAME} characters", hint="name the file shorter")
    full = os.path.realpath(os.path.join(folder, written))
    if not any(_inside(full, root) for root in allowed):
        raise FileNotReadable(
            f"the {what} '{shown}' lies outside the rulebook's folder and its library",
            hint=f"a rulebook reads files in its own folder (or below it), in its library "
                 f"(the nearest folder above with a {LIBRARY_FILE}, or the one named with "
                 f"--library) or in the shipped rulebooks/ folder, links followed: put a "
                 f"{LIBRARY_FILE} in the folder that holds them all")
    try:
        st = os.stat(full)
    except OSError as e:
        cls = FileMissing if e.errno in (errno.ENOENT, errno.ENOTDIR) else FileNotReadable
        raise cls(f"cannot read the {what} '{shown}': {e.strerror or e}",
                  hint="the path is relative to the rulebook's folder") from None
    _regular(st, shown, what)
    _small(st.st_size, shown, what, limit)
    return Path(full)


def read_text(path, shown: str, limit: int, what: str = "file") -> str:
    """The text of a regular file of at most `limit` bytes (UTF-8, newlines
    as in Python's text mode). The file is opened without blocking and
    checked again once open, so that nothing swapped in after `locate`
    looked at it is read either."""
    shown = brief(shown)
    try:
        st = os.stat(path)
        _regular(st, shown, what)
        _small(st.st_size, shown, what, limit)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except ValueError:                  # a NUL in the path
        raise FileNotReadable(f"the {what} path '{shown}' holds a NUL character") from None
    except OSError as e:
        cls = FileMissing if e.errno in (errno.ENOENT, errno.ENOTDIR) else FileNotReadable
        raise cls(f"cannot read the {what} '{shown}': {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "rb") as file:
            fd = None
            _regular(os.fstat(file.fileno()), shown, what)
            data = file.read(limit + 1)
    except OSError as e:
        raise FileNotReadable(f"cannot read the {what} '{shown}': {e.strerror or e}") from None
    finally:
        if fd is not None:
            os.close(fd)
    _small(len(data), shown, what, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileNotReadable(f"the {what} '{shown}' is not UTF-8 text (byte {e.start + 1})",
                              hint="save the file as UTF-8") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:          # another drive
        return False


def _regular(st, shown: str, what: str) -> None:
    if stat.S_ISREG(st.st_mode):
        return
    kind = ("a folder" if stat.S_ISDIR(st.st_mode) else
            "a FIFO" if stat.S_ISFIFO(st.st_mode) else
            "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
            "a socket" if stat.S_ISSOCK(st.st_mode) else "not a file")
    raise FileNotReadable(f"the {what} '{shown}' is {kind}, not a regular file",
                          hint="name a file: a rulebook reads regular files only")


def _small(size: int, shown: str, what: str, limit: int) -> None:
    if size > limit:
        raise LimitExceeded(f"the {what} '{shown}' is larger than {count(limit)}",
                            hint=f"a {what} is at most {count(limit)}: split it, or leave out "
                                 f"what the rulebook does not read")


def brief(written) -> str:
    """A path as a message quotes it: whole, or its first characters."""
    text = str(written)
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"
