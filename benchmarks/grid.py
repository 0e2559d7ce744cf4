"""Which rooms a benchmark run seats: the grid, the zero-repeat frontier sizes, the rooms past the frontier."""

from __future__ import annotations

from dataclasses import asdict, dataclass

ROUNDS = (4, 5, 6, 8, 10)
THREE, SIT = "three-handed", "sit-out"  # models.OddPolicy values; not imported, see run.snapshot

# The most rounds with no repeat opponent known from the literature (resolvable packings by tables of
# four; Ge, Lam, Ling and Shen 2005, and the social golfer problem tables). A target only: nothing here
# is used by the optimizer.
LITERATURE_FRONTIER = {
    16: 5,
    20: 5,
    24: 7,
    28: 9,
    32: 10,
    36: 11,
    40: 13,
    44: 14,
    48: 15,
    52: 17,
    56: 18,
    60: 19,
    64: 21,
}

# Rooms one round or more past the frontier, with the E the literature or a proof gives:
# (players, rounds, target E, whether the target is a proven optimum or only an upper bound to meet).
PAST_FRONTIER = (
    (16, 6, 24, "optimal"),
    (20, 7, 20, "optimal"),
    (28, 10, 42, "optimal"),
    (24, 8, 18, "at most"),
    (20, 6, 6, "at most"),
)


@dataclass(frozen=True)
class Room:
    players: int
    rounds: int
    odd: str = THREE

    @property
    def key(self) -> str:
        odd = "" if self.players % 4 == 0 else f" {self.odd}"
        return f"{self.players}x{self.rounds}{odd}"

    def as_dict(self) -> dict:
        return asdict(self)


def _rooms(sizes, odd_sizes, large, rounds) -> list[Room]:
    rooms = [Room(n, r) for n in sizes for r in rounds]
    rooms += [Room(n, r, odd) for n in odd_sizes for odd in (THREE, SIT) for r in rounds]
    rooms += [Room(n, r) for n in large for r in rounds]
    return rooms


@dataclass(frozen=True)
class Settings:
    name: str
    time_limit: float
    grid: tuple[Room, ...]  # measured first
    frontier_sizes: tuple[int, ...]
    frontier_time_limit: float
    past_frontier: tuple[tuple[int, int, int, str], ...]
    repeats: int  # timing repeats, for rooms whose first run finishes faster than `repeat_below` seconds
    repeat_below: float
    cold_rounds: tuple[int, ...]  # rooms with these round counts (and sizes) are run again without the warm start
    cold_sizes: tuple[int, ...] = ()  # empty: every size
    extra: tuple[Room, ...] = ()  # grid rooms measured after the frontier (odd counts)
    workers: int = 8
    seed: int = 0

    def cold(self, room: Room) -> bool:
        return room.rounds in self.cold_rounds and (not self.cold_sizes or room.players in self.cold_sizes)

    def describe(self) -> dict:
        return {
            "name": self.name,
            "time_limit_per_room": self.time_limit,
            "frontier_time_limit": self.frontier_time_limit,
            "rooms": len(self.grid) + len(self.extra),
            "sizes": sorted({room.players for room in self.grid + self.extra}),
            "rounds": sorted({room.rounds for room in self.grid + self.extra}),
            "odd_sizes": sorted({room.players for room in self.grid + self.extra if room.players % 4}),
            "odd_rounds": sorted({room.rounds for room in self.grid + self.extra if room.players % 4}),
            "cold_sizes": list(self.cold_sizes) if self.cold_sizes else "all",
            "timing_repeats": self.repeats,
            "repeat_below_seconds": self.repeat_below,
            "cold_rounds": list(self.cold_rounds),
            "workers": self.workers,
            "seed": self.seed,
            "frontier_sizes": list(self.frontier_sizes),
        }


def full(time_limit: float | None = None, workers: int = 8) -> Settings:
    """About 50 minutes on 2 cores at 60 s per room. A room that does not meet its bound uses the whole
    limit, and so do most rooms without the warm start: odd counts run at 6 rounds (4 and 8 as well for
    9 to 11 players) and the warm_start=False panel is the 6-round rooms listed in `cold_sizes`."""
    sizes = tuple(range(8, 65, 4))
    large = (100, 200, 500, 1000)
    return Settings(
        name="full",
        time_limit=time_limit or 60.0,
        grid=tuple(_rooms(sizes, (), large, ROUNDS)),
        extra=tuple(_rooms((), (9, 10, 11), (), (4, 8))) + tuple(_rooms((), (9, 10, 11, 17, 18, 19, 30, 45), (), (6,))),
        frontier_sizes=tuple(LITERATURE_FRONTIER),
        frontier_time_limit=time_limit or 60.0,
        past_frontier=PAST_FRONTIER,
        repeats=3,
        repeat_below=2.0,
        cold_rounds=(6,),
        cold_sizes=(8, 12, 16, 20, 24, 32, 40, 48, 64, 100),
        workers=workers,
    )


def quick(time_limit: float | None = None, workers: int = 8) -> Settings:
    """About 3 minutes on 2 cores: 5 s per room, the warm_start=False panel at 6 rounds."""
    sizes = (8, 16, 20, 24, 32, 48, 64)
    odd_sizes = (10, 19)
    large = (100,)
    return Settings(
        name="quick",
        time_limit=time_limit or 5.0,
        grid=tuple(_rooms(sizes, (), (), (4, 6, 8))) + tuple(_rooms((), (), large, (6,))),
        extra=tuple(_rooms((), odd_sizes, (), (6,))),
        frontier_sizes=(16, 24, 32),
        frontier_time_limit=time_limit or 5.0,
        past_frontier=PAST_FRONTIER[:2],
        repeats=3,
        repeat_below=2.0,
        cold_rounds=(6,),
        workers=workers,
    )
