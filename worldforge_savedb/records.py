"""The base of the core's plain records (the game's state, the commands a run's inputs keep, the
memory rows, ...): `==`, `repr` and, for a frozen record, the hash, written once here and behaving
exactly as `@dataclass` writes them. `@dataclass` compiles these methods through `exec` for every
class at import; for the records a headless venture loads that was about 4 % of
`worldforge simulate` (tests/engine/test_records.py checks each against a plain twin)."""

from __future__ import annotations

from dataclasses import asdict, fields
from reprlib import recursive_repr
from typing import Any, ClassVar


class Record:  # noqa: PLW1641 - unhashable unless frozen (FrozenRecord), as with @dataclass
    """`==` and `repr` as `@dataclass` writes them, for a record that declares
    `@dataclass(eq=False, repr=False)` and inherits them."""

    __dataclass_fields__: ClassVar[dict[str, Any]]  # every record is a dataclass

    def _compared(self) -> tuple[object, ...]:
        return tuple(getattr(self, f.name) for f in fields(self) if f.compare)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._compared() == other._compared()
        return NotImplemented

    @recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
        return f"{type(self).__qualname__}({shown})"

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data (a deep copy)."""
        return asdict(self)


class FrozenRecord(Record):
    """A frozen record's hash, as `@dataclass(frozen=True)` writes it (its fields' tuple)."""

    def __hash__(self) -> int:
        return hash(self._compared())
