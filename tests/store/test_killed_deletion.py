"""A deletion killed mid-way (SIGKILL) leaves the store as it was, or as it is once
the deletion is done; never a half-deleted closure.

Slow-ish (about 10 s, most of it starting child processes): a store of 2,000 turns
(turn and session designs) is copied once per attempt; a child process opens the copy
and runs ``Memory.delete_turns`` over 1,000 turns or ``Memory.forget`` over several
hundred, and is killed:

- at a chosen point inside the write (the child waits there for the kill): after the
  objects are dropped and derived again but before the turns go, after the turns are
  rewritten but before their objects are, and after COMMIT but before the checkpoint;
- after a delay from the start of the write transaction (retried with other delays
  until one kill lands before COMMIT): the kill then falls anywhere, inside SQLite too.

Hooks in the child report how far it got (begin, body done, committed); a kill before
"body done" must leave the store exactly as it was, one after "committed" exactly as
the same deletion run to completion here leaves it. Either way the reopened store must
be whole: integrity check, foreign keys, provenance (every object has sources and they
exist), one vector per object, the full-text index equal to the objects' text.
"""

from __future__ import annotations

import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from govmem import Memory, Principal, Turn

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

EPISODE = "home"
TURNS = 2000
TARGETS = [f"t{i}" for i in range(0, TURNS, 2)]  # every other turn: every session window changes
ITEMS = ["KESTREL1-77", "KESTREL2-77"]  # held by a sixth of the turns, each next to a kept sentence
CHORES = ["garden", "bins", "boiler", "roof", "car"]

CHILD = r"""
import os, sys
from contextlib import contextmanager
from govmem import Memory
from govmem.store.sqlite_engine import SQLiteStore

path, operation, pause, episode = sys.argv[1:5]
targets = sys.argv[5:]


armed = False  # opening the store may write too; only the deletion counts


def mark(word):
    if not armed:
        return
    os.write(1, (word + "\n").encode())
    if word == pause and not os.read(0, 1):  # wait here to be killed
        os._exit(3)


original_transaction = SQLiteStore.transaction


@contextmanager
def transaction(self):
    outermost = not self.db.in_transaction
    with original_transaction(self) as db:
        if outermost:
            mark("begin")
        yield db
        if outermost:
            mark("body-done")  # the full-text index flush and COMMIT are still to come
    if outermost:
        mark("committed")


def traced(name, before, after):
    original = getattr(SQLiteStore, name)

    def method(self, *args, **kwargs):
        mark(before)
        result = original(self, *args, **kwargs)
        mark(after)
        return result

    setattr(SQLiteStore, name, method)


SQLiteStore.transaction = transaction
traced("rewrite_turns", "rewriting-turns", "turns-rewritten")  # their objects not derived again yet
traced("delete_turns", "deleting-turns", "turns-deleted")  # their objects already gone

with Memory(path) as memory:
    # a small page cache spills the open transaction's pages to the log before COMMIT,
    # so a kill leaves uncommitted frames there for recovery to discard
    memory.store.db.execute("PRAGMA cache_size = 16")
    armed = True
    mark("ready")
    if not os.read(0, 1):
        os._exit(3)
    if operation == "delete":
        memory.delete_turns(targets, episode)
    else:
        memory.forget(targets, episode)
    mark("done")
"""


def build(path: Path) -> None:
    turns = []
    for i in range(TURNS):
        text = f"Note {i}: the {CHORES[i % 5]} needs work on day {i % 28}."
        if i % 3 == 0:
            text += f" The locker code is KESTREL{i % 4}-77."
        turns.append(
            Turn(
                f"t{i}",
                ["ana", "bo", "cy"][i % 3],
                text,
                EPISODE,
                f"2026-05-{1 + i // 100:02d}T{(i // 60) % 24:02d}:{i % 60:02d}",
                session_id=f"s{i // 30}",
            )
        )
    with Memory(str(path), designs=["turn", "session"]) as memory:
        memory.add_principals([Principal(p, "member") for p in ("ana", "bo", "cy")])
        memory.ingest_many(turns)


def files_of(path: Path) -> list[Path]:
    return [path.parent / (path.name + suffix) for suffix in ("", "-wal", "-shm")]


def copy_store(source: Path, target: Path) -> Path:
    for src, dst in zip(files_of(source), files_of(target), strict=True):
        if src.exists():
            shutil.copyfile(src, dst)
    return target


# the state of a store, and whether it is whole

VOLATILE = {"recorded_at", "receipt"}  # set from the clock or signed with a per-store random key
PER_STORE_META = {"signing_key", "store_id"}


def state(memory: Memory) -> dict[str, list[tuple]]:
    """Every row of every table (full-text shadow tables included), less the clock and the key."""
    db = memory.store.db
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    dump = {}
    for table in tables:
        if table in ("objects_fts", "objects_vocab"):
            continue  # virtual: their rows are the content and shadow tables'
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")') if r[1] not in VOLATILE]
        rows = db.execute(f'SELECT {", ".join(columns)} FROM "{table}"')
        if table == "meta":
            rows = [(k, v) for k, v in rows if k not in PER_STORE_META]
        dump[table] = sorted(rows, key=repr)
    return dump


