"""The api layer: the ``Memory`` facade and the ``govmem`` CLI."""

from govmem.api.memory import Memory, WriteReport

__all__ = ["Memory", "WriteReport"]
