"""`python -m interpreter` is the `rulebook` command."""

from .terminal.cli import main

raise SystemExit(main())
