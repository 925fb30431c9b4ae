"""Loaders: source files into principals, relationships and turns."""

from govmem.loaders.gatemem import Episode, iter_episodes, read_episodes
from govmem.loaders.jsonl import iter_turns, looks_like_episodes

__all__ = ["Episode", "iter_episodes", "iter_turns", "looks_like_episodes", "read_episodes"]
