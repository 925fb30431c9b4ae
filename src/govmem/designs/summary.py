"""Summary memory (MemoryBank style): what each session and each day was about,
and a running profile of each principal.

Three sub-types of group, told apart by the prefix of the group id:

- ``session/(episode, session)``: one summary of the session;
- ``day/(episode, date)``: one summary of the calendar day of the timestamps
  (undated turns have no day);
- ``profile/(episode, principal, month)``: the principal's most informative own
  statements in that calendar month ("undated" for undated turns). A month keeps
  the group bounded however long an episode runs.

An object's sources are every turn of its group, not only the sentences it
quotes: which sentences a summary keeps depends on all of them. So deleting any
turn of a group derives the group again from its survivors, and a deleted
turn's words can never outlive it in a summary. Objects are withheld whole
from a requester who may not read all of their sources.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from govmem.designs.base import ProvenanceMembers, group_id_of, latest_timestamp, parts_of
from govmem.designs.writers import ExtractiveSummaryWriter, SummaryWriter
from govmem.models import ObjectDraft, StoredTurn
from govmem.store.base import Store

SESSION, DAY, PROFILE = "session", "day", "profile"


def summary_groups(turn: StoredTurn) -> Iterator[str]:
    """The session, day and profile groups of a turn."""
    episode, stamp = turn.turn.episode_id, turn.turn.timestamp
    yield group_id_of(SESSION, episode, turn.session_id)
    if stamp:
        yield group_id_of(DAY, episode, stamp[:10])
    yield group_id_of(PROFILE, episode, turn.turn.speaker, stamp[:7] if stamp else "undated")


def _dates(turns: Sequence[StoredTurn]) -> str:
    days = sorted({t.turn.timestamp[:10] for t in turns if t.turn.timestamp})
    if not days:
        return "undated"
    return days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"


class SummaryDeriver:
    """Session, day and profile summaries, written by a :class:`SummaryWriter`.

    ``writer`` writes session and day summaries (default: extractive, four
    sentences); ``profile_writer`` writes profiles (default: ``writer`` when one
    is given, else extractive with six sentences).
    """

    kind = "summary"
    verbatim = False  # a summary is withheld whole when any of its sources is denied

    def __init__(self, writer: SummaryWriter | None = None, profile_writer: SummaryWriter | None = None):
        self.writer = writer or ExtractiveSummaryWriter(max_lines=4)
        self.profile_writer = profile_writer or writer or ExtractiveSummaryWriter(max_lines=6)
        self._members = ProvenanceMembers(self.kind, summary_groups)

    def groups_of(self, turns: Iterable[StoredTurn]) -> set[str]:
        return self._members.groups_of(turns)

    def members(
        self, store: Store, group_ids: set[str], known: Mapping[int, StoredTurn]
    ) -> dict[str, list[StoredTurn]]:
        return self._members.members(store, group_ids, known)

    def derive(self, group_id: str, turns: Sequence[StoredTurn]) -> list[ObjectDraft]:
        if not turns:
            return []
        prefix, parts = parts_of(group_id)
        lines = [f"{t.turn.speaker}: {t.turn.text}" for t in turns]
        sources = tuple(t.turn_key for t in turns)
        if prefix == SESSION:
            text = self.writer.summarize(f"Summary of session {parts[1]} ({_dates(turns)}):", lines, sources)
        elif prefix == DAY:
            text = self.writer.summarize(f"Summary of {parts[1]} in {parts[0]}:", lines, sources)
        else:
            text = self.profile_writer.summarize(f"Profile of {parts[1]}, {parts[2]}:", lines, sources)
        return [
            ObjectDraft(
                kind=self.kind,
                group_id=group_id,
                episode_id=turns[0].turn.episode_id,
                text=text,
                source_keys=sources,
                observed_at=latest_timestamp(turns),
                embed_text=True,
            )
        ]
