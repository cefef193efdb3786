"""The compiler: checked IR to the executable form, once per player count.

IR and a set of options flow in; a `Program` flows out (`compiler`): the
state's layout, the machine's blocks of runtime statements, the actions
and the scoring. Each formula is checked and typed by the language's
formula checker (`language.formulas`) for the count's layout first;
`filters` moves each condition of an action's parameters to where its
values are known. Then `pysource` writes the formulas, `pyblocks` the
runs of statements that never stop for a decision, `pyflow` each block of
the flow and `pyoptions` each decision's listing, as Python from the
checked IR: every identifier the compiler's own, every value from the
rulebook a constant (no rule text becomes code). Options are folded in here, so a rule an option switches
off costs nothing at run time.

May import: `interpreter.errors`, `interpreter.stdlib`, `interpreter.runtime`
(the statements and decisions it builds) and `interpreter.language`.
"""
