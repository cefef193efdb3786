"""The compiler: checked IR to the executable form, once per player count.

IR and a set of options flow in; a `Program` flows out (`compiler`): the
state's layout, the machine's blocks of runtime statements, the actions
and the scoring. `expressions` checks and types every formula and folds
what is fixed at load, `compiled` holds a checked formula and its static
tables, `optimise` what the checker knows beyond one node (a define fixed
at load, a formula that reads one table), `aggregates` the results of
``count``, ``sum``, ``best`` and friends, `ranges` the numbers of ``A to
B``, and `filters` moves each condition of an action's parameters to where
its values are known. Then
`pysource` writes the formulas, and `pyblocks` the runs of statements that
never stop for a decision, as Python from the checked IR: every identifier
the compiler's own, every value from the rulebook a constant (no rule text
becomes code). Options are folded in here, so a rule an option switches
off costs nothing at run time.

May import: `interpreter.errors`, `interpreter.stdlib`, `interpreter.runtime`
(the statements and decisions it builds) and `interpreter.language`.
"""
