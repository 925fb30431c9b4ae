"""Revocation: validity in time, supersession, the guard, taint through provenance.

==============  ================================================================
module          job
==============  ================================================================
validity        the one status check (current, superseded, expired, stale)
statements      what a text states: subject terms, names, stances, quantities
detector        does a newer record revise an older one (or conflict with it)
guard           withhold revoked and contradicted records of any backend
adapters        mem0, Graphiti and Zep search results as guard records
supersession    supersessions found at ingest, recorded in the store
review          govmem's own reads: validity of memory objects at read time
==============  ================================================================
"""

from govmem.governance.revocation.adapters import ADAPTERS, from_graphiti, from_mem0, from_zep
from govmem.governance.revocation.guard import Conflict, Guard, GuardRecord, GuardResult, Withheld
from govmem.governance.revocation.validity import CURRENT, EXPIRED, STALE, SUPERSEDED, Validity

__all__ = [
    "ADAPTERS",
    "CURRENT",
    "EXPIRED",
    "STALE",
    "SUPERSEDED",
    "Conflict",
    "Guard",
    "GuardRecord",
    "GuardResult",
    "Validity",
    "Withheld",
    "from_graphiti",
    "from_mem0",
    "from_zep",
]
