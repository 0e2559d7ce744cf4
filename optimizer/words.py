"""Counts in words, singular and plural right: '1 repeat', '2 repeats', '1 player', '3 players'.

The optimizer writes its proofs and refusals as sentences, and every front end counts in the same words."""

from __future__ import annotations

from models import Metrics, Moves, PlanResult, Reseat, Schedule, Status


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 repeat', '0 repeats', '2 rematches' (plural given): the count and the noun in its right number."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def moves_proof(moves: Moves) -> str:
    """What a fewest-moves proposal's count is known to be: proven fewest, or (the search stopped before its
    proof) that a longer run might move fewer, and the bound no re-plan goes below. The CLI and the desk
    both say it in these words."""
    if moves.proven:
        return "proven fewest"
    return f"a longer run might move fewer; no re-plan moves fewer than {moves.bound}"


def reseat_choice(reseat: Reseat) -> str:
    """A re-plan's choice as a director calls it: 'fewest moves' or 'everyone re-seated' (capitalised as a
    title). The CLI's report, the desk's proposals and its history's notes say it in these words."""
    return {Reseat.FEWEST: "fewest moves", Reseat.ALL: "everyone re-seated"}[reseat]


def optimality(repeats: int, bound: int, room: str = "of this room", rules: str = "") -> str:
    """Whether a day's repeats are proven the fewest: they meet the proven lower bound (optimizer.proof.bounds,
    raised by CP-SAT's proofs) or, if not, how many above the best possible they may be. `room` names what
    no other seating beats ('of this room', 'of tonight'); `rules` what the bound assumes (rules_assumed).
    The CLI's report, the season's and the desk's figures say it in these words."""
    if repeats > bound:
        return f"Not proven optimal: at most {counted(repeats - bound, 'repeat')} above the best possible."
    if repeats == 0:
        return "Proven optimal: nobody meets an opponent twice."
    return f"Proven optimal: no schedule {room}{rules} has fewer repeats."


def rules_assumed(metrics: Metrics | None, schedule: Schedule | None) -> str:
    """The rules a bound assumes, as a clause ('' if none): turns taken fairly, which the fixed rule does
    not do, and the requests kept (players who stay force repeats)."""
    players = metrics.players if metrics else ()
    rules = []
    if any(p.three_handed_rounds for p in players):
        rules.append("takes three-handed tables in turn")
    elif any(p.sit_out_rounds for p in players):
        rules.append("takes sit-outs in turn")
    if schedule is not None and (schedule.apart or schedule.stay):
        rules.append("keeps these requests")
    return f" that {' and '.join(rules)}" if rules else ""


def why_no_schedule(result: PlanResult, time_limit: float, requests: str | None, time_setting: str) -> str:
    """Why a run ended without a schedule, naming the front end's own controls: `requests` the requests
    to loosen when some were made ('--apart or --stay', 'keep-apart or stay at one table'; None when none
    were), `time_setting` its time limit ('--time-limit', 'time limit'). The CLI and the desk say it in
    these words."""
    if result.status is Status.INFEASIBLE:
        if requests:
            return f"proven infeasible: no schedule meets these requests; loosen {requests}"
        return "proven infeasible: no schedule seats these players in these rounds"
    if result.interrupted:
        return "stopped before a first schedule was found"
    return f"no schedule found in {time_limit:g} s; try a longer {time_setting}"


# How a schedule was made (optimizer.pipeline.provenance: its steps' words joined by commas) and why the bound holds
# (optimizer.proof.bounds), each said in a plain sentence for the director (the desk's Day page, the printed
# summary): the first kind of step or reason that the exact words name. The exact words stay in the JSON (a
# version's figures, a schedule file's provenance) and the command line's report.
_BUILT = (
    ("fixed rule", "the fixed rotation"),
    ("the old plan, repaired", "the old plan, with the players who came and went seated"),
    ("fewest moves", "the solver, moving as few players as it can"),
    ("fewest repeats", "the solver, moving as few players as it can"),
    ("cp-sat", "the solver, which tries seatings until its time is up or none can be better"),
    ("greedy", "seating the players round by round"),
)
_PATTERN = "a ready-made seating pattern for a room of this size"
_THEN = (
    ("computed ahead", "worked out ahead for this room"),
    ("extended", "with rounds added"),
    ("search", "improved by swapping players"),
    ("balanced", "seats and table numbers evened out"),
    ("spread over the season", "against the series' earlier nights"),
)
_PROOFS = (
    ("counting", "the day has more meetings than there are pairs of players"),
    ("per player", "some players meet more opponents than there are others to meet"),
    ("distinct pairs", "the players who meet most run out of new opponents"),
    ("pigeonhole", "with this many tables each later round must repeat some meetings"),
    ("turns", "taking three-handed tables or sit-outs in turn forces some"),
    ("stays", "players who stay at one table meet again"),
    ("repeats already played", "the rounds played already have them"),
    ("cp-sat", "the solver proved it"),
    ("split by round", "the solver proved it"),
)


def method_words(method: str) -> str:
    """'a ready-made seating pattern for a room of this size, improved by swapping players' for 'signed
    doubling of two affine planes AG(2,4), seed 3, tabu search'."""
    lowered = method.casefold()
    built = next((words for key, words in _BUILT if key in lowered), _PATTERN)
    then = [words for key, words in _THEN if key in lowered]
    return ", ".join([built, *then])


def proof_words(proof: str) -> str:
    """Why no schedule has fewer repeats, in a clause ('' when the proof names no reason the desk knows)."""
    lowered = proof.casefold()
    if "packing" in lowered:
        return "no perfect seating pattern exists for a room of this size"
    return next((words for key, words in _PROOFS if lowered.startswith(key) or f"; {key}" in lowered), "")
