"""The read path: authorize, retrieve, re-check and decide, for every read."""

from govmem.read_path.recall import ACTIONS, Decision, RecallItem, RecallResult, recall

__all__ = ["ACTIONS", "Decision", "RecallItem", "RecallResult", "recall"]
