"""Local search: improve a seating while keeping turns fair and staying players at their table.

costs.Costs            the one cost model (the search's, the re-seat's, the polish's and the season's
                       descent): repeats, requests (one APART_COST), a re-plan's meetings or a league's
                       earlier nights, turns and last round before, the season's measure
swaps.tabu_walk        the one tabu search over swaps, its objective pluggable: repeats (tabu), the
                       polish's figures (optimizer.balance.polish) or the season's measure
                       (optimizer.season.descent)
reseat.reseat_round    one round, swaps between tables against a cost matrix
reseat.improve         the whole day, one round at a time (large rooms)
reseat.extend          more rounds after a seating, each against every meeting so far
tabu.tabu_search       the whole day at once, best non-tabu swap or turn trade of any round, turns
                       exchanged at restarts where they come out even (rooms up to 120)
"""

from optimizer.search.costs import Costs
from optimizer.search.reseat import extend, improve, reseat, reseat_round
from optimizer.search.tabu import tabu_search

__all__ = ["Costs", "extend", "improve", "reseat", "reseat_round", "tabu_search"]
