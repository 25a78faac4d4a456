"""Reading typed menu answers (R9.1) and card selections (R5.5), for every terminal and form."""

from __future__ import annotations


class NotAChoice(ValueError):
    """An answer that is not one of the offered numbers (R9.1); the message says what is."""


def small_int(digits: str) -> int | None:
    """ASCII ``digits`` as a number, or None if it has more than 9 significant digits (far more
    than any menu or hand offers). Python's int() refuses strings of over 4300 digits with a plain
    ValueError, so a very long answer must not reach it (R9.1: nothing crashes on any input)."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= 9 else None


def parse_choice(answer: str, count: int) -> int:
    """A menu answer: one number from 1 to ``count`` (surrounding spaces ignored)."""
    text = answer.strip()
    number = small_int(text) if text.isdigit() and text.isascii() else None
    if number is None or not 1 <= number <= count:
        raise NotAChoice(f"Please answer with a number from 1 to {count}.")
    return number


def parse_selection(answer: str, count: int) -> list[int]:
    """R5.5: card numbers separated by commas (``1,4,5``); spaces and one pair of surrounding
    parentheses are allowed. Empty, non-numbers, out-of-range or repeated numbers are refused."""
    text = answer.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    parts = [part.strip() for part in text.split(",")]
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()  # "(3,)" is how a one-card tuple is written
    if not parts or parts == [""]:
        raise NotAChoice(f"Select cards by their numbers, separated by commas, such as 1,4,5 (1 to {count}).")
    numbers: list[int] = []
    for part in parts:
        if not part.isdigit() or not part.isascii():
            raise NotAChoice(f"'{part[:10]}' is not a card number: use numbers from 1 to {count}, separated by commas.")
        number = small_int(part)
        if number is None or not 1 <= number <= count:
            shown = number if number is not None else part[:10] + "..."
            raise NotAChoice(f"There is no card {shown}: use numbers from 1 to {count}.")
        if number in numbers:
            raise NotAChoice(f"Card {number} was selected twice.")
        numbers.append(number)
    return numbers
