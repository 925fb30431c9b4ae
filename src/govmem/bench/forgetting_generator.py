"""A seeded generator of forgetting-benchmark data sets (``govmem bench forgetting generate``).

Each episode is a household or team sharing one assistant: a few principals, many
sessions on different days, and ordinary chatter (errands, meals, meetings,
reminders) around the turns of its protected facts. For every fact the generator

1. draws a family of :mod:`~govmem.bench.forgetting_scenarios` (the four derivation
   types in turn) with fresh names, places and firms;
2. places the disclosure, then every evidence turn in a session other than the
   disclosure's and at least ``gap`` turns away from it, each evidence turn in a
   session of its own where the episode has enough, in link order when the family
   says order matters; then the look-alikes anywhere;
3. derives the minimal sufficient sets from the routes (one turn per link) and checks
   them with :func:`~govmem.bench.forgetting_data.minimal_set_problems`, and checks
   that no evidence turn contains the secret or the right option.

The same seed gives the same bytes. Nothing depends on the clock or the machine.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from govmem.bench.forgetting_data import DERIVATIONS, EPISODES, FACTS, minimal_set_problems
from govmem.bench.forgetting_scenarios import (
    ASSISTANT,
    FAMILIES,
    OTHER,
    OWNER,
    Cast,
    FactDraft,
    Line,
    route_sets,
)
from govmem.bench.forgetting_vocab import (
    ACTIVITIES,
    ASSISTANT_REPLIES,
    CAFES,
    CHORES,
    FILLER,
    FILLER_TAILS,
    FIRM_KINDS,
    FIRM_PARTS,
    FIRST_NAMES,
    FOODS,
    ITEMS,
    MONTHS,
    SHOWS,
    STREET_NAMES,
    STREET_TYPES,
    SURNAMES,
    TIMES,
    WEATHER,
    WEEKDAYS,
    WORK_THINGS,
)
from govmem.errors import InputError

MIN_TURNS_PER_FACT = 40
"""An episode needs room for filler between the turns of its facts."""


@dataclass(frozen=True)
class GeneratorSettings:
    episodes: int = 10
    turns_per_episode: int = 1500
    facts_per_episode: int = 10
    seed: int = 0

    def check(self) -> None:
        if self.episodes < 1 or self.facts_per_episode < 1:
            raise InputError("episodes and facts per episode must be at least 1")
        if self.turns_per_episode < MIN_TURNS_PER_FACT * self.facts_per_episode:
            raise InputError(
                f"{self.facts_per_episode} facts need at least "
                f"{MIN_TURNS_PER_FACT * self.facts_per_episode} turns per episode"
            )


@dataclass
class Slot:
    session: int
    timestamp: str
    speaker: str
    text: str | None = None


@dataclass
class Skeleton:
    sessions: list[tuple[str, str]]
    """(session id, started at)."""
    slots: list[Slot]
    humans: list[str]
    session_people: list[list[str]] = field(default_factory=list)


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def skeleton(rng: random.Random, turns: int, humans: list[str]) -> Skeleton:
    """Sessions of 15-70 turns on different days, each with one or two of the humans."""
    moment = datetime(2026, 1, 5) + timedelta(days=rng.randrange(300))
    sessions: list[tuple[str, str]] = []
    slots: list[Slot] = []
    people: list[list[str]] = []
    while len(slots) < turns:
        size = min(rng.randint(15, 70), turns - len(slots))
        moment = (moment + timedelta(days=rng.randint(1, 3))).replace(
            hour=rng.randint(7, 20), minute=rng.randrange(60), second=rng.randrange(60)
        )
        session_id = f"s{len(sessions) + 1:03d}"
        sessions.append((session_id, _iso(moment)))
        present = rng.sample(humans, min(len(humans), rng.choice((1, 1, 2))))
        people.append(present)
        for i in range(size):
            moment += timedelta(seconds=rng.randint(15, 150))
            speaker = ASSISTANT if i % 2 else rng.choice(present)
            slots.append(Slot(len(sessions) - 1, _iso(moment), speaker))
    return Skeleton(sessions, slots, humans, people)


def filler_text(rng: random.Random, speaker: str, people: list[str]) -> str:
    """One ordinary turn; a human's is sometimes two remarks, or a remark and a shrug."""
    text = _filler_once(rng, speaker, people)
    if speaker != ASSISTANT:
        roll = rng.random()
        if roll < 0.3:
            text += " " + _filler_once(rng, speaker, people)
        elif roll < 0.45:
            text += " " + rng.choice(FILLER_TAILS)
    return text


