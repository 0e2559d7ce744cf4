"""Whole numbers as a director types them in a form's box: read here, before any int() sees them."""

from __future__ import annotations


def form_number(text: str, most: int = 18, signed: bool = False) -> int | None:
    """A whole number typed in a form: ASCII digits only, at most `most` of them (after a '-' when `signed`);
    None for anything else. Python's int() also takes '٣' and other scripts' digits, '1_000', thousands of
    digits; str.isdigit() takes '²'."""
    text = text.strip()
    sign = -1 if signed and text.startswith("-") else 1
    digits = text[1:] if sign < 0 else text
    return sign * int(digits) if 0 < len(digits) <= most and digits.isascii() and digits.isdigit() else None
