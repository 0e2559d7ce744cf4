"""How a result reads to a director: the comparison after a plan, the rows of `compare`."""

from __future__ import annotations

from models import Answer, Metrics, PlanResult, Replan, Schedule
from models.event import FixedRule
from optimizer.words import counted, moves_proof, optimality, reseat_choice, rules_assumed
from rotation import tool_version
from rotation.files.output import BALANCE_FIGURES
from rotation.stopping import stopped_by

COMPARE_HEADER = (
    f"{'players':>7} {'rounds':>6} {'fixed':>6} {'variety':>7} {'bound':>6}  {'status':<9} {'zero-repeat':<11} "
    f"{'time':>7}  {'seats':>5} {'tables':>6} {'trios':>5} {'b2b':>4}"
)
COMPARE_LEGEND = """Columns:
  fixed, variety  repeats of the fixed rule and of the variety rotation (a pair's meetings after its first)
  bound           the lower bound: no schedule of the room has fewer repeats
  status          optimal when the variety rotation meets the bound (proven), feasible when not proven
  zero-repeat     does a day with no repeat exist: exists, impossible (proven) or unknown
  time            seconds the room took
  seats           the worst player's most minus fewest rounds in one seat letter
  tables          players at the same table number more often than needed (times)
  trios           three players at one table again (times)
  b2b             back to back: pairs at one table two rounds running (times)
  (seats to b2b are the variety rotation's, as the checker measures them)"""

# The guide's sentence under test: zero repeats over five rounds "only for" these sizes.
GUIDE_SIZES = (16, 28, 40, 52, 64)


def result_text(result: PlanResult, verbose: bool = False) -> str:
    """The verdict under the figures: repeats against the fixed rule and the bound, proven optimal or
    how far it may be from it; with `verbose`, how it was made (the method, also in the file's provenance)."""
    fixed = "" if result.fixed_repeats is None else f"   the fixed rule: {counted(result.fixed_repeats, 'repeat')}"
    lines = [
        "",
        f"Variety rotation: {counted(result.repeats or 0, 'repeat')}{fixed}",
        f"Lower bound: {counted(result.bound.repeats, 'repeat')} ({result.bound.proof})",
    ]
    lines.append(
        optimality(result.repeats or 0, result.bound.repeats, rules=rules_assumed(result.metrics, result.schedule))
    )
    return "\n".join(lines + planned_lines(result, verbose))


def planned_lines(result: PlanResult, verbose: bool = False, beside: str = "") -> list[str]:
    """'Planned in 2.5 s' (with `beside`, e.g. another run's time), how it was stopped if it was, and with
    `verbose` the methods that made it."""
    how = f"Planned in {result.runtime:.1f} s{beside}"
    if result.interrupted:
        how += f" (stopped early by {stopped_by()}: this is the best schedule found so far)"
    return [how + "."] + ([f"Made by: {result.method}"] if verbose else [])


def zero_repeat_answer(result: PlanResult) -> Answer:
    """The zero-repeat verdict a plan run supports: its checked schedule, or its proven bound."""
    if result.repeats == 0:
        return Answer.EXISTS
    if result.bound.repeats > 0:
        return Answer.IMPOSSIBLE
    return Answer.UNKNOWN


UNFAIR_FIXED_NOTE = (
    "* the fixed rule does not take three-handed tables in turn (seat D never plays three-handed);\n"
    "  the variety rotation does, and fair turns can force repeats the fixed rule avoids."
)


def compare_row(players: int, rounds: int, result: PlanResult, answer: Answer, fixed: Metrics) -> str:
    """One room of `compare`: `fixed` is the checker's figures of the fixed rule the event prints."""
    variety = "-" if result.repeats is None else str(result.repeats)
    fixed_text = f"{fixed.repeats}{'' if fixed.turns_fair else '*'}"
    m = result.metrics
    figures = (
        ""
        if m is None
        else f"  {m.seat_spread:>5} {m.table_visits_above_even:>6} {m.trios_again:>5} {m.back_to_back:>4}"
    )
    return (
        f"{players:>7} {rounds:>6} {fixed_text:>6} {variety:>7} {result.bound.repeats:>6}  "
        f"{result.status.value:<9} {answer.value:<11} {result.runtime:>6.1f}s{figures}"
    )


