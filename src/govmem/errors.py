"""The one exception hierarchy of govmem.

GovmemError
├── InputError            bad input from a caller or a file; nothing was stored
│   ├── LoadError         a file that cannot be read as turns (names file, line, problem)
│   ├── UnknownPrincipal  a speaker or requester that the store does not know
│   ├── DuplicateTurn     a turn id already stored in the same episode
│   ├── PolicyError       a policy pack or grant that cannot be used (names the problem)
│   └── NotVisible        no such memory object for this requester (missing and denied alike)
├── StoreError            the database cannot be opened or used as asked
│   └── SchemaError       the file's schema is newer than this govmem, or not govmem's
├── EmbedderError         the embedding model cannot be loaded or does not match the store
└── LLMError              an LLM backend failed, refused, or replied with unusable output
"""

from __future__ import annotations


class GovmemError(Exception):
    """Base class of every error govmem raises on purpose."""


class InputError(GovmemError, ValueError):
    """Bad input; the call that raised it stored nothing."""


class LoadError(InputError):
    """A file could not be read as episodes or turns."""

    def __init__(self, path: str, line: int | None, problem: str):
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {problem}")


class UnknownPrincipal(InputError, LookupError):
    """A principal id that is not registered in the store."""

    def __init__(self, principal_id: str, context: str = ""):
        self.principal_id = principal_id
        suffix = f" ({context})" if context else ""
        super().__init__(f"unknown principal {principal_id!r}{suffix}")


class DuplicateTurn(InputError):
    """A turn whose (episode, turn id) is already stored."""

    def __init__(self, episode_id: str, turn_id: str):
        self.episode_id = episode_id
        self.turn_id = turn_id
        super().__init__(f"duplicate turn id {turn_id!r} in episode {episode_id!r}")


class StoreError(GovmemError):
    """The database could not be opened or used as asked."""


class SchemaError(StoreError):
    """The database schema is not one this version of govmem can use."""


class EmbedderError(GovmemError):
    """The embedder cannot be loaded, or does not match the vectors in the store."""


class LLMError(GovmemError):
    """An LLM backend failed or its reply was unusable; names the backend, status and problem.

    ``status`` is the HTTP status when the backend answered with an error, else None.
    """

    def __init__(self, message: str, status: int | None = None):
        self.status = status
        super().__init__(message)


class PolicyError(InputError):
    """A policy pack, grant or governance request that cannot be used."""


class NotVisible(InputError, LookupError):
    """The requester may not see this object, or it does not exist: deliberately the same."""

    def __init__(self, object_id: str, requester: str):
        self.object_id = object_id
        self.requester = requester
        super().__init__(f"no memory object {object_id!r} for {requester!r}")
