"""govmem: governed long-term memory for LLM agents that serve several people.

>>> from govmem import Memory, Turn
>>> with Memory(":memory:") as memory:                       # doctest: +SKIP
...     memory.add_principal("dr_lee", "clinician")
...     memory.ingest(Turn("t1", "dr_lee", "Start apixaban 5 mg twice daily."))
...     memory.recall("dr_lee", "which anticoagulant?").action
'answer'
"""

from govmem.api.memory import Memory, WriteReport
from govmem.errors import (
    DuplicateTurn,
    EmbedderError,
    GovmemError,
    InputError,
    LLMError,
    LoadError,
    NotVisible,
    PolicyError,
    SchemaError,
    StoreError,
    UnknownPrincipal,
)
from govmem.governance.policy_pack import PolicyPack, load_pack
from govmem.loaders.gatemem import Episode, read_episodes
from govmem.models import Grant, MemoryObject, Principal, Relationship, Turn
from govmem.read_path.recall import Decision, RecallItem, RecallResult

__version__ = "0.1.0"

__all__ = [
    "Decision",
    "DuplicateTurn",
    "EmbedderError",
    "Episode",
    "GovmemError",
    "Grant",
    "InputError",
    "LLMError",
    "LoadError",
    "Memory",
    "MemoryObject",
    "NotVisible",
    "PolicyError",
    "PolicyPack",
    "Principal",
    "RecallItem",
    "RecallResult",
    "Relationship",
    "SchemaError",
    "StoreError",
    "Turn",
    "UnknownPrincipal",
    "WriteReport",
    "load_pack",
    "read_episodes",
]