def problems(memory: Memory) -> list[str]:
    """What is wrong with the store: integrity, provenance, vectors, full-text index."""
    db = memory.store.db
    found = []
    if (result := db.execute("PRAGMA integrity_check")) != [("ok",)]:
        found.append(f"integrity_check: {result[:5]}")
    if violations := db.execute("PRAGMA foreign_key_check"):
        found.append(f"foreign keys: {violations[:5]}")
    checks = {
        "objects without sources": "SELECT object_key FROM objects "
        "WHERE object_key NOT IN (SELECT object_key FROM object_sources)",
        "sources naming a missing turn": "SELECT object_key, turn_key FROM object_sources "
        "WHERE turn_key NOT IN (SELECT turn_key FROM turns)",
        "sources of a missing object": "SELECT object_key FROM object_sources "
        "WHERE object_key NOT IN (SELECT object_key FROM objects)",
        "objects without a vector": "SELECT object_key FROM objects "
        "WHERE object_key NOT IN (SELECT object_key FROM vectors)",
        "vectors without an object": "SELECT object_key FROM vectors "
        "WHERE object_key NOT IN (SELECT object_key FROM objects)",
        "turns without a turn object": "SELECT turn_key FROM turns WHERE turn_key NOT IN "
        "(SELECT s.turn_key FROM object_sources s JOIN objects o USING (object_key) WHERE o.kind = 'turn')",
        "turns in no session window": "SELECT turn_key FROM turns WHERE turn_key NOT IN "
        "(SELECT s.turn_key FROM object_sources s JOIN objects o USING (object_key) "
        "WHERE o.kind = 'session')",
        "turn objects unlike their turn": "SELECT o.object_key FROM objects o "
        "JOIN object_sources s USING (object_key) JOIN turns t USING (turn_key) "
        "WHERE o.kind = 'turn' AND o.text != t.text",
    }
    for name, sql in checks.items():
        if rows := db.execute(sql):
            found.append(f"{name}: {rows[:5]}")
    try:  # rank 1: the index is also checked against the external content (objects.text)
        db.execute("INSERT INTO objects_fts(objects_fts, rank) VALUES ('integrity-check', 1)")
    except Exception as exc:  # either driver's error type
        found.append(f"full-text integrity-check: {exc}")
    texts = dict(db.execute("SELECT object_key, text FROM objects"))
    for word in [*CHORES, "kestrel1", "locker", "note"]:
        indexed = {
            r[0] for r in db.execute("SELECT rowid FROM objects_fts WHERE objects_fts MATCH ?", (word,))
        }
        holding = {key for key, text in texts.items() if re.search(rf"\b{word}\b", text, re.IGNORECASE)}
        if indexed != holding:
            found.append(f"full-text index for {word!r}: {len(indexed)} rows, {len(holding)} objects")
    return found


def erased_in_files(path: Path) -> list[str]:
    """The forgotten items found in the bytes of the store's files (free pages included)."""
    found = []
    for file in files_of(path):
        data = file.read_bytes() if file.exists() else b""
        found += [
            f"{item} in {file.name}"
            for item in ITEMS
            for form in (item, item.lower())
            if form.encode() in data
        ]
    return found


def inspect(path: Path) -> tuple[dict[str, list[tuple]], list[str], list[str]]:
    """The reopened store's state, what is wrong with it, and the forgotten items in its files
    while it is open."""
    with Memory(str(path)) as memory:
        return state(memory), problems(memory), erased_in_files(path)


# the child


