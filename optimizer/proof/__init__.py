"""How good a day is, proven: the lower bounds, the verdicts, and a day beside the fixed rule and the bound.

bounds.py   lower bounds on repeats, each with its proof
verdict.py  'a day without repeats?': exists / impossible / unknown
compare.py  a day beside the fixed rule on its room and the bound
"""
