"""What a viewer's table shows, as plain data: the presentation model that
the terminal (`terminal/`, drawn with rich) and the browser table (`web/`,
drawn as SVG) both draw from, so a mechanism added for one is there for the
other.

`board` says which zones a board shows (a square grid, a hex map, a
declared grid, the rulebook's `layout`) and which are listed beside it, and
titles them; `options` reads the legal actions of the current decision as
steps a player can point at (a piece, a cell, a hex, a value) and works out
how a piece that turns will lie; `changes` finds what the last move changed
on the table, to highlight it; `colours` gives the colour of a shade word
and of each seat, `words` how one value reads. These read a view (docs/api.md) and the legal actions'
texts, never a state: nothing a viewer could not see reaches them. Beside
them, what both tables share of the game at the table: `savefile` (a save
written and read back) and `rules` (the player rules shown on request).
Imports nothing that draws.

May import: simulation, ai, game, compiler, runtime, language, stdlib, errors, printable.
"""
