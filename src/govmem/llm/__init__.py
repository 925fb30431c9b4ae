"""LLM backends behind one small client interface.

Memory designs (summaries, narratives, facts), governance interpreters and readers
call :meth:`LLMClient.complete`; nothing in govmem needs an LLM by default, and
:func:`load_client` returns None when none is configured.

>>> from govmem.llm import SQLiteResponseCache, load_client
>>> client = load_client(cache=SQLiteResponseCache(memory.store))  # doctest: +SKIP
>>> if client is not None:                                          # doctest: +SKIP
...     reply = client.complete(prompt, system=..., schema=..., sources=turn_keys)

The backends need the ``llm`` extra (``pip install 'govmem[llm]'``: httpx and
jsonschema); both are imported only when a client is built or a schema is checked.
"""

from govmem.llm.anthropic import Anthropic
from govmem.llm.cache import InMemoryResponseCache, ResponseCache, SQLiteResponseCache, cache_key
from govmem.llm.client import BaseClient, LLMClient, Message
from govmem.llm.config import BACKENDS, LLMConfig, load_client, load_config
from govmem.llm.openai_compatible import OpenAICompatible
from govmem.llm.response import LLMResponse
from govmem.llm.retry import RetryPolicy
from govmem.llm.usage import Price, Usage

__all__ = [
    "BACKENDS",
    "Anthropic",
    "BaseClient",
    "InMemoryResponseCache",
    "LLMClient",
    "LLMConfig",
    "LLMResponse",
    "Message",
    "OpenAICompatible",
    "Price",
    "ResponseCache",
    "RetryPolicy",
    "SQLiteResponseCache",
    "Usage",
    "cache_key",
    "load_client",
    "load_config",
]
