"""A small episode for the forgetting tests: a secret, its trail, look-alikes and filler.

Ana discloses a pregnancy; Dr. Okafor confirmed it. Dr. Okafor works at the Lindell
Women's Clinic, which is on Quarry Road; "Dropped by Quarry Road again" shares no word
with the request and is reached only through the clinic (two hops). Jonas's sister is
pregnant (a look-alike of another speaker). The filler is varied everyday talk.
"""

from __future__ import annotations

from govmem import Memory, Turn
from govmem.governance import OpenAccess

EPISODE = "ep"
DISCLOSURE = "t020"
CHAIN = ("t031", "t047", "t063")  # Okafor at Lindell; Lindell on Quarry Road; Quarry Road visit
FILLER = (
    "Can you add oat milk and batteries to the list?",
    "The train was late again this morning.",
    "Remind me to call the garage about the brakes.",
    "The team lunch moved to Thursday.",
    "It's raining, so the football is off.",
    "I finished the quarterly report at last.",
    "The printer upstairs is jammed again.",
    "Book a table for four on Saturday evening.",
    "My laptop battery is dying fast these days.",
    "We should repaint the hallway in spring.",
    "The new neighbours have a very loud dog.",
    "Send the invoice to accounts before Friday.",
)
SPECIAL = {
    "t012": ("jonas", "My sister is pregnant with twins, can you believe it."),
    DISCLOSURE: ("ana", "Between us: I'm pregnant. Dr. Okafor confirmed it this week."),
    "t031": ("ana", "Dr. Okafor works at the Lindell Women's Clinic these days."),
    "t047": ("jonas", "The Lindell Women's Clinic is the glass building on Quarry Road."),
    "t063": ("ana", "Dropped by Quarry Road again this morning, same time next week."),
    "t070": ("jonas", "Quarterly targets are due, the board meets on Monday."),
}


def turns(count: int = 80) -> list[Turn]:
    made = []
    for n in range(1, count + 1):
        turn_id = f"t{n:03d}"
        speaker, text = SPECIAL.get(turn_id, ("ana" if n % 2 else "jonas", FILLER[n % len(FILLER)]))
        day = 1 + n // 20
        made.append(Turn(turn_id, speaker, text, EPISODE, timestamp=f"2026-03-{day:02d}T10:{n % 60:02d}:00Z"))
    return made


def store(path: str = ":memory:", designs: tuple[str, ...] = ("turn",)) -> Memory:
    memory = Memory(path, designs=list(designs), authorizer=OpenAccess(), interpreter=None)
    memory.add_principal("ana", "user", "Ana Ruiz")
    memory.add_principal("jonas", "user", "Jonas Berg")
    memory.ingest_many(turns())
    return memory
