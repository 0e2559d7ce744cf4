"""A night of a season: tonight planned against the nights already played (a league, an event's sessions).

The earlier nights' schedules become the History tonight is planned against (optimizer.pipeline.state), as the
played rounds of a re-planned day do:
- meetings: a pair's weight is its earlier meetings m plus their recency,
  w = m + b, b = sum over nights of meetings x 2^(-a/h), with a the nights from that night to the last
  earlier one (0 for the last) and h the half-life (HALF_LIFE nights unless given): with h = 4 a meeting
  last week weighs 2, four weeks before that 1.5, ten weeks ago 1.18; h = inf weighs every meeting 2.
  The count m keeps the season's measure: the descent's cost sum (w + t)^2 (optimizer.season.descent) is
  sum (m + t)^2 + 2 sum b t + a constant, the season's sum of squared pair counts (convex: each meeting
  costs 2(m + t) + 1) plus 2b for each meeting tonight of a pair that met lately (and a large cost for a
  meeting past the season's most so far: the worst pair first, optimizer.season.descent). With the recency
  alone (w = b, as before issue 44's second part) a pair's old meetings fade and the season's squares
  end higher than the greedy baseline's (benchmarks/README.md, "A league season").
- the level L: the weight at or below which LEVEL_SHARE (half) of tonight's pairs lie. A pair above it
  counts as met max(1, round(w - L)) times (at most MOST_MEETINGS), one at or below it not at all: the
  pairs who met most, or lately, are kept apart first, whichever night it is.
- tonight's repeats over the season (what the plan minimises): sum over pairs of
  max(0, m + t - 1) - max(0, m - 1), m the pair's count and t its meetings tonight: a meeting tonight of
  a pair that counts as met is one, as a second meeting tonight is. It is at least tonight's own repeats,
  so tonight's lower bound (optimizer.proof.bounds) holds for it. The pairs below the level are then spread by
  their weights (optimizer.season.descent).
- turns: three-handed rounds and sit-outs taken on earlier nights; tonight's go first to the players who
  took fewest (a guest counts as level with the least burdened).
- seat letters: each player's letters balance over the season (optimizer.balance.letters).
Players are matched by id where both nights have one (the names list's id column), else by name as
the project compares names (models.event.name_key: 'Ann' and 'ANN' are one). Tonight's schedule is
still checked on its own (optimizer.checking.checker).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from models import Event, Metrics, Schedule, SeasonFigures
from models.event import name_key
from optimizer.balance.letters import seat_spread
from optimizer.pipeline.state import History
from optimizer.requests import turn_exempt
from optimizer.seats import Seats, from_schedule, meetings, repeats_in

HALF_LIFE = 4.0  # nights after which an earlier meeting's recency weight halves (see the module docstring)
MAX_PLAYERS = 2_000  # the pair matrices, float and int, stay within some tens of megabytes
MOST_MEETINGS = 100  # a pair's count is kept in one byte, as in a re-plan (optimizer.replan)
# A pair counts as met by as many weighted meetings as it has above the level that at least this share of
# tonight's pairs have not passed: the pairs that met most are kept apart first.
LEVEL_SHARE = 0.5
LEVEL_TOLERANCE = 1e-9  # weights are sums of powers of two: equal ones may differ in the last bit


class Season:
    """The earlier nights as tonight's players see them: weighted meetings (count plus recency, the module
    docstring), turns and seat letters."""

    def __init__(
        self,
        event: Event,
        earlier: Sequence[Schedule],
        ids: Mapping[str, str] | None = None,
        half_life: float = HALF_LIFE,
        level_share: float = LEVEL_SHARE,
    ):
        if not half_life > 0:
            raise ValueError(f"the half-life must be a positive number of nights, got {half_life}")
        if len(event.players) > MAX_PLAYERS:
            raise ValueError(
                f"a night of a season seats at most {MAX_PLAYERS} players (its pair counts are players x players), "
                f"got {len(event.players)}"
            )
        self.event, self.half_life = event, half_life
        n = len(event.players)
        self.weighted = np.zeros((n, n))
        self.met = np.zeros((n, n), np.int64)  # every earlier meeting, unweighted
        self.burdens = np.zeros(n, np.int64)
        self.letters = np.zeros((n, 4), np.int64)
        self.seen = np.zeros(n, bool)  # played on an earlier night
        self.last_turn = np.full(n, -1)  # the last earlier night a player was three-handed or sat out
        for number, night in enumerate(earlier):
            weight = 0.5 ** ((len(earlier) - 1 - number) / half_life)
            self._add(night, _matched(night, event.players, ids or {}), weight, number)
        self.level = _level(self.weighted, level_share)
        above = np.floor(self.weighted - self.level + 0.5)
        counted = np.where(self.weighted > self.level + LEVEL_TOLERANCE, np.maximum(above, 1), 0)
        self.counted = np.minimum(counted, MOST_MEETINGS).astype(np.int8)
        self.nights = len(earlier)

    def _add(self, night: Schedule, index: dict[str, int], weight: float, number: int) -> None:
        seats = from_schedule(night)
        where = np.array([index.get(name, -1) for name in night.players], np.int64)
        here = where >= 0
        met = meetings(seats, len(night.players))[np.ix_(here, here)]
        mine = where[here]
        self.weighted[np.ix_(mine, mine)] += (1 + weight) * met
        self.met[np.ix_(mine, mine)] += met
        self.seen[mine] = True
        for round_ in night.rounds:
            burdened = [*round_.sit_outs, *(n for t in round_.tables if len(t.players) == 3 for n in t.players)]
            for name in burdened:
                if name in index:
                    self.burdens[index[name]] += 1
                    self.last_turn[index[name]] = number
            for table in round_.tables:
                for seat, name in enumerate(table.players):
                    if name in index:
                        self.letters[index[name], seat] += 1

    def history(self) -> History:
        """What tonight is planned against (optimizer.pipeline.state.History)."""
        return History(
            met_before=self.counted,
            burdens_before=self._turns_before(),
            letters_before=self.letters,
            earlier_repeats=repeats_in(self.counted.astype(np.int64)),
            season=self._ranked,
        )

    def _turns_before(self) -> np.ndarray:
        """1 for the players who wait tonight for everyone else to take a turn first, else 0.

        The model keeps every player's turns so far within one of the least (optimizer.cpsat.model), and the
        checker keeps tonight's own turns so: so exactly as many players as tonight has turns are marked 0,
        and each of them takes one. They are the players with the fewest earlier turns, among equals those
        whose last turn is longest ago (a guest, or a member who never took one, first). When tonight's
        turns reach every player, all start level."""
        sharing = np.flatnonzero(~turn_exempt(self.event))
        layout = self.event.layout
        turns = self.event.rounds * (3 * layout.threes + layout.sit_outs)
        before = np.zeros(len(self.event.players), np.int64)
        if turns == 0 or turns >= len(sharing):
            return before
        counts = np.where(self.seen, self.burdens, self.burdens[self.seen].min(initial=0))
        queue = sorted(sharing, key=lambda p: (counts[p], self.last_turn[p], p))
        before[queue[turns:]] = 1
        return before

    def _ranked(self, seats: Seats, metrics: Metrics) -> Metrics:
        """Tonight's checked figures with repeats and seat letters counted over the season."""
        met = meetings(seats, len(self.event.players))
        spread = seat_spread(seats, len(self.event.players), self.letters)
        return metrics.model_copy(update={"repeats": self.repeats(met), "seat_spread": spread})

    def repeats(self, tonight: np.ndarray) -> int:
        """Tonight's repeats over the season (the module docstring), from tonight's meetings matrix."""
        counted = self.counted.astype(np.int64)
        return repeats_in(tonight + counted) - repeats_in(counted)

    def figures(self, schedule: Schedule) -> SeasonFigures:
        """Tonight's schedule (its players in tonight's order) over the season."""
        n = len(self.event.players)
        seats = from_schedule(schedule)
        tonight = meetings(seats, n)
        pairs = np.triu(tonight > 0)
        return SeasonFigures(
            pairs=int(pairs.sum()),
            met_before=int((pairs & (self.met > 0)).sum()),
            repeats=self.repeats(tonight),
            most_meetings=int((tonight + self.met)[pairs].max(initial=0)),
            seat_spread=seat_spread(seats, n, self.letters),
            turns_out_of_order=self._out_of_order(schedule),
        )

    def _out_of_order(self, schedule: Schedule) -> int:
        """Tonight's burdened players who had taken more turns before tonight than someone tonight spared."""
        index = {name: p for p, name in enumerate(self.event.players)}
        taken = np.zeros(len(index), bool)
        for round_ in schedule.rounds:
            for name in [*round_.sit_outs, *(n for t in round_.tables if len(t.players) == 3 for n in t.players)]:
                taken[index[name]] = True
        spared = ~taken & ~turn_exempt(self.event)
        if not taken.any() or not spared.any():
            return 0
        before = np.where(self.seen, self.burdens, self.burdens[self.seen].min(initial=0))
        return int((before[taken] > before[spared].min()).sum())


def _level(weighted: np.ndarray, share: float) -> float:
    """The fewest weighted meetings at or below which at least `share` of tonight's pairs lie."""
    pairs = weighted[np.triu_indices(len(weighted), 1)]
    return float(np.quantile(pairs, share, method="inverted_cdf")) if pairs.size else 0.0


def _matched(night: Schedule, players: tuple[str, ...], ids: Mapping[str, str]) -> dict[str, int]:
    """An earlier night's names -> tonight's player index: by id where both nights give one, else by name."""
    by_id = {member: p for p, name in enumerate(players) if (member := ids.get(name))}
    by_name = {name_key(name): p for p, name in enumerate(players)}
    index = {}
    for name in night.players:
        member = night.ids.get(name)
        if member and ids:
            p = by_id.get(member)
        else:
            p = by_name.get(name_key(name))
        if p is not None:
            index[name] = p
    return index
