"""Unrelated current policies for the revocation benchmark's benign-cost store.

Seeded and deterministic. Each policy governs a subject of its own (a qualifier
and a system, never repeated), under its own document code, in wording drawn
from templates that use the same modal verbs, negations and numbers as real
policies: exactly the features the supersession detector reacts to, so a
detector that fires on wording rather than on a shared subject withholds current
records here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

QUALIFIERS = (
    "Northern", "Harbor", "Legacy", "Quarterly", "Regional", "Mobile", "Partner", "Vendor", "Research",
    "Payroll", "Student", "Guest", "Field", "Clinical", "Retail", "Marine", "Airport", "Library",
    "Kitchen", "Pharmacy", "Laboratory", "Warehouse", "Theatre", "Museum", "Transit", "Archive",
    "Greenhouse", "Studio", "Campus", "Customs", "Dental", "Veterinary", "Hangar", "Bakery", "Chapel",
    "Observatory", "Stadium", "Quarry", "Vineyard", "Foundry",
)  # fmt: skip
SYSTEMS = (
    "Badge Printer", "Loading Dock", "Parking Garage", "Shuttle Fleet", "Print Queue", "Locker Room",
    "Mail Room", "Recycling Program", "Coffee Machine", "Conference Bridge", "Key Cabinet", "Bike Rack",
    "Radio Channel", "Camera Network", "Fire Door", "Elevator Bank", "Guest Wi-Fi", "Ticket Desk",
    "Sample Freezer", "Tool Crib", "Uniform Store", "Lost Property Office", "Noticeboard", "Water Tank",
    "Solar Array", "Backup Generator", "Boiler Room", "Courier Service", "Translation Service", "Newsletter",
)  # fmt: skip
RULES = (
    "{s} may be used by contractors after a safety briefing.",
    "{s} must be inspected every {n} days by the facilities team.",
    "{s} is never to be left unattended during opening hours.",
    "Access to {s} requires a signed log entry and a supervisor's initials.",
    "{s} opens at {h}:00 AM and closes at {h2}:00 PM on weekdays.",
    "Requests for {s} are answered within {n} business days.",
    "Staff are not permitted to store personal items in {s}.",
    "{s} reservations are capped at {n} hours per team per week.",
    "Only trained staff may operate {s}; visitors may watch from the marked line.",
    "{s} faults are reported to the duty manager, who logs them by noon.",
    "Spending on {s} above ${m} needs a second signature.",
    "{s} is cleaned on {d} mornings and restocked on {d2} afternoons.",
    "Keys for {s} are issued for {n} weeks at most and returned to reception.",
    "{s} must not be used for storing hazardous materials.",
    "Photographs of {s} may be shared internally but not posted publicly.",
)  # fmt: skip
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
DOCUMENT_KINDS = ("Standard", "Procedure", "Notice", "Guideline", "Runbook")


MAX_BENIGN = len(QUALIFIERS) * len(SYSTEMS)
"""How many unrelated policies can be generated (one subject each)."""


@dataclass(frozen=True)
class BenignPolicy:
    document: str
    subject: str
    text: str


def benign_policies(count: int = 1000, seed: int = 7) -> list[BenignPolicy]:
    """``count`` policies, each on a subject of its own (at most len(QUALIFIERS) x len(SYSTEMS))."""
    subjects = [f"the {q} {s}" for q in QUALIFIERS for s in SYSTEMS]
    if count > len(subjects):
        raise ValueError(f"at most {len(subjects)} unrelated policies can be generated, asked for {count}")
    rng = random.Random(seed)
    rng.shuffle(subjects)
    policies = []
    for index, subject in enumerate(subjects[:count]):
        template = rng.choice(RULES)
        day, day2 = rng.sample(DAYS, 2)
        text = template.format(
            s=subject,
            n=rng.randint(2, 30),
            h=rng.randint(6, 10),
            h2=rng.randint(4, 9),
            m=rng.choice((500, 1000, 2500, 5000, 20000)),
            d=day,
            d2=day2,
        )
        text = text[0].upper() + text[1:]
        code = f"{rng.choice(DOCUMENT_KINDS)} GEN-{index + 1:04d}"
        policies.append(BenignPolicy(code, subject, text))
    return policies
