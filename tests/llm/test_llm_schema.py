"""Reading JSON from replies and naming why it does not validate."""

from __future__ import annotations

from govmem.llm.schema import parse_json, schema_name, schema_problem


def test_parse_json_plain_and_fenced() -> None:
    assert parse_json('{"a": 1}') == ({"a": 1}, None)
    assert parse_json('```json\n{"a": 1}\n```') == ({"a": 1}, None)
    assert parse_json("  [1, 2]  ") == ([1, 2], None)


def test_parse_json_problems() -> None:
    assert parse_json("") == (None, "the reply is empty, not JSON")
    value, problem = parse_json("Sure! Here it is: {")
    assert value is None and problem.startswith("the reply is not JSON (Expecting value at line 1 column 1")


def test_schema_problem_names_the_path() -> None:
    schema = {
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"type": "integer"}}},
        "required": ["items"],
    }
    assert schema_problem({"items": [1, 2]}, schema) is None
    assert schema_problem({"items": [1, "two"]}, schema) == "'two' is not of type 'integer' at $.items[1]"
    assert schema_problem({}, schema) == "'items' is a required property at $"


def test_schema_name_from_the_title() -> None:
    assert schema_name({"title": "Fact list (v2)"}) == "Fact_list_v2"
    assert schema_name({}) == "response"
    assert schema_name({"title": "!!!"}, "record_answer") == "record_answer"
    assert len(schema_name({"title": "x" * 100})) == 64
