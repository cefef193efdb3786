"""The runtime: the state and the machine that plays a compiled rulebook.

`state` is everything that changes in a game (zones, variables, the flow's
frames, the random generator, who must decide) and nothing else; the
language's `layout` says where each zone and variable lives in it for one
player count.
`statements` is the resumable, bounded machine that runs compiled blocks
until a player must decide (`budget` bounds the formulas' work in a
step), and `decisions` (with `choices`) the statements that ask, the
options offered and the `Action` values picked; `chance` turns the rules'
draws into chance nodes for a game that asks for them. Out of a state come what one player may see (`views`), what that player knows and
full states sampled from it (`information`), and why a typed action is
refused (`explain`). The objects here are built by the compiler; nothing
here reads rulebook text or IR.

May import: `interpreter.errors`, `interpreter.stdlib` and
`interpreter.language` (the layout it reads slots from, the limits).
"""
