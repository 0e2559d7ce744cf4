"""The independent checker: every candidate validated and measured from the schedule's names alone.

checker.py   the rules and the figures (`check`, `measure`, `InvalidSchedule`)
meetings.py  its tallies of who sat with whom, as arrays
indirect.py  its indirect-meetings figure (the fewest opponents in common of pairs who never met)
"""
