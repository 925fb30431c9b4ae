"""The LLM implementations of the derived designs, against a model that restates its input.

The fake endpoint answers like a careless model: summaries and narratives repeat
every line they are given (secrets included), fact extraction returns what it
finds. Closure must still hold: after deleting the secret's turn, no object, no
full-text row and no cached reply holds it.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest
from derived_checks import EPISODE, HOME, SECRET, SECRET_TURN, objects, rows_with

from govmem import InputError, Memory, Principal
from govmem.llm import InMemoryResponseCache, OpenAICompatible

DESIGNS = ["summary", "narrative", "fact"]


class RestatingModel:
    """An OpenAI-compatible endpoint whose replies are made from the prompt alone."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        body = json.loads(request.content)
        prompt = body["messages"][-1]["content"]
        if "response_format" in body:
            utterance = prompt.split("Utterance: ", 1)[1]
            found = re.search(r"(gate code|locker number|address) is ([\w .]+?)[,.]", utterance)
            facts = [{"subject": "I", "attribute": found[1], "value": found[2]}] if found else []
            content = json.dumps({"facts": facts})
        else:
            lines = prompt.split("\n\n", 1)[1].splitlines()
            content = " ".join(line.split(": ", 1)[-1] for line in lines)
        return httpx.Response(
            200,
            json={
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70},
            },
        )


def client(model: RestatingModel) -> OpenAICompatible:
    return OpenAICompatible(
        "gpt-4o-mini", api_key="sk-test", transport=httpx.MockTransport(model), sleep=lambda _: None
    )


def household(path: str, model: RestatingModel) -> Memory:
    memory = Memory(path, designs=DESIGNS, llm=client(model))
    memory.add_principals([Principal(p, "member") for p in ("ana", "bo", "carla")])
    return memory


def test_llm_designs_forget_the_secret_in_objects_and_cached_replies(tmp_path) -> None:
    model = RestatingModel()
    with household(str(tmp_path / "m.db"), model) as memory:
        memory.ingest_many(HOME)
        before = {kind: objects(memory, kind) for kind in DESIGNS}
        for kind in DESIGNS:  # the model restated the secret in every design
            assert any(SECRET in text for _, text, _ in before[kind].values()), kind
        assert memory.store.db.scalar(
            "SELECT count(*) FROM llm_cache WHERE response LIKE ?", (f"%{SECRET}%",)
        )

        memory.delete_turns([SECRET_TURN], EPISODE)

        assert rows_with(memory, SECRET) == []  # objects, FTS, cached replies: everything
        for kind in DESIGNS:
            after = objects(memory, kind)
            untouched = {k: o for k, o in before[kind].items() if SECRET_TURN not in o[2]}
            assert untouched and {k: after.get(k) for k in untouched} == untouched
        assert memory.llm.usage.calls > 0


def test_unchanged_groups_are_derived_again_from_the_cache(tmp_path) -> None:
    model = RestatingModel()
    path = str(tmp_path / "m.db")
    with household(path, model) as memory:
        memory.ingest_many(HOME)
        first = {kind: objects(memory, kind) for kind in DESIGNS}
    called = model.calls
    with Memory(path, llm=client(model)) as memory:
        memory.relabel()  # touches no text
        memory.delete_turns(["t7"], EPISODE)  # re-derives t7's groups; their other turns come from cache
        summaries = objects(memory, "summary")
    assert model.calls - called <= 4  # only prompts that lost t7's line are new
    untouched = {k: v for k, v in first["summary"].items() if "t7" not in v[2]}
    assert untouched and {k: summaries.get(k) for k in untouched} == untouched


def test_a_client_caching_outside_the_store_is_refused(tmp_path) -> None:
    foreign = client(RestatingModel())
    foreign.cache = InMemoryResponseCache()
    with pytest.raises(InputError, match="cache its replies in that store"):
        Memory(str(tmp_path / "m.db"), designs=DESIGNS, llm=foreign)


def test_first_person_facts_are_about_the_speaker(tmp_path) -> None:
    with household(str(tmp_path / "m.db"), RestatingModel()) as memory:
        memory.ingest_many(HOME)
        texts = [text for _, text, _ in objects(memory, "fact").values()]
    assert any(text.startswith("carla") and "2291" in text for text in texts)
