"""Readers: answer a query from what recall returned, and from nothing else.

A reader sees a :class:`~govmem.read_path.recall.RecallResult`: the action recall
decided and the permitted, already redacted memory. Protection is never a
reader's job and never in a prompt; a reader cannot leak what recall withheld,
because it is never given it. When recall refuses or has no memory, a reader
answers with nothing.

- :class:`ExtractiveReader` (offline, deterministic): the context sentences that
  best match the query, by shared words weighted by rarity, names and numbers.
- :class:`LLMReader`: asks a language model (:mod:`govmem.llm`) with the context.

>>> result = memory.recall("dr_lee", "which anticoagulant?")    # doctest: +SKIP
>>> ExtractiveReader().answer("which anticoagulant?", result).text  # doctest: +SKIP
'Start apixaban 5 mg twice daily.'
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from govmem.llm.cache import SQLiteResponseCache
from govmem.read_path.recall import RecallResult

if TYPE_CHECKING:
    from govmem.api.memory import Memory
    from govmem.llm.client import LLMClient

SILENT_ACTIONS = frozenset({"refuse", "no_memory"})
"""Actions a reader answers with nothing."""


@dataclass(frozen=True)
class Answer:
    """A reader's answer and the memory objects it drew on (tokens when a model was called)."""

    text: str
    used_object_ids: tuple[str, ...] = ()
    input_tokens: int = 0
    output_tokens: int = 0


class Reader(Protocol):
    """Anything that answers a query from a recall result."""

    name: str

    def answer(self, query: str, result: RecallResult) -> Answer: ...


# The extractive reader


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOP_WORDS = _words(
    """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each else ever
    few for from further get gets give go had has have having he her here hers herself him himself
    his how i if in into is it its itself just know let like may me might more most must my myself
    need no nor not now of off on once only or other our ours ourselves out over own please right
    same say see she should so some still such tell than that the their theirs them themselves then
    there these they this those through to too under until up us very want was we were what when
    where which while who whom whose why will with would yes yet you your yours yourself yourselves
    okay ok thanks thank currently current today
    """
)
ABBREVIATIONS = frozenset(
    {"dr", "mr", "mrs", "ms", "st", "no", "vs", "prof", "e.g", "i.e", "a.m", "p.m", "approx"}
)
ASKS_FOR_A_VALUE = frozenset(
    {"when", "time", "date", "day", "how", "many", "much", "dose", "number", "which", "what", "where"}
)

_WORD = re.compile(r"[a-z0-9]+(?:['.:/-][a-z0-9]+)*")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)?")
_STARTS_SENTENCE = re.compile(r"(?:^|[.!?:;]\s*|[\"'(]\s*)$")
_NUMBER = re.compile(r"\d+(?:[.:,/-]\d+)*")
_LINE_PREFIX = re.compile(r"^\s*(?:\[[^\]\n]*\]\s*(?:[\w.-]+:\s+)?|[a-z][a-z0-9]*(?:_[a-z0-9]+)+:\s+)")
"""A session line's ``[timestamp] speaker: `` (or an undated ``speaker_id: ``)."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")


def _stem(word: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "edly", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def terms(text: str) -> set[str]:
    """Content words of ``text``: lower-cased, stop words dropped, crudely stemmed."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS}


def sentences(text: str) -> list[str]:
    """Sentences of a memory object's text, without timestamp and speaker-id prefixes."""
    found = []
    for line in text.splitlines():
        line = _LINE_PREFIX.sub("", line, count=1).strip()
        if not line:
            continue
        parts: list[str] = []
        for part in _SENTENCE_END.split(line):
            previous = parts[-1].rsplit(None, 1)[-1].rstrip(".").lower() if parts else ""
            if previous in ABBREVIATIONS:
                parts[-1] = f"{parts[-1]} {part}"
            else:
                parts.append(part)
        found.extend(p.strip() for p in parts if p.strip())
    return found


def query_names(query: str) -> set[str]:
    """Capitalised words of the query that do not open a sentence (names, places), lower-cased."""
    found = set()
    for match in _NAME.finditer(query):
        if not _STARTS_SENTENCE.search(query[: match.start()]):
            found.add(match.group().lower())
    return found - STOP_WORDS


@dataclass(frozen=True)
class _Candidate:
    position: int
    object_id: str
    text: str
    terms: frozenset[str]


