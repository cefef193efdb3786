"""The adapters: any rulebook as an environment of a research library.

`pettingzoo` makes a PettingZoo environment of a rulebook, AEC or
parallel (agents `player_0` …, a dict observation with the PettingZoo
action mask or a box with the mask in the infos, rewards at the end);
`gymnasium` a single-agent Gymnasium environment of one seat against
fixed opponents, with `action_masks()`; and `openspiel` registers a Python
game with OpenSpiel (`python_rulebook`, with the rulebook, the player
count and the options as parameters), so that its algorithms (CFR,
alpha-beta, ISMCTS, Deep CFR, …) run on any rulebook. All read the game
through `rules`: a rulebook loaded for one player count, with the
engine's fixed action ids, observations, chance nodes and the rewards an
outcome pays. Nothing flows back into the engine; the libraries themselves
are optional extras, imported only inside the functions that need them,
and no other folder imports this one.

May import: every other folder of `interpreter`.
"""
