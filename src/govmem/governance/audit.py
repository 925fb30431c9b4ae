"""The decision log: who asked, what came back, what was withheld and by which rule.

It records object ids, rule ids and a SHA-256 of the query, never text, so the
log itself holds nothing that forgetting would have to chase.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from govmem.governance.authorization import utc_now
from govmem.models import Principal
from govmem.store.base import Store


class DecisionLog:
    def __init__(self, store: Store):
        self.store = store

    def record(
        self,
        requester: Principal,
        surface: str,
        action: str,
        returned: Sequence[str],
        withheld: Sequence[dict],
        rules: Sequence[str],
        query: str | None = None,
        as_of: str | None = None,
    ) -> None:
        self.store.log_decision(
            {
                "decided_at": utc_now(),
                "requester_id": requester.principal_id,
                "surface": surface,
                "query_sha256": hashlib.sha256(query.encode()).hexdigest() if query is not None else None,
                "as_of": as_of,
                "action": action,
                "returned": list(returned),
                "withheld": list(withheld),
                "rules": list(rules),
            }
        )

    def recent(self, limit: int = 100) -> list[dict]:
        return self.store.decisions(limit)