def _filler_once(rng: random.Random, speaker: str, people: list[str]) -> str:
    template = rng.choice(ASSISTANT_REPLIES if speaker == ASSISTANT else FILLER)
    weekday, weekday2 = rng.sample(WEEKDAYS, 2)
    time, time2 = sorted(rng.sample(TIMES, 2))
    item, item2 = rng.sample(ITEMS, 2)
    others = [p for p in people if p != speaker] or [rng.choice(FIRST_NAMES)]
    return template.format(
        item=item,
        item2=item2,
        chore=rng.choice(CHORES),
        weather=rng.choice(WEATHER),
        food=rng.choice(FOODS),
        person=rng.choice((*others, rng.choice(FIRST_NAMES), f"Dr. {rng.choice(SURNAMES)}")),
        work=rng.choice(WORK_THINGS),
        show=rng.choice(SHOWS),
        activity=rng.choice(ACTIVITIES),
        weekday=weekday,
        weekday2=weekday2,
        time=time,
        time2=time2,
        cafe=rng.choice(CAFES),
        month=rng.choice(MONTHS),
        firm=f"{rng.choice(FIRM_PARTS)} {rng.choice(FIRM_KINDS)}",
        street=f"{rng.choice(STREET_NAMES)} {rng.choice(STREET_TYPES)}",
        price=f"{rng.randint(12, 2400):,}",
    )


