"""Typed game options (variants): declared once, validated on load, parsed from text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dicehall.core.errors import OptionError

OptionValue = int | str | bool


@dataclass(frozen=True)
class Option:
    """One typed option of a game, with its default and the values it allows.

    >>> Option("purse", int, 20, minimum=1).parse("35")
    35
    """

    name: str
    type: type
    default: OptionValue
    description: str = ""
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def allowed(self) -> str:
        """Describe the allowed values in words, for error messages and help."""
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.type is bool:
            return "true or false"
        if self.type is int:
            lo = "" if self.minimum is None else f" >= {self.minimum}"
            hi = "" if self.maximum is None else f" <= {self.maximum}"
            joiner = " and" if lo and hi else ""
            return f"an integer{lo}{joiner}{hi}"
        return "a string"

    def validate(self, value: Any) -> OptionValue:
        """Return ``value`` converted to this option's type, or raise OptionError."""
        if isinstance(value, str) and self.type is not str:
            return self.parse(value)
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {self.name}={value!r}: expected {self.allowed()}")
        if self.type is bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name}={value!r}: expected {self.allowed()}")
        if self.type is str and not isinstance(value, str):
            raise OptionError(f"option {self.name}={value!r}: expected {self.allowed()}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(f"option {self.name}={value!r}: expected {self.allowed()}")
        if self.type is int and (
            (self.minimum is not None and value < self.minimum)
            or (self.maximum is not None and value > self.maximum)
        ):
            raise OptionError(f"option {self.name}={value!r}: expected {self.allowed()}")
        return value  # type: ignore[no-any-return]

    def parse(self, text: str) -> OptionValue:
        """Parse a value typed on a command line (``"20"``, ``"true"``, ``"row"``).

        :raises OptionError: if ``text`` is not a value of this option.
        """
        text = text.strip()
        value: OptionValue
        if self.type is int:
            try:
                value = int(text)
            except ValueError:
                raise OptionError(
                    f"option {self.name}={text!r}: expected {self.allowed()}"
                ) from None
        elif self.type is bool:
            low = text.lower()
            if low in ("1", "true", "yes", "on", "allowed"):
                value = True
            elif low in ("0", "false", "no", "off", "forbidden"):
                value = False
            else:
                raise OptionError(f"option {self.name}={text!r}: expected {self.allowed()}")
        else:
            value = text
        return self.validate(value)


def resolve_options(
    game: str, declared: Sequence[Option], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Merge ``given`` over the defaults of ``declared``, validating every value."""
    by_name = {o.name: o for o in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        allowed = ", ".join(by_name) or "none"
        raise OptionError(f"{game} has no option {unknown[0]!r}; its options are: {allowed}")
    out: dict[str, OptionValue] = {}
    for opt in declared:
        out[opt.name] = opt.validate(given[opt.name]) if opt.name in given else opt.default
    return out


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """Split ``["k=v", ...]`` as typed after ``--option`` into a dict of strings."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r}: expected the form name=value, e.g. purse=30")
        out[key.strip()] = value.strip()
    return out