def guide_claim_note(verdicts: dict[tuple[int, int], Answer]) -> str:
    """What the measured verdicts say about the guide's 16/28/40/52/64 sentence, if they bear on it."""
    five = {n: a for (n, r), a in verdicts.items() if r == 5}
    others = sorted(n for n, a in five.items() if a is Answer.EXISTS and n not in GUIDE_SIZES)
    if not others:
        return ""
    return (
        "The guide says a repeat-free schedule over five rounds exists only for 16, 28, 40, 52 and 64 players.\n"
        f"Measured here, with checked schedules, it also exists for {', '.join(map(str, others))} players.\n"
        "16, 28, 40, 52 and 64 are the sizes N with N = 4 (mod 12): there, (N-1)/3 rounds (5, 9, 13, 17, 21)\n"
        "let every player meet every other exactly once (a resolvable design), not just five rounds."
    )


def replan_text(replan: Replan, verbose: bool = False) -> str:
    who = []
    if replan.dropped:
        who.append(f"left: {', '.join(replan.dropped)}")
    if replan.added:
        who.append(f"arrived: {', '.join(replan.added)}")
    lines = [
        "",
        f"Re-planned after round {replan.played}" + (f" ({'; '.join(who)})" if who else ""),
        f"Repeats: {replan.repeats_before} as planned before, {replan.result.repeats} now "
        f"({replan.repeats_played} in the rounds already played)",
        *_moves_lines(replan),
        f"Seats changed for {_count(len(replan.changes), 'player')}{':' if replan.changes else ''}",
    ]
    lines += [
        f"  {c.name}: round{'s' if len(c.rounds) > 1 else ''} {', '.join(map(str, c.rounds))}" for c in replan.changes
    ]
    return "\n".join(lines) + "\n" + result_text(replan.result, verbose)


def _moves_lines(replan: Replan) -> list[str]:
    """'Fewest moves: 3 players move in rounds 4-6 (...); repeats 2', then the other choice's figures."""
    moves, other = replan.moves, replan.other_way
    if moves is None:
        return []
    rounds = sorted({r for c in replan.changes for r in c.rounds})
    where = f" in {_rounds(rounds)}" if rounds else ""
    seats = f"{_count(moves.moves, 'seat change')}, {moves_proof(moves)}"
    repeats = f"repeats {replan.result.repeats}" + (", the fewest with these moves" if moves.repeats_proven else "")
    title = reseat_choice(replan.reseat).capitalize()
    lines = [f"{title}: {_count(moves.players, 'player', 'moves', 'move')}{where} ({seats}); {repeats}"]
    if other is not None:
        title = reseat_choice(other.reseat).capitalize()
        if other.moves is None or other.repeats is None:
            lines.append(f"{title}: no schedule in a {other.runtime:.1f} s run")
        else:
            moved = _count(other.moves.players, "player", "moves", "move")
            lines.append(f"{title}: {counted(other.repeats, 'repeat')}, {moved} (a {other.runtime:.1f} s run)")
    return lines


def _count(n: int, noun: str, verb_one: str = "", verb_many: str = "") -> str:
    """'1 player moves', '3 players move'; without verbs '1 player', '3 players'."""
    text = counted(n, noun)
    verb = verb_one if n == 1 else verb_many
    return f"{text} {verb}" if verb else text


def _rounds(rounds: list[int]) -> str:
    """'round 4', 'rounds 4-6', 'rounds 4, 6'."""
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if rounds == list(range(rounds[0], rounds[-1] + 1)):
        return f"rounds {rounds[0]}-{rounds[-1]}"
    return f"rounds {', '.join(map(str, rounds))}"


