"""The plan's pipeline: one run, its state, and the stages it composes (optimizer.plan runs them in order).

run.py         the run's context (event, history, budget, seed, bound, best so far)
state.py       what a run keeps: the history of played rounds, the incumbent (the best checked day)
stages.py      what the stages hand each other, typed
provenance.py  how a day was made, as steps (the result's method)
starts.py      the starts: constructions offered to the incumbent
searching.py   the search: local search, probes that raise the bound, the whole-day model
balancing.py   at the same repeats: regrouping, round order, table numbers, seat letters
"""
