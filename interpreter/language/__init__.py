"""The language: rulebook text to checked IR, through gates.

A file (or a game's name) flows in; plain-JSON IR flows out, or every error
found, each with its code and file:line:column. `loader` runs the gates in
order: `syntax` parses with Lark into an AST with spans, refusing nesting
deeper than the later stages can walk (`syntax_errors` turns Lark's
failures into coded errors with hints), `variants` merges a variant file
into its base, `checks`, `checks_declarations` and `checks_drawings` (how
pieces are drawn) — after `tables` has made the rows of a component table's
`each` cells — resolve every name and collect *all* the problems while
they build the IR (`flow` finds unreachable phases and recursive defines,
and bounds how deep and how large a define is through the defines it uses;
`data` reads and schema-checks the component data files), and `schema` validates the IR against
`schemas/rulebook.schema.json`. Every file is read through `files` (only
regular files of bounded size, and only from the rulebook's folder or the
shipped library), and `limits` holds the bounds that every gate enforces
with `rulebook/limit`.

Once per player count, when the compiler asks for that count: `layout`
numbers everything for it (component ids, zone and variable slots), and
`formulas` checks and types every formula against that layout, collecting
every type error with its span (`compiled` is a checked formula with the
static tables it stands for, `optimise` what the checker knows beyond one
node, `aggregates` the types of ``count``, ``sum``, ``best`` and friends,
`ranges` the numbers of ``A to B``), folding what is fixed at load. Nothing
here runs a rule, except a define of fixed things, worked out at load
through the code the compiler generates for it (`FormulaChecker.evaluate`).

May import: `interpreter.errors` and `interpreter.stdlib` (the builtin
table, to check names, arities and types).
"""