class Placement:
    """Free turn positions of one episode, and choices among them."""

    def __init__(self, rng: random.Random, sk: Skeleton):
        self.rng = rng
        self.sk = sk
        self.free = set(range(len(sk.slots)))

    def take(self, position: int, speaker: str, text: str) -> int:
        self.free.discard(position)
        slot = self.sk.slots[position]
        slot.speaker, slot.text = speaker, text
        return position

    def disclosure_position(self) -> int:
        n = len(self.sk.slots)
        band = [p for p in self.free if n // 10 <= p < n - n // 10]
        return self.rng.choice(sorted(band or self.free))

    def evidence_positions(self, count: int, away_from: int, gap: int) -> list[int]:
        """``count`` free positions far from ``away_from``, in as many sessions as possible."""
        banned_session = self.sk.slots[away_from].session
        allowed = sorted(
            p for p in self.free if abs(p - away_from) >= gap and self.sk.slots[p].session != banned_session
        ) or sorted(self.free - {away_from})
        by_session: dict[int, list[int]] = {}
        for p in allowed:
            by_session.setdefault(self.sk.slots[p].session, []).append(p)
        sessions = list(by_session)
        self.rng.shuffle(sessions)
        chosen: list[int] = []
        while len(chosen) < count:
            progressed = False
            for session in sessions:
                left = [p for p in by_session[session] if p not in chosen]
                if left and len(chosen) < count:
                    chosen.append(self.rng.choice(left))
                    progressed = True
            if not progressed:
                raise InputError("episode too short for its facts: raise --turns-per-episode")
        return chosen

    def any_positions(self, count: int) -> list[int]:
        return self.rng.sample(sorted(self.free), count)


def speaker_for(rng: random.Random, line: Line, owner: str, humans: list[str]) -> str:
    if line.speaker == OWNER:
        return owner
    if line.speaker == ASSISTANT:
        return ASSISTANT
    others = [h for h in humans if h != owner]
    return rng.choice(others) if others and line.speaker == OTHER else owner


def place_fact(
    rng: random.Random, placement: Placement, draft: FactDraft, owner: str, humans: list[str], gap: int
) -> dict[str, Any]:
    """Place a draft's turns; returns the positions of each part (ids are given later)."""
    disclosure = [
        placement.take(placement.disclosure_position(), owner, line.text) for line in draft.disclosure
    ]
    unique: list[Line] = []
    link_of: dict[int, int] = {}
    for route in draft.routes:
        for index, link in enumerate(route):
            for line in link:
                if id(line) not in link_of:
                    unique.append(line)
                    link_of[id(line)] = index
    positions = placement.evidence_positions(len(unique), disclosure[0], gap)
    if draft.ordered:  # earlier links first: a state is described before its change
        positions.sort()
        unique.sort(key=lambda line: link_of[id(line)])
    else:
        rng.shuffle(positions)
    where = {}
    for line, position in zip(unique, positions, strict=True):
        where[id(line)] = placement.take(position, speaker_for(rng, line, owner, humans), line.text)
    sets = route_sets([[[where[id(line)] for line in link] for link in route] for route in draft.routes])
    looks = [
        placement.take(p, speaker_for(rng, line, owner, humans), line.text)
        for p, line in zip(placement.any_positions(len(draft.lookalikes)), draft.lookalikes, strict=True)
    ]
    return {"disclosure": disclosure, "evidence": sorted(where.values()), "sets": sets, "lookalikes": looks}


def fact_record(
    draft: FactDraft,
    fact_id: str,
    episode_id: str,
    owner: str,
    ids: list[str],
    where: dict[str, Any],
    rng: random.Random,
) -> dict[str, Any]:
    wrong = [w for w in dict.fromkeys(draft.wrong) if w != draft.answer][:3]
    options = [draft.answer, *wrong]
    rng.shuffle(options)
    sets = [sorted(ids[p] for p in chosen) for chosen in where["sets"]]
    sets.sort(key=lambda s: (len(s), s))
    return {
        "fact_id": fact_id,
        "episode_id": episode_id,
        "owner": owner,
        "secret": draft.secret,
        "derivation": draft.derivation,
        "disclosure_turns": [ids[p] for p in where["disclosure"]],
        "evidence_turns": [ids[p] for p in where["evidence"]],
        "minimal_sufficient_sets": sets,
        "lookalike_turns": sorted(ids[p] for p in where["lookalikes"]),
        "deletion_request": {"speaker": owner, "text": draft.request},
        "question": {"text": draft.question, "options": options, "answer_index": options.index(draft.answer)},
    }


def check_fact(fact: dict[str, Any], text_of: dict[str, str]) -> None:
    """The generator's own guarantees, checked on every fact it writes."""
    problems = minimal_set_problems(
        [frozenset(s) for s in fact["minimal_sufficient_sets"]], fact["evidence_turns"]
    )
    secret = fact["secret"].lower()
    answer = fact["question"]["options"][fact["question"]["answer_index"]].lower()
    for turn_id in fact["evidence_turns"]:
        text = text_of[turn_id].lower()
        if secret in text or re.search(rf"(?<!\w){re.escape(answer)}(?!\w)", text):
            problems.append(f"evidence turn {turn_id} states the secret: {text!r} ({secret!r} / {answer!r})")
    if len(set(fact["question"]["options"])) != len(fact["question"]["options"]):
        problems.append("question options repeat")
    if problems:
        raise AssertionError(f"generator bug in {fact['fact_id']}: {problems[0]}")


def generate_episode(rng: random.Random, number: int, settings: GeneratorSettings) -> tuple[dict, list[dict]]:
    episode_id = f"ep{number:02d}"
    surnames = rng.sample(SURNAMES, 4)
    firsts = rng.sample(FIRST_NAMES, rng.randint(3, 4))
    humans = [name.lower() for name in firsts]
    principals = [
        {"principal_id": name.lower(), "role": "user", "display_name": f"{name} {surnames[i]}"}
        for i, name in enumerate(firsts)
    ]
    principals.append({"principal_id": ASSISTANT, "role": "assistant", "display_name": "Assistant"})
    sk = skeleton(rng, settings.turns_per_episode, humans)
    placement = Placement(rng, sk)
    gap = max(10, settings.turns_per_episode // 15)
    used: set[str] = set(firsts)
    drafts = []
    for index in range(settings.facts_per_episode):
        derivation = DERIVATIONS[(number + index) % len(DERIVATIONS)]
        owner = rng.choice(firsts)
        cast = Cast(rng, owner, [f for f in firsts if f != owner], used)
        draft = rng.choice(FAMILIES[derivation])(rng, cast)
        drafts.append((owner.lower(), draft, place_fact(rng, placement, draft, owner.lower(), humans, gap)))
    ids = [f"{episode_id}.t{i + 1:05d}" for i in range(len(sk.slots))]
    turns = []
    for i, slot in enumerate(sk.slots):
        text = slot.text or filler_text(rng, slot.speaker, sk.session_people[slot.session])
        turns.append(
            {
                "turn_id": ids[i],
                "session_id": sk.sessions[slot.session][0],
                "timestamp": slot.timestamp,
                "speaker": slot.speaker,
                "text": text,
            }
        )
    text_of = {t["turn_id"]: t["text"] for t in turns}
    facts = []
    for index, (owner, draft, where) in enumerate(drafts):
        fact = fact_record(draft, f"{episode_id}.f{index + 1:03d}", episode_id, owner, ids, where, rng)
        check_fact(fact, text_of)
        facts.append(fact)
    episode = {
        "episode_id": episode_id,
        "principals": principals,
        "sessions": [{"session_id": s, "started_at": started} for s, started in sk.sessions],
        "turns": turns,
    }
    return episode, facts


def generate(
    out: str | Path,
    settings: GeneratorSettings,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write ``out/episodes.jsonl`` and ``out/facts.jsonl``; returns counts for a summary.

    ``progress(n)`` is called after each episode with the number of turns written.
    """
    settings.check()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(settings.seed)
    counts = {"episodes": 0, "turns": 0, "facts": 0, "by_derivation": dict.fromkeys(DERIVATIONS, 0)}
    sets = evidence = 0
    with (
        open(out / EPISODES, "w", encoding="utf-8", newline="\n") as episodes_file,
        open(out / FACTS, "w", encoding="utf-8", newline="\n") as facts_file,
    ):
        for number in range(1, settings.episodes + 1):
            episode, facts = generate_episode(random.Random(rng.getrandbits(64)), number, settings)
            episodes_file.write(json.dumps(episode, ensure_ascii=False) + "\n")
            for fact in facts:
                facts_file.write(json.dumps(fact, ensure_ascii=False) + "\n")
                counts["by_derivation"][fact["derivation"]] += 1
                sets += len(fact["minimal_sufficient_sets"])
                evidence += len(fact["evidence_turns"])
            counts["episodes"] += 1
            counts["turns"] += len(episode["turns"])
            counts["facts"] += len(facts)
            if progress:
                progress(len(episode["turns"]))
    counts["minimal_sets_per_fact"] = round(sets / max(counts["facts"], 1), 2)
    counts["evidence_turns_per_fact"] = round(evidence / max(counts["facts"], 1), 2)
    return counts
