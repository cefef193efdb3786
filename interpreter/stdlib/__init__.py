"""The standard library: value types and general builtins, implemented once.

What every stage shares about values: the names of the value types
(`types`), the table of formula builtins with their signatures and
implementations (`builtins`, read by the checker for names and arities and
by the compiler for the functions, so the two cannot drift), square-grid
cells and bounded grids (`grid`) and polyominoes, groups and flood fill
(`shapes`). Plain values in, plain values out: nothing here knows a
rulebook, a state or a game.

May import: `interpreter.errors` only.
"""
