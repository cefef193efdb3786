"""The editor's back end: `rulebook lsp`, a Language Server for rulebooks.

An editor that speaks the Language Server Protocol starts `rulebook lsp`
and hears, for each open `.rules` file, the errors `rulebook validate`
gives (`diagnostics`), and asks for hover, go to definition and completion
(`answers`, from the `index` of the text: every declaration, read by
`declarations`, and every name the text writes, with what it means;
`model` holds what an index is made of and converts places between the
language's and the protocol's counting). `server` connects them to pygls,
an optional extra (`rulebook[lsp]`), and is the one module that imports
it, inside its functions; nothing else here knows the protocol's library,
so the answers are tested without it. The `rulebook` command starts the
server, importing it inside `rulebook lsp` alone.

May import: game, compiler, runtime, language, stdlib, errors, printable.
"""
