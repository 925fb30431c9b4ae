"""Response caches: keys, hits that skip the transport, and forgetting with source turns."""

from __future__ import annotations

import pytest
from llm_replay import FACTS_SCHEMA

from govmem import Memory, Turn
from govmem.llm import InMemoryResponseCache, LLMResponse, SQLiteResponseCache, cache_key


def test_key_is_sha256_of_the_canonical_request() -> None:
    a = cache_key({"model": "m", "messages": [{"role": "user", "content": "hé"}], "temperature": 0.0})
    b = cache_key({"temperature": 0.0, "messages": [{"content": "hé", "role": "user"}], "model": "m"})
    assert a == b and len(a) == 64
    assert cache_key({"model": "m", "temperature": 0.5}) != cache_key({"model": "m", "temperature": 0.0})


def test_hit_skips_the_transport(openai) -> None:
    cache = InMemoryResponseCache()
    client, replay = openai("openai_chat_structured", cache=cache)
    first = client.complete("Extract the facts.", schema=FACTS_SCHEMA, sources=[3, 1])
    assert not first.cached and len(replay.requests) == 1
    again = client.complete("Extract the facts.", schema=FACTS_SCHEMA, sources=[1, 3])
    assert len(replay.requests) == 1  # the replay has no step left: a request would fail the test
    assert again.cached and again.data == first.data and again.text == first.text
    assert again.model == first.model
    assert client.usage.cache_hits == 1


@pytest.mark.parametrize(
    "change",
    [
        {"system": "Be brief."},
        {"schema": None},
        {"max_tokens": 10},
        {"temperature": 0.7},
    ],
)
def test_any_change_to_the_request_misses(openai, change) -> None:
    request = {"schema": FACTS_SCHEMA} | change
    second = "openai_chat_structured" if request["schema"] else "openai_chat_plain"
    client, replay = openai("openai_chat_structured", second, cache=InMemoryResponseCache())
    client.complete("Extract the facts.", schema=FACTS_SCHEMA)
    client.complete("Extract the facts.", **request)
    assert len(replay.requests) == 2 and client.usage.cache_hits == 0


def test_same_request_to_another_backend_misses(openai, anthropic) -> None:
    cache = InMemoryResponseCache()
    gpt, _ = openai("openai_chat_plain", cache=cache)
    claude, replay = anthropic("anthropic_messages_plain", cache=cache)
    gpt.complete("Summarise the visit.")
    claude.complete("Summarise the visit.")
    assert len(replay.requests) == 1 and len(cache) == 2


def test_failed_calls_are_not_cached(openai) -> None:
    cache = InMemoryResponseCache()
    client, _ = openai("openai_error_400", cache=cache)
    with pytest.raises(Exception, match="HTTP 400"):
        client.complete("hi")
    assert len(cache) == 0


def test_in_memory_forget_sources() -> None:
    cache = InMemoryResponseCache()
    reply = LLMResponse(text="x", model="m")
    cache.put("a", reply, [1, 2])
    cache.put("b", reply, [2, 3])
    cache.put("c", reply, [4])
    cache.put("d", reply, [])
    assert cache.forget_sources([2]) == 2
    assert [key for key in "abcd" if cache.get(key)] == ["c", "d"]
    assert cache.forget_sources([2, 3]) == 0
    assert cache.forget_sources([4]) == 1
    assert cache.get("d") is not None and len(cache) == 1


@pytest.fixture
def memory(tmp_path):
    with Memory(str(tmp_path / "m.db")) as memory:
        memory.add_principal("ana", "nurse")
        memory.ingest_many(
            [
                Turn("t1", "ana", "Ms. Park started apixaban 5 mg twice daily."),
                Turn("t2", "ana", "Her follow-up is on Thursday at 10:00."),
                Turn("t3", "ana", "The autoclave in room nine is broken."),
            ]
        )
        yield memory


def cache_rows(memory: Memory) -> tuple[int, int]:
    db = memory.store.db
    return db.scalar("SELECT count(*) FROM llm_cache"), db.scalar("SELECT count(*) FROM llm_cache_sources")


def test_sqlite_cache_round_trip(memory) -> None:
    cache = SQLiteResponseCache(memory.store)
    keys = memory.store.turn_keys("default", ["t1", "t2"])
    cache.put("k", LLMResponse(text='{"a": 1}', data={"a": 1}, model="m", cost_usd=0.5), list(keys.values()))
    hit = cache.get("k")
    assert hit == LLMResponse(text='{"a": 1}', data={"a": 1}, model="m", cached=True)
    assert cache.get("other") is None
    assert cache_rows(memory) == (1, 2)


def test_deleting_a_source_turn_purges_the_cached_reply(memory, openai) -> None:
    keys = memory.store.turn_keys("default", ["t1", "t2", "t3"])
    cache = SQLiteResponseCache(memory.store)
    client, replay = openai(
        "openai_chat_structured", "openai_chat_plain", "openai_chat_structured", cache=cache
    )
    prompt = "Extract the facts:\nMs. Park started apixaban 5 mg twice daily.\nHer follow-up is on Thursday."
    client.complete(prompt, schema=FACTS_SCHEMA, sources=[keys["t1"], keys["t2"]])
    client.complete("Is the autoclave working?", sources=[keys["t3"]])
    assert cache_rows(memory) == (2, 3)

    memory.delete_turns(["t1"])

    assert cache_rows(memory) == (1, 1)
    assert memory.store.db.execute("SELECT turn_key FROM llm_cache_sources") == [(keys["t3"],)]
    client.complete("Is the autoclave working?", sources=[keys["t3"]])
    assert client.usage.cache_hits == 1  # the unrelated reply survives
    client.complete(prompt, schema=FACTS_SCHEMA, sources=[keys["t1"], keys["t2"]])
    assert len(replay.requests) == 3 and replay.done  # the forgotten reply is asked for again


def test_a_reply_drawn_from_a_turn_deleted_meanwhile_is_not_stored(memory) -> None:
    keys = memory.store.turn_keys("default", ["t1", "t2"])
    memory.delete_turns(["t1"])
    stored = memory.store.cache_put(
        "k", LLMResponse(text="x").to_json(), [keys["t1"], keys["t2"]], "2026-01-01"
    )
    assert stored is False
    assert cache_rows(memory) == (0, 0)


def test_store_forget_sources(memory) -> None:
    keys = memory.store.turn_keys("default", ["t1", "t2", "t3"])
    cache = SQLiteResponseCache(memory.store)
    reply = LLMResponse(text="x")
    cache.put("a", reply, [keys["t1"]])
    cache.put("b", reply, [keys["t1"], keys["t2"]])
    cache.put("c", reply, [keys["t3"]])
    assert cache.forget_sources([keys["t1"]]) == 2
    assert cache_rows(memory) == (1, 1)


def test_a_failed_deletion_keeps_the_cache(memory) -> None:
    keys = memory.store.turn_keys("default", ["t1"])
    SQLiteResponseCache(memory.store).put("a", LLMResponse(text="x"), [keys["t1"]])
    with pytest.raises(Exception, match="no turn 'nope'"):
        memory.delete_turns(["t1", "nope"])
    assert cache_rows(memory) == (1, 1)
