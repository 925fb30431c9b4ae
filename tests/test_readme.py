"""The README's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_python_example_runs(tmp_path: Path, monkeypatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README has no Python example"
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    assert (tmp_path / "clinic.db").exists()
    assert namespace["result"].action == "answer"  # as the example's comments say
    assert namespace["result"].items[0].sources == ("t1",)
    assert namespace["consent"].grantee == "sam" and namespace["consent"].tags == ("medication",)


def test_first_two_commands_are_demo_and_test() -> None:
    commands = re.findall(r"^(\./scripts/\w+)", README.read_text(), flags=re.M)
    assert commands[:2] == ["./scripts/demo", "./scripts/test"]
    ci = (README.parent / ".ci" / "run").read_text()
    assert "./scripts/test" in ci
