"""Session memory: a session's turns as transcript windows of bounded length.

A session is the turn's ``session_id`` or, when the source gave none, the calendar
day of its timestamp. Long sessions are cut into windows of ``window`` turns so
each object stays a retrievable size; windows are formed in ingest order, so
appending turns changes only the last window.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from govmem.designs.base import latest_timestamp
from govmem.models import ObjectDraft, StoredTurn
from govmem.store.base import Store


def _group_id(episode_id: str, session_id: str) -> str:
    """Length-prefixed, so any characters in either id round-trip."""
    return f"{len(episode_id)}:{episode_id}{session_id}"


def _session_of(group_id: str) -> tuple[str, str]:
    length, rest = group_id.split(":", 1)
    return rest[: int(length)], rest[int(length) :]


def render_line(turn: StoredTurn) -> str:
    return f"{line_prefix(turn)}{turn.turn.text}"


def line_prefix(turn: StoredTurn) -> str:
    """What starts a turn's line in a session window: its timestamp and speaker."""
    stamp = f"[{turn.turn.timestamp}] " if turn.turn.timestamp else ""
    return f"{stamp}{turn.turn.speaker}: "


class SessionDeriver:
    kind = "session"
    verbatim = True  # objects are rendered from their source texts, so can be redacted

    def __init__(self, window: int = 12):
        if window < 1:
            raise ValueError("a session window holds at least one turn")
        self.window = window

    def groups_of(self, turns: Iterable[StoredTurn]) -> set[str]:
        return {_group_id(t.turn.episode_id, t.session_id) for t in turns}

    def members(
        self, store: Store, group_ids: set[str], known: Mapping[int, StoredTurn]
    ) -> dict[str, list[StoredTurn]]:
        sessions = [_session_of(g) for g in group_ids]
        keys = store.turn_keys_in_sessions(sessions)
        missing = [k for k in keys if k not in known]
        loaded = {t.turn_key: t for t in store.turns_by_keys(missing)} if missing else {}
        groups: dict[str, list[StoredTurn]] = {g: [] for g in sorted(group_ids)}
        for key in keys:
            turn = known.get(key) or loaded[key]
            groups[_group_id(turn.turn.episode_id, turn.session_id)].append(turn)
        return groups

    def without_empty_lines(
        self, text: str, turns: Sequence[StoredTurn], window: Sequence[StoredTurn] = ()
    ) -> tuple[str, set[int]]:
        """``text`` without the lines of ``turns`` that hold nothing after their prefix
        (every word of the turn cut on a read), and the keys of those turns. A turn
        whose text runs over several lines keeps its prefix while any of them holds
        something: what follows a prefix up to the next turn's prefix (``window``: the
        window's other turns) is that turn's."""
        lines = text.split("\n")
        starts = {line_prefix(t).rstrip() for t in window} | {line_prefix(t).rstrip() for t in turns}
        dropped: set[int] = set()
        for turn in turns:
            prefix = line_prefix(turn).rstrip()
            for index, line in enumerate(lines):
                if line.strip() != prefix:
                    continue
                end = index + 1
                while end < len(lines) and not any(lines[end].startswith(s) for s in starts):
                    end += 1
                if all(not rest.strip() for rest in lines[index + 1 : end]):
                    del lines[index:end]
                    dropped.add(turn.turn_key)
                break
        return "\n".join(lines), dropped

    def segments(self, text: str, turns: Sequence[StoredTurn]) -> dict[int, tuple[int, int]]:
        """Where each turn's text is in a window's ``text`` (turns in window order; a turn
        whose line is not there, because a read hid it, is left out): from after its line
        prefix to the next line that starts another turn's prefix."""
        starts: list[tuple[int, int, int]] = []  # (line start, text start, turn key)
        at = 0
        for turn in turns:
            prefix = line_prefix(turn)
            index = text.find(prefix, at)
            while index > 0 and text[index - 1] != "\n":
                index = text.find(prefix, index + 1)
            if index < 0:
                continue
            starts.append((index, index + len(prefix), turn.turn_key))
            at = index + len(prefix)
        found = {}
        for n, (_, begin, key) in enumerate(starts):
            end = starts[n + 1][0] - 1 if n + 1 < len(starts) else len(text)
            found[key] = (begin, max(begin, end))
        return found

    def derive(self, group_id: str, turns: Sequence[StoredTurn]) -> list[ObjectDraft]:
        drafts = []
        for start in range(0, len(turns), self.window):
            window = turns[start : start + self.window]
            drafts.append(
                ObjectDraft(
                    kind=self.kind,
                    group_id=group_id,
                    episode_id=window[0].turn.episode_id,
                    text="\n".join(render_line(t) for t in window),
                    source_keys=tuple(t.turn_key for t in window),
                    observed_at=latest_timestamp(window),
                    embed_text=False,
                )
            )
        return drafts
