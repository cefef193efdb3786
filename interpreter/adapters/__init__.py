"""The adapters: any rulebook as an environment of a research library.

`pettingzoo` makes a PettingZoo AEC environment of a rulebook (agents
`player_0` …, a dict observation with the PettingZoo action mask,
rewards at the end), and `openspiel` registers a Python game with
OpenSpiel (`python_rulebook`, with the rulebook, the player count and the
options as parameters), so that its algorithms (CFR, ISMCTS, …) run on any
rulebook. Both read the game through `rules`: a rulebook loaded for one
player count, with the engine's fixed action ids, observations, chance
nodes and the rewards an outcome pays. Nothing flows back into the engine;
the libraries themselves are optional extras, imported only inside the
functions that need them, and no other folder imports this one.

May import: every other folder of `interpreter`.
"""
