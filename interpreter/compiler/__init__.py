"""The compiler: checked IR to the executable form, once per player count.

IR and a set of options flow in; a `Program` flows out (`compiler`): the
state's layout, the machine's blocks of runtime statements, the actions
and the scoring, with every formula turned into a closure by `expressions`.
`compiled` holds a compiled formula and its static tables, `optimise` the
shortcuts for formulas whose value is fixed at load or reads one table,
and `aggregates` the loops of ``count``, ``sum``, ``any``, ``all`` and
friends, `ranges` the numbers of ``A to B``. Options are folded in here, so a rule an option switches off
costs nothing at run time. No Python source is generated from rule text.

May import: `interpreter.errors`, `interpreter.stdlib`, `interpreter.runtime`
(the statements and decisions it builds) and `interpreter.language`.
"""
