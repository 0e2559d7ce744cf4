"""The errors every desk action refuses with, in one line, and the form's errors beside its fields
(rotation.desk.errors answers each: a page for a page, JSON for the JSON endpoints)."""

from __future__ import annotations


class DeskError(Exception):
    """A request the desk refuses, in one line; `field` says which form field it is about."""

    def __init__(self, message: str, field: str | None = None, status: int = 409):
        super().__init__(message)
        self.field, self.status = field, status

    def state(self) -> dict:
        """What a JSON refusal carries beside its words (the current state a stale change missed)."""
        return {}


class Unconfirmed(DeskError):
    """A change that would touch what the room has (or any swap or move): refused until confirmed, with
    what it would do (`preview`) for the director to read first."""

    def __init__(self, message: str, preview: dict, field: str | None = None):
        super().__init__(message, field=field, status=409)
        self.preview = preview

    def state(self) -> dict:
        return {"preview": self.preview}


class NotFound(DeskError):
    def __init__(self, what: str):
        super().__init__(f"{what} does not exist", status=404)


class DayMoved(DeskError):
    """The change was made from a version of the day that is no longer the current one (someone else,
    or another tab, changed the day meanwhile): nothing is stored, and the director sees the day as it
    is now. `current` is the current version's id, `since` what changed it since, in its versions' words."""

    def __init__(self, current: int | None, field: str | None = None, since: tuple[str, ...] = ()):
        said = f" (since: {'; '.join(since)})" if since else ""
        message = f"the day changed while you were editing{said}; here it is now: check it, then make your change again"
        super().__init__(message, field=field, status=409)
        self.current, self.since = current, since

    def state(self) -> dict:
        return {"current_version": self.current, "since": list(self.since)}


class FieldErrors(Exception):
    """Messages by field name ('names', 'rounds', ...), shown beside the fields or returned as JSON."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{field}: {message}" for field, message in errors.items()))
        self.errors = errors
