"""Simulation: many games with chosen players, and what a designer reads.

A `simulate.Plan` (who sits where, seeds, budgets) flows in; per-game
records flow out, tallied as they come into a JSON report (win rates with
intervals, draws, scores, lengths, actions taken) or a paired comparison of two
rulebooks. `parallel` spreads the games over processes or a Ray cluster
(Ray imported only then), so reports are the same with any number of
workers; `stats` holds the intervals and tests. `records` writes one JSON
line per game (`--records`), `report_html` draws a report's charts in one
HTML page (`--report`, with matplotlib, imported only then), and
`options_off` finds the rules the options in force switch off, which
coverage shows apart from those that never fired. `playcheck` plays the
seeded random games of `rulebook validate --play` and keeps each rule
error they run into once, with the seed that replays it; `never_legal`
watches what its games offer (the actions none ever offered) and
`end_conditions` tells the ends of a game it cuts off (and, for a
report, which `end game` ended one). `analysis` watches each decision of
`rulebook analyse`'s games and names their metrics. Laying a report
out for the terminal belongs to `interpreter.terminal.reports`.

May import: `interpreter.errors`, `interpreter.stdlib`,
`interpreter.language`, `interpreter.runtime`, `interpreter.compiler`,
`interpreter.game` and `interpreter.ai`.
"""