def compare_record(
    players: int, rounds: int, result: PlanResult, answer: Answer, fixed: Metrics, rule: FixedRule = FixedRule.MJMP
) -> dict:
    """One room of `compare` for --csv and --json: the row's figures as values, not text."""
    return {
        "players": players,
        "rounds": rounds,
        "fixed_rule": rule.value,
        "fixed": fixed.repeats,
        "fixed_fair": fixed.turns_fair,
        "variety": result.repeats,
        "bound": result.bound.repeats,
        "status": result.status.value,
        "zero_repeat": answer.value,
        "seconds": round(result.runtime, 2),
        **{figure: getattr(result.metrics, figure, None) for figure in BALANCE_FIGURES},
    }


def compare_summary(records: list[dict], skipped: int = 0) -> str:
    optimal = sum(r["status"] == "optimal" for r in records)
    zero = sum(r["zero_repeat"] == "exists" for r in records)
    better = sum(r["variety"] is not None and r["fixed"] is not None and r["variety"] < r["fixed"] for r in records)
    seconds = sum(r["seconds"] for r in records)
    line = (
        f"{counted(len(records), 'room')}: {optimal} proven optimal, {better} better than the fixed rule, "
        f"{zero} with zero repeats; {seconds:.1f} s in all"
    )
    return line + (f"; {counted(skipped, 'room')} could not be seated" if skipped else "")


def compare_csv(records: list[dict]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(records[0]) if records else ["players"], lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in r.items()} for r in records)
    return buffer.getvalue()


def compare_json(records: list[dict]) -> str:
    import json

    return json.dumps({"rooms": records, "tool_version": tool_version()}, indent=2) + "\n"


# Fixes by hand (rotation swap, move, played): what changed, and the day's figures before and after.

FIX_FIGURES = (
    ("Repeats", "repeats"),
    ("Most meetings of one pair", "max_meetings"),
    ("Most repeats for one player", "worst_player_repeats"),
    ("Fewest different opponents", "opponents_min"),
    ("Seats: most - fewest rounds in one letter", "seat_spread"),
    ("Same table number more often than needed", "table_visits_above_even"),
    ("Three players at one table again", "trios_again"),
    ("Pairs at one table two rounds running", "back_to_back"),
)
FIX_LABEL_WIDTH = max(len(label) for label, _ in FIX_FIGURES) + 2


def fix_text(after: Schedule, moved, before_metrics: Metrics, after_metrics: Metrics, notes: list[str]) -> str:
    """The last correction of `after`, who sits where now, and every figure before and after it."""
    fix = after.corrections[-1]
    names = " and ".join(fix.players)
    what = f"{names} trade places" if fix.change == "swap" else f"{names} takes the empty seat at table {fix.table}"
    lines = [f"Round {fix.round} ({'as played' if fix.played else 'still to play'}): {what}"]
    lines += [f"  {name}: {_place(now)} (was {_place(was)})" for name, was, now in moved]
    figures = FIX_FIGURES + ((("Club-mates sharing a table", "club_meetings"),) if after.spread else ())
    width = FIX_LABEL_WIDTH
    lines += ["", f"{'':<{width}}{'before':>7}{'now':>7}"]
    lines += [f"{label:<{width}}{getattr(before_metrics, a):>7}{getattr(after_metrics, a):>7}" for label, a in figures]
    fair = {True: "yes", False: "no"}
    turns = f"{fair[before_metrics.turns_fair]:>7}{fair[after_metrics.turns_fair]:>7}"
    lines.append(f"{'Turns taken fairly':<{width}}{turns}")
    lines += [f"Now {note}" for note in notes]
    new = [line for line in after_metrics.broken_requests if line not in before_metrics.broken_requests]
    lines += [f"Request broken in a played round: {line}" for line in new]
    if after.played:
        lines.append(f"Rounds recorded as played: 1 to {after.played}")
    return "\n".join(lines)


def _place(place: tuple[int, str] | None) -> str:
    return "sits out" if place is None else f"table {place[0]} seat {place[1]}"


def played_text(before: int, after: int) -> str:
    was = f"1 to {before}" if before else "none"
    return f"Rounds recorded as played: 1 to {after} (before: {was}). A re-plan keeps them."
