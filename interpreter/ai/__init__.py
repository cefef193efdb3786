"""The AI players: random, greedy, MCTS and ISMCTS, for any rulebook.

A player receives a `Game`, the view of its seat and its legal actions,
and returns an `Action`. It sees only what its seat sees: search players
rebuild full states from the view's information state with
`runtime.information.sample_state`, so they never peek at hidden cards.

May import: `interpreter.errors`, `interpreter.stdlib`,
`interpreter.runtime` and `interpreter.game`.
"""
