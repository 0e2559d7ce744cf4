"""The planner's tuning figures (optimizer.plan and the balancing stage, optimizer.pipeline.balancing), in one
immutable record: `plan(event, config=PlanConfig(probe_share=0.3))` tries another figure without editing
the code. The defaults are the figures every benchmark and test of the project was measured with; each
field says what it trades and, where it was measured, how.

Shares are of the time left when the stage starts (optimizer.budget's `share`); seconds are the wall
clock's, or seconds of work in a repeatable run (a seed, one worker), as the budget counts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from optimizer.budget import Budget


@dataclass(frozen=True)
class PlanConfig:
    """The figures one planning run is tuned by; `PlanConfig()` is the run every benchmark measured."""

    # The starts (optimizer.constructions)
    round_choice_share: float = 0.1
    """Share of the time left that choosing a day's rounds from a longer repeat-free design for the table
    numbers may take (optimizer.balance.rounds_for_tables)."""
    round_choice_share_at_bound: float = 0.8
    """The same share when every choice is raced and a repeat-free day meets the bound: the search then stops
    at once, so the choice may take most of the time."""
    rotational_seconds: float = 10.0
    """The rotational search (a small CP-SAT model) for a repeat-free start: at most this long, and at most a
    third of what is left."""
    rotational_workers: int = 2
    """The rotational search's workers, at most (fewer when the run has fewer)."""

    # The search (optimizer.search, optimizer.cpsat)
    cpsat_max_clauses: int = 400_000
    """Above this many pair-round-table clauses the whole-day CP-SAT model is too slow to help; local search
    takes over."""
    clauses_built_per_second: int = 100_000
    """How fast the whole-day model is built, to tell whether building it alone would overrun the run.
    Measured: about 150 000 on this project's 2-core machine (kept lower, for slower laptops)."""

    model_max_clauses: int = 800_000
    """Above this many clauses no CP-SAT model is built (the whole day's, a construction's base round): about
    a kilobyte a clause, measured (0.9 GB at 68 x 22, 850 000; 5 GB for 300 x 99's base round, 6.7 million)."""

    def too_big(self, clauses: int, budget: Budget) -> str | None:
        """Why a CP-SAT model of `clauses` clauses is not built, if it is not: more than model_max_clauses
        (its memory), or more than `budget` has time left to build. A model too big for the machine is
        never begun."""
        if clauses > self.model_max_clauses:
            return "is too big to build here"
        if not budget.afford(clauses / self.clauses_built_per_second):
            return "takes longer to build than the time limit"
        return None

    tabu_max_players: int = 120
    """Tabu search weighs every swap of every round at each step; past this many players the local search
    swaps round by round instead."""
    search_max_players: int = 4_000
    """Past this many players the search's player-by-player matrices (8 bytes a pair, several of them) cost
    more time and memory than a run has: the starts answer alone."""
    probe_share: float = 0.2
    """Share of the time left after local search that may go to proving a forced repeat ('at most bound
    repeats?' on the whole-day model)."""
    split_share: float = 0.8
    """The same share in the smallest rooms (split by round 2): there the search has settled and the proof
    is what is left."""

    # Regrouping for trios and rematches (optimizer.balance.polish) and for table numbers
    polish_max_players: int = 400
    """Regrouping weighs every swap of a round at each step: rooms up to this size are regrouped."""
    polish_share: float = 0.1
    """A regrouping's share of the time limit (at least optimizer.pipeline.state.FINISH_SECONDS)."""
    repeatable_window_share: float = 0.5
    """A repeatable run that regroups in the finish window alone counts the steps of this share of it, so
    that a loaded machine seldom cuts them short."""
    kicks_between_regrouping: int = 20
    """Restarts of the table numbering between regroupings for table numbers: fewer than the first
    numbering's (the regrouping itself shakes the day)."""

    # The table numbers (optimizer.balance.tables) and seat letters (optimizer.balance.letters)
    numbering_seconds: float = 0.05
    """The table numbering may end this long after the run's end: its first descent takes milliseconds in
    the rooms that are regrouped, and without one the numbers are as built."""
    numbering_max_cells: int = 4_000_000
    """The table numbering weighs players x tables arrays, several of them (8 bytes a cell): past this many
    cells (about 4000 players) it would take more time and memory than a run has, and the tables keep the
    numbers they were built with."""
    as_built_share: float = 0.3
    """The share of the time left that numbering the day as built may take, beside its chosen rounds."""
    letters_work: float = 1.0
    """CP-SAT's deterministic seconds for the exact seat letters of a day with tables of three, when the
    local search leaves them above what the seating allows (optimizer.balance.exact_letters)."""
    letters_checks: int = 3
    """The table numbering leaves the seat letters this many checks' time."""
    letters_share: float = 0.3
    """... and, in a day with tables of three, this share of the time left for the exact letters (else the
    numbering's restarts take the run's end)."""

    # Other days for the table numbers: the rotational day (optimizer.balance.rotational_day) and the exact
    # numbering (optimizer.balance.exact_numbers)
    rotational_day_seconds: float = 8.0
    """The rotational day for the table numbers: these seconds, when the run has them to spare beside the
    regrouping after it. Measured on 2 workers: the 20 x 10 day in 1.3 s for 3 seeds of 4 (the fourth none in
    6 s); the 16 x 6 day within 1.5 s for 2 seeds of 5. At a 5 s limit, run in less time, it cost the
    regrouping after it more than the day gained."""
    rotational_day_attempt: float = 2.0
    """... in attempts of at most these seconds (of work, on one worker, in a repeatable run): a seed may take
    many times another's."""
    rotational_day_tries: tuple[tuple[int, bool], ...] = ((0, True), (1, False))
    """The attempts take these in turn (most visits above even for one player at one table, no back-to-back
    in orbit order): nobody above even with the rematches ruled out (20 x 10), then at most one above
    (16 x 6)."""
    balance_margin: float = 0.2
    """Kept after the CP-SAT steps of balancing (the rotational day, the exact numbering) for what follows a
    day found: ordering, numbering and lettering it (milliseconds at 20 players), with a margin."""
    exact_numbering_seconds: float = 4.0
    """The exact numbering of the best day's groups at the end of a run: at most these seconds of the time
    left (it proves these groups allow no fewer visits often within a second)."""
    exact_numbering_work: float = 4.0
    """... these deterministic seconds of CP-SAT in a repeatable run, as far as its work left allows."""
    exact_numbering_min_seconds: float = 1.0
    """... only with at least these seconds left."""
    exact_numbering_max_tables: int = 16
    """... only in rooms of at most this many tables."""
