"""Balance a seating beyond repeats: seat letters, table numbers, the order of rounds, trios and rematches.

Pure functions on the array form of `optimizer.seats`; numpy and OR-Tools only.

    balance_letters(seats, letters_so_far)        -> seats: who sits in A-D at each table
    balance_table_numbers(seats, pinned, visits)   -> seats: which table number each table gets
    rounds_for_tables(design, rounds, rng)          -> rounds, seats: the rounds of a design that number best
    order_rounds(seats, previous, ...)              -> seats: the rounds in the order with fewest back-to-back rematches
    fair_order(seats, player_count)                 -> order: rounds that take three-handed seats and sit-outs in turn
    polish(seats, rng, costs, ...)                  -> seats: fewer trios again and rematches, never more repeats
    regroup_for_tables(seats, rng, number, costs)   -> seats: fewer table visits above even, nothing else worse
    exact_numbers.fewest_table_visits(seats)        -> seats: the fewest visits the groups allow, or a proof (CP-SAT)
    rotational_day.rotational_day(players, rounds)  -> seats: other groups at the same repeats, fewer visits (CP-SAT)

Each one keeps what the others decide: letters never move a player to another table, table numbers and
the order of rounds never change who meets whom, and polish only regroups (so letters and numbers are
balanced after it).
"""

from optimizer.balance.letters import balance_letters, forced_seat_spread, letter_counts, seat_spread
from optimizer.balance.order import back_to_back, fair_order, order_rounds
from optimizer.balance.polish import polish, regroup_for_tables, trios_again
from optimizer.balance.tables import (
    balance_table_numbers,
    forced_table_visits,
    rounds_for_tables,
    table_visits_above_even,
)

__all__ = [
    "back_to_back",
    "balance_letters",
    "balance_table_numbers",
    "fair_order",
    "forced_seat_spread",
    "forced_table_visits",
    "letter_counts",
    "order_rounds",
    "polish",
    "regroup_for_tables",
    "rounds_for_tables",
    "seat_spread",
    "table_visits_above_even",
    "trios_again",
]
