"""Memory designs: derivers that turn source turns into memory objects."""

from govmem.designs.base import Deriver
from govmem.designs.session import SessionDeriver
from govmem.designs.turn import TurnDeriver
from govmem.errors import InputError

DESIGNS = {"turn": TurnDeriver, "session": SessionDeriver}


def make_derivers(names: list[str] | tuple[str, ...]) -> list[Deriver]:
    unknown = [n for n in names if n not in DESIGNS]
    if unknown:
        raise InputError(f"unknown memory design {unknown[0]!r} (known: {', '.join(DESIGNS)})")
    return [DESIGNS[n]() for n in names]


__all__ = ["DESIGNS", "Deriver", "SessionDeriver", "TurnDeriver", "make_derivers"]