class ExtractiveReader:
    """The context sentences that best answer the query (offline and deterministic).

    A sentence scores the rarity-weighted (IDF over the context's sentences) sum of
    the query's content words it shares, plus a bonus for each name and number of
    the query it repeats, plus a small one for holding a number when the query asks
    for a value (when, how many, which dose...). The answer is every sentence
    scoring at least ``keep`` times the best, at most ``max_sentences``, in context
    order; repeated sentences (a turn and its session window) count once.
    """

    name = "extractive"

    def __init__(self, max_sentences: int = 6, keep: float = 0.35):
        self.max_sentences = max_sentences
        self.keep = keep

    def answer(self, query: str, result: RecallResult) -> Answer:
        if result.action in SILENT_ACTIONS or not result.items:
            return Answer("")
        candidates = self._candidates(result)
        if not candidates:
            return Answer("")
        wanted = terms(query)
        names = query_names(query)
        numbers = set(_NUMBER.findall(query))
        asks_value = bool(set(_WORD.findall(query.lower())) & ASKS_FOR_A_VALUE)
        count = len(candidates)
        frequency: dict[str, int] = {}
        for candidate in candidates:
            for term in candidate.terms & wanted:
                frequency[term] = frequency.get(term, 0) + 1
        weight = {t: math.log(1 + (count + 1) / (f + 0.5)) for t, f in frequency.items()}
        scored = []
        for candidate in candidates:
            score = math.fsum(weight[t] for t in candidate.terms & wanted)  # any set order, same score
            lowered = candidate.text.lower()
            score += sum(1.0 for n in names if re.search(rf"\b{re.escape(n)}\b", lowered))
            found_numbers = set(_NUMBER.findall(candidate.text))
            score += 1.0 * len(numbers & found_numbers)
            if asks_value and found_numbers:
                score += 0.25
            scored.append((score, candidate))
        best = max(score for score, _ in scored)
        if best <= 0:
            chosen = [candidates[0]]
        else:
            ranked = sorted(
                (pair for pair in scored if pair[0] >= self.keep * best),
                key=lambda pair: (-pair[0], pair[1].position),
            )
            chosen = sorted((c for _, c in ranked[: self.max_sentences]), key=lambda c: c.position)
        used = tuple(dict.fromkeys(c.object_id for c in chosen))
        return Answer(" ".join(c.text for c in chosen), used)

    @staticmethod
    def _candidates(result: RecallResult) -> list[_Candidate]:
        seen: set[str] = set()
        found = []
        for item in result.items:
            for text in sentences(item.text):
                key = " ".join(text.split()).lower()
                if key in seen:
                    continue
                seen.add(key)
                found.append(_Candidate(len(found), item.object_id, text, frozenset(terms(text))))
        return found


# The LLM reader

READER_SYSTEM = (
    "You answer a question for the person asking it, using only the memory context you are "
    "given. Keep names, dates, times, places, numbers and doses exactly as the context states "
    "them, and give the current values when the context shows a change. If the context does "
    "not answer the question, say that you have no memory of it. Answer in at most five "
    "sentences."
)


class LLMReader:
    """Answers with a language model given the recall context and the query.

    The prompt holds ``result.context()`` (exactly what recall permitted) and the
    query; it adds no protection, because none is needed: the model is given
    nothing else. Replies are cached only where they can be forgotten: when
    ``memory`` is given, the client caches in that memory's own store
    (:class:`~govmem.llm.SQLiteResponseCache`) and every context object's source
    turns are found there, the reply is cached under those turn keys, so deleting
    any of them deletes it. Otherwise the call bypasses the client's cache.
    """

    def __init__(
        self,
        client: LLMClient,
        memory: Memory | None = None,
        *,
        system: str = READER_SYSTEM,
        max_tokens: int = 400,
    ):
        self.client = client
        self.memory = memory
        self.system = system
        self.max_tokens = max_tokens
        self.name = f"llm:{client.model}"
        self._lock = threading.Lock()

    def prompt(self, query: str, result: RecallResult) -> str:
        return f"Memory context:\n{result.context()}\n\nQuestion: {query}"

    def source_keys(self, result: RecallResult) -> tuple[int, ...] | None:
        """The turn keys of every context object's sources in ``memory``'s store, or None
        when there is no memory or any source cannot be found there."""
        if self.memory is None:
            return None
        wanted: dict[str, set[str]] = {}
        for item in result.items:
            wanted.setdefault(item.episode_id, set()).update(item.sources)
        keys: set[int] = set()
        for episode_id, turn_ids in wanted.items():
            found = self.memory.store.turn_keys(episode_id, sorted(turn_ids))
            if len(found) < len(turn_ids):
                return None
            keys.update(found.values())
        return tuple(sorted(keys)) or None

    def answer(self, query: str, result: RecallResult) -> Answer:
        if result.action in SILENT_ACTIONS or not result.items:
            return Answer("")
        keys = self.source_keys(result)
        cache = getattr(self.client, "cache", None)
        own_cache = (
            self.memory is not None
            and isinstance(cache, SQLiteResponseCache)
            and cache.store is self.memory.store
        )
        prompt = self.prompt(query, result)
        if keys is not None and own_cache:
            reply = self.client.complete(prompt, system=self.system, max_tokens=self.max_tokens, sources=keys)
        else:
            with self._uncached():
                reply = self.client.complete(
                    prompt, system=self.system, max_tokens=self.max_tokens, sources=keys or ()
                )
        used = tuple(item.object_id for item in result.items)
        return Answer(reply.text.strip(), used, reply.input_tokens, reply.output_tokens)

    @contextmanager
    def _uncached(self) -> Iterator[None]:
        """The client with its cache set aside for one call (a reply that could not be
        forgotten with its turns is not kept)."""
        cache = getattr(self.client, "cache", None)
        if cache is None:
            yield
            return
        with self._lock:
            self.client.cache = None  # type: ignore[attr-defined]
            try:
                yield
            finally:
                self.client.cache = cache  # type: ignore[attr-defined]


def used_turn_ids(result: RecallResult, object_ids: Sequence[str]) -> list[str]:
    """The source turn ids of these objects of ``result``, in order, each once."""
    by_id = {item.object_id: item for item in result.items}
    turns: dict[str, None] = {}
    for object_id in object_ids:
        item = by_id.get(object_id)
        if item is not None:
            turns.update(dict.fromkeys(item.sources))
    return list(turns)
