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
with `rulebook/limit`. Nothing here runs a rule.

May import: `interpreter.errors` and `interpreter.stdlib` (the builtin
table, to check names, arities and types).
"""
