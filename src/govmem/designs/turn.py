"""Turn memory: one object per source turn, its text verbatim."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from govmem.models import ObjectDraft, StoredTurn
from govmem.store.base import Store


class TurnDeriver:
    kind = "turn"
    verbatim = True  # objects are rendered from their source texts, so can be redacted

    def groups_of(self, turns: Iterable[StoredTurn]) -> set[str]:
        return {str(t.turn_key) for t in turns}

    def members(
        self, store: Store, group_ids: set[str], known: Mapping[int, StoredTurn]
    ) -> dict[str, list[StoredTurn]]:
        keys = {int(g) for g in group_ids}
        missing = keys - known.keys()
        found = {t.turn_key: t for t in store.turns_by_keys(missing)} if missing else {}
        groups: dict[str, list[StoredTurn]] = {str(key): [] for key in sorted(keys)}
        for key in sorted(keys):
            turn = known.get(key) or found.get(key)
            if turn is not None:
                groups[str(key)].append(turn)
        return groups

    def derive(self, group_id: str, turns: Sequence[StoredTurn]) -> list[ObjectDraft]:
        return [
            ObjectDraft(
                kind=self.kind,
                group_id=group_id,
                episode_id=t.turn.episode_id,
                text=t.turn.text,
                source_keys=(t.turn_key,),
                observed_at=t.turn.timestamp,
                embed_text=False,
            )
            for t in turns
        ]
