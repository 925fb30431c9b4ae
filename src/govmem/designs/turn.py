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
        keys = sorted(int(g) for g in group_ids)
        missing = [key for key in keys if key not in known]
        found = {t.turn_key: t for t in store.turns_by_keys(missing)} if missing else {}
        turns = [known.get(key) or found.get(key) for key in keys]
        return {str(key): [] if turn is None else [turn] for key, turn in zip(keys, turns, strict=True)}

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
