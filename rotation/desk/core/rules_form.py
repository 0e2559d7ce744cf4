"""The event's scoring rules in the settings form: a box per figure of the rule sheet, each wrong one's
message beside it (field `rules_<name>`). The rules are models.rules.Rules; this only reads and fills boxes."""

from __future__ import annotations

from pydantic import ValidationError

from models.rules import Rules, Ties
from rotation.desk.numbers import form_number

# (field, label) in the rule sheet's order; every one a whole number of points unless named below
NUMBERS = (
    ("games_per_round", "Games in a round"),
    ("self_pick", "Self-picked Mah Jongg: + to the winner"),
    ("jokerless", "Jokerless hand: + to the winner"),
    ("discarder_0_1_exposures", "Discarder loses, winner with 0-1 exposures"),
    ("discarder_2_exposures", "Discarder loses, winner with 2 exposures"),
    ("discarder_3_exposures", "Discarder loses, winner with 3 or more"),
    ("wall_game", "Wall game: + to each live hand"),
    ("dead_hand", "Dead hand scores"),
    ("mah_jongg_in_error", "Mah Jongg in error scores"),
    ("unfinished", "Game unfinished at time: each scores"),
    ("lowest_value", "Lowest hand value"),
    ("highest_value", "Highest hand value"),
)
TEXTS = ("three_handed", "sit_out")
FIELDS = tuple(f"rules_{name}" for name, _ in NUMBERS) + tuple(
    f"rules_{name}" for name in ("two_winners", "ties", "winners_circle", *TEXTS)
)


def rules_from_form(form: dict[str, str]) -> tuple[Rules | None, dict[str, str]]:
    """The rules the boxes say, or None and each wrong box's message."""
    errors: dict[str, str] = {}
    values: dict = {}
    for name, _ in NUMBERS:
        text = form.get(f"rules_{name}", "").strip().replace("\u2212", "-")
        if not text:
            continue  # an empty box keeps the common value
        if (number := form_number(text, 9, signed=True)) is None:
            errors[f"rules_{name}"] = f"{text!r} is not a whole number"
        else:
            values[name] = number
    values["two_winners"] = form.get("rules_two_winners") == "yes"
    values["ties"] = Ties.BROKEN if form.get("rules_ties") == "broken" else Ties.SHARED
    try:
        values["winners_circle"] = _circle(form.get("rules_winners_circle", ""))
    except ValueError as error:
        errors["rules_winners_circle"] = str(error)
    for name in TEXTS:
        if f"rules_{name}" in form:
            values[name] = form[f"rules_{name}"].strip()
    if errors:
        return None, errors
    try:
        return Rules(**values), {}
    except ValidationError as error:
        return None, _placed(error)


def _circle(text: str) -> tuple[tuple[int, int], ...]:
    """'3; 6 from 24; 12 from 48' as ((1, 3), (24, 6), (48, 12)); empty: the common sizes."""
    if not text.strip():
        return Rules().winners_circle
    sizes = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        places, _, players = part.partition(" from ")
        field, top = form_number(players, 6) if players else 1, form_number(places, 6)
        if field is None or top is None:
            raise ValueError(f"{part!r}: write places, or places 'from' players, e.g. '3; 6 from 24'")
        sizes.append((field, top))
    return tuple(sizes)


def _placed(error: ValidationError) -> dict[str, str]:
    placed: dict[str, str] = {}
    for item in error.errors():
        field = str(item["loc"][0]) if item["loc"] else "lowest_value"
        placed.setdefault(f"rules_{field}", str(item["msg"]).removeprefix("Value error, "))
    return placed


def form_from_rules(rules: Rules) -> dict[str, str]:
    """The rules back in their boxes."""
    form = {f"rules_{name}": str(getattr(rules, name)) for name, _ in NUMBERS}
    form["rules_two_winners"] = "yes" if rules.two_winners else ""
    form["rules_ties"] = "broken" if rules.ties is Ties.BROKEN else "shared"
    circle = [f"{places}" if size == 1 else f"{places} from {size}" for size, places in rules.winners_circle]
    form["rules_winners_circle"] = "; ".join(circle)
    form.update({f"rules_{name}": getattr(rules, name) for name in TEXTS})
    return form
