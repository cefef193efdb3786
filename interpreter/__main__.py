"""`python -m interpreter` is the `rulebook` command."""

from .terminal.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
