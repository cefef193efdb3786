"""The terminal: the `rulebook` command and everything drawn on the screen.

`cli` reads the command line (validate, play, simulate, compare, show) and
turns every failure into a coded message and an exit status; `repl` is the
game at the table, a prompt over the API (numbered actions, undo, log,
save, load); `render`, `render_boards` and `render_pieces` draw a
player's view with rich (zones, hands, grids, hex maps, boards, pieces),
`choosing` and `render_steps` a long list chosen step by step, and `reports` lays out simulation
and comparison reports. The only folder that imports rich and prompt_toolkit.

May import: every other folder of `interpreter` but `adapters` (web only inside
`rulebook serve`, which starts the browser table, and editor only inside
`rulebook lsp`, which starts the language server).
"""
