"""What the desk's pages show, worked out here so the templates stay layouts: the rounds, a player's
day, the figures in a director's words, a re-plan's proposals, the variety rotation beside the fixed rule."""

from __future__ import annotations

from dataclasses import dataclass

from models import SEAT_LETTERS, Metrics, Moves, Schedule
from optimizer.words import counted, method_words, moves_proof, optimality, proof_words, reseat_choice, rules_assumed
from rotation.desk.storage import Figures, FixedFigures, VersionRow
from rotation.files.output import NOT_HERE_WORD, SIT_OUT_WORDS, THREE_HANDED_WORD, metrics_lines


@dataclass(frozen=True)
class SeatView:
    letter: str
    name: str
    player: int  # index in the schedule's list, for the link to the player's day


@dataclass(frozen=True)
class TableView:
    number: int
    seats: tuple[SeatView, ...]

    @property
    def three_handed(self) -> bool:
        return len(self.seats) == 3


@dataclass(frozen=True)
class RoundView:
    number: int
    played: bool
    tables: tuple[TableView, ...]
    sit_outs: tuple[SeatView, ...]
    absent: tuple[str, ...]


def rounds_view(schedule: Schedule, played: int) -> list[RoundView]:
    index = {name: p for p, name in enumerate(schedule.players)}
    return [
        RoundView(
            number=number,
            played=number <= played,
            tables=tuple(
                TableView(
                    table.table,
                    tuple(SeatView(SEAT_LETTERS[s], name, index[name]) for s, name in enumerate(table.players)),
                )
                for table in sorted(round_.tables, key=lambda t: t.table)
            ),
            sit_outs=tuple(SeatView("", name, index[name]) for name in round_.sit_outs),
            absent=round_.absent,
        )
        for number, round_ in enumerate(schedule.rounds, start=1)
    ]


@dataclass(frozen=True)
class DayLine:
    round: int
    table: int | None
    seat: str
    note: str
    with_: tuple[str, ...]


def player_day(schedule: Schedule, name: str) -> list[DayLine]:
    """Round by round: where the player sits and with whom, or that they sit out or are not here."""
    lines = []
    sit_out = SIT_OUT_WORDS[schedule.sit_out_scoring.value]
    for number, round_ in enumerate(schedule.rounds, start=1):
        table = next((t for t in round_.tables if name in t.players), None)
        if table is not None:
            seat = SEAT_LETTERS[table.players.index(name)]
            note = THREE_HANDED_WORD if len(table.players) == 3 else ""
            others = tuple(other for other in table.players if other != name)
            lines.append(DayLine(number, table.table, seat, note, others))
        else:
            note = sit_out if name in round_.sit_outs else NOT_HERE_WORD
            lines.append(DayLine(number, None, "", note, ()))
    return lines


def figure_lines(figures: Figures, schedule: Schedule | None, series: bool = False) -> list[str]:
    """The figures of a version in the CLI report's words (rotation.files.output.metrics_lines, the requests
    confirmed from the schedule), with the fixed rule's repeats (not for a night of a `series`, whose repeats
    count the earlier nights' meetings too: the fixed rule on tonight's room alone compares with nothing), the
    bound and how it was made in plain sentences (the exact proof and method stay in the version's JSON)."""
    metrics = figures.metrics
    lines = metrics_lines(metrics, schedule)
    fixed = figures.fixed.metrics if figures.fixed else None
    if fixed and not series:
        lines[0] += f"; the fixed rule on the same room: {counted(fixed.repeats, 'repeat')}"
    bound = figures.bound
    if bound:
        room = "of tonight" if series else "of this room"
        why = proof_words(bound.proof)
        lines[1:1] = [
            f"Best possible: at least {counted(bound.repeats, 'repeat')}" + (f", because {why}" if why else ""),
            optimality(metrics.repeats, bound.repeats, room, rules=rules_assumed(metrics, schedule)),
        ]
    if figures.method:
        stopped = " (stopped early: the best found so far)" if figures.interrupted else ""
        lines.append(f"Made by {method_words(figures.method)}, in {figures.runtime or 0:.1f} s{stopped}")
    return lines


COMPARED = (
    ("Repeats", "repeats"),
    ("Most meetings of one pair", "max_meetings"),
    ("Fewest different opponents", "opponents_min"),
    ("Worst-off player's repeats", None),
    ("Most rounds in one seat letter beyond the fewest (balanced: 1 or less)", "seat_spread"),
    ("Players at the same table number more often than needed", "table_visits_above_even"),
    ("Three players at one table again", "trios_again"),
    ("Pairs at one table two rounds running", "back_to_back"),
    ("Three-handed or sit-outs taken in turn", "turns"),
)


def compared_rows(figures: Figures, variant: FixedFigures | None = None) -> list[tuple[str, ...]]:
    """(what, this schedule, the fixed rule[, the event's own fixed rule]) for the side-by-side table;
    `variant` is the figures of the fixed rule the event prints, when it is not MJMP item 23."""
    ours = figures.metrics
    fixed = figures.fixed.metrics if figures.fixed else None
    theirs = [variant.metrics] if variant is not None else []

    def value(metrics: Metrics | None, key: str | None) -> str:
        if metrics is None:
            return "-"
        if key is None:
            return str(metrics.worst_player_repeats)
        if key == "turns":
            return "yes" if metrics.turns_fair else "no"
        return str(getattr(metrics, key))

    return [(label, value(ours, key), value(fixed, key), *(value(m, key) for m in theirs)) for label, key in COMPARED]


@dataclass(frozen=True)
class ProposalView:
    version: int
    reseat: str  # the choice, in the director's words
    repeats: int
    moves: str  # what it moves, and what any re-plan must move at least
    changes: tuple[str, ...]  # "name: rounds 3, 4"
    note: str


def proposals_view(proposals: list[VersionRow]) -> list[ProposalView]:
    return [_proposal_view(version) for version in proposals]


def _proposal_view(version: VersionRow) -> ProposalView:
    figures = version.figures
    assert figures.reseat is not None and figures.moves is not None, "a proposal says how it re-seats"
    return ProposalView(
        version=version.id,
        reseat=reseat_choice(figures.reseat).capitalize(),
        repeats=figures.metrics.repeats,
        moves=_moves_line(figures.moves),
        changes=tuple(
            f"{c.name}: round{'s' if len(c.rounds) > 1 else ''} {', '.join(map(str, c.rounds))}"
            for c in figures.changes or ()
        ),
        note=version.note,
    )


def _moves_line(moves: Moves) -> str:
    moved = f"{counted(moves.moves, 'move')} ({counted(moves.players, 'player')}"
    line = f"{moved}; a move is one player in one round at another seat)"
    return f"{line}; {moves_proof(moves)}"
