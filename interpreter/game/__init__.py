"""The game: a rulebook loaded, compiled and ready to play, as the public API.

`load.load_rulebook` runs the whole pipeline (the language's gates, then
the compiler for each player count) and returns an `engine.Game`: static
rules with the documented API of docs/api.md — `new_game`, `to_move`,
`legal_actions`, `apply`, `outcome`, `view`, `parse_action`, and JSON saves;
for learning programs, `spaces` numbers every action that can ever be legal
and `observation` turns a player's information state into numbers.
States flow in and out; the Game holds nothing of a game's state (only
scratch counters of the step it is running, so one Game serves one thread
at a time). This
folder sits above the compiler and the runtime because it puts them
together: the compiler builds runtime objects, and the Game calls both.

May import: `interpreter.errors`, `interpreter.stdlib`,
`interpreter.language`, `interpreter.runtime` and `interpreter.compiler`.
"""