class Child:
    """The deletion in a process of its own, which reports how far it got."""

    def __init__(self, path: Path, operation: str, pause: str = ""):
        targets = TARGETS if operation == "delete" else ITEMS
        self.path = path
        self.stderr = open(path.with_suffix(".stderr"), "w+b")  # noqa: SIM115 - closed in close()
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), operation, pause, EPISODE, *targets],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        )
        self.seen: list[str] = []
        self._buffer = b""

    def wait_for(self, word: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while word not in self.seen:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise AssertionError(f"no {word!r} from the child within {timeout} s: {self.report()}")
                if not self._read():
                    raise AssertionError(f"the child ended before {word!r}: {self.report()}")

    def _read(self) -> bytes:
        chunk = os.read(self.process.stdout.fileno(), 4096)
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        self.seen.extend(line.decode() for line in lines)
        return chunk

    def go(self) -> None:
        self.process.stdin.write(b"g")
        self.process.stdin.flush()

    def kill(self) -> None:
        """SIGKILL, then collect whatever the child reported before it died."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        log = self.path.parent / (self.path.name + "-wal")
        self.log_bytes = log.stat().st_size if log.exists() else 0
        while self._read():
            pass

    def report(self) -> str:
        self.stderr.seek(0)
        return f"seen {self.seen}, stderr: {self.stderr.read().decode(errors='replace')[-2000:]}"

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)
        for stream in (self.process.stdin, self.process.stdout, self.stderr):
            stream.close()


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The store before, and after each deletion run to completion in this process."""
    folder = tmp_path_factory.mktemp("killed")
    original = folder / "original.db"
    build(original)  # closed: one file, no log
    before, found, _ = inspect(original)
    assert found == []
    result: dict[str, object] = {"folder": folder, "original": original, "before": before}
    for operation in ("delete", "forget"):
        path = copy_store(original, folder / f"reference-{operation}.db")
        with Memory(str(path)) as memory:
            start = time.perf_counter()
            if operation == "delete":
                memory.delete_turns(TARGETS, EPISODE)
            else:
                memory.forget(ITEMS, EPISODE)
            result[f"seconds-{operation}"] = time.perf_counter() - start
        after, found, held = inspect(path)
        assert found == []
        assert held == [] or operation == "delete"  # the odd turns that hold them stay
        assert after["turns"] != before["turns"]
        result[operation] = after
    return result


def outcome(stores: dict, path: Path, operation: str, child: Child) -> str:
    """'rolled back' or 'done', checked against what the child reported; the store is whole."""
    after, found, held = inspect(path)
    assert found == [], f"{operation} killed after {child.seen[-1]!r}: {found}"
    if after == stores["before"]:
        result = "rolled back"
    elif after == stores[operation]:
        result = "done"
    else:
        changed = [t for t in after if after[t] != stores["before"].get(t)]
        unfinished = [t for t in after if after[t] != stores[operation].get(t)]
        raise AssertionError(
            f"{operation} killed after {child.seen[-1]!r} left a third state: tables {changed} "
            f"differ from before and {unfinished} from done"
        )
    if "body-done" not in child.seen:
        assert result == "rolled back", child.seen
    if "committed" in child.seen:
        assert result == "done", child.seen
    if operation == "forget" and result == "done":
        # killed before its checkpoint: reopening the store empties the log of the old pages
        assert held == [], held
    return result


def test_a_killed_deletion_rolls_back_or_is_done_never_half(stores: dict) -> None:
    folder, original = stores["folder"], stores["original"]
    paused = [("delete", "deleting-turns"), ("forget", "turns-rewritten"), ("forget", "committed")]
    timed = ["delete", "forget"]
    children: dict[str, Child] = {}

    def start(name: str, operation: str, pause: str = "") -> Child:
        path = copy_store(original, folder / f"{name}.db")
        children[name] = child = Child(path, operation, pause)
        return child

    try:
        # every child imports and opens its store at once; each then waits for "go"
        for operation, pause in paused:
            start(f"{operation}-at-{pause}", operation, pause)
        for operation in timed:
            start(f"{operation}-timed-0", operation)

        outcomes = {}
        for operation, pause in paused:
            name = f"{operation}-at-{pause}"
            child = children[name]
            child.wait_for("ready")
            child.go()
            child.wait_for(pause)
            child.kill()
            outcomes[name] = outcome(stores, folder / f"{name}.db", operation, child)
        assert outcomes == {
            "delete-at-deleting-turns": "rolled back",
            "forget-at-turns-rewritten": "rolled back",
            "forget-at-committed": "done",
        }
        # the log held frames of the unfinished transaction, which recovery discarded
        assert children["delete-at-deleting-turns"].log_bytes > 0

        for operation in timed:
            # a kill after a share of the deletion's time here; the child is no faster, so
            # the first usually lands before COMMIT; later tries kill sooner
            for attempt, share in enumerate((0.4, 0.1, 0.0)):
                name = f"{operation}-timed-{attempt}"
                child = children.get(name) or start(name, operation)
                child.wait_for("ready")
                child.go()
                child.wait_for("begin")
                time.sleep(share * stores[f"seconds-{operation}"])
                child.kill()
                result = outcome(stores, folder / f"{name}.db", operation, child)
                if "body-done" not in child.seen:  # landed inside the write transaction
                    assert result == "rolled back"
                    break
            else:
                raise AssertionError(f"no kill of {operation} landed inside the write transaction")
    finally:
        for child in children.values():
            child.close()


def test_the_consistency_check_sees_a_half_deleted_closure(stores: dict) -> None:
    """The checks above are not vacuous: a closure cut short by hand is caught."""
    path = copy_store(stores["original"], stores["folder"] / "broken.db")
    with Memory(str(path)) as memory:
        db = memory.store.db
        db.execute("PRAGMA foreign_keys = OFF")
        with memory.store.transaction():
            doomed = [k for (k,) in db.execute("SELECT turn_key FROM turns WHERE turn_id = 't4'")]
            db.execute("DELETE FROM turns WHERE turn_key = ?", doomed)  # its objects stay
            db.execute("DELETE FROM vectors WHERE object_key = (SELECT max(object_key) FROM objects)")
            db.execute("DELETE FROM objects WHERE object_key = 1")  # its index entry stays
        found = problems(memory)
    assert any(p.startswith("sources naming a missing turn") for p in found)
    assert any(p.startswith("objects without a vector") for p in found)
    assert any(p.startswith("sources of a missing object") for p in found)
    assert any(p.startswith("full-text") for p in found)
