"""Deterministic synthetic conversation turns and questions for benchmarks.

The generator stands in for real transcripts when measuring ingestion, storage
and retrieval at scale (up to millions of turns). Texts are short utterances of
10-30 words drawn from templates over four domains (clinic, office, school,
household), filled from pools of names, places, times, numbers, drugs and
projects, so that embeddings are varied and near-duplicates are rare. The same
seed always yields the same turns; nothing here is meant to be realistic beyond
giving vector indexes and lexical search a plausible workload.

Layout of the output:

* episodes of about 200 turns, ``episode_id`` ``"syn-000123"``;
* ``turn_id`` ``"t0001"``, ``"t0002"``... restarting in each episode;
* ``session_id`` ``"syn-000123-s01"`` for each block of ``turns_per_session`` turns;
* ``timestamp`` non-decreasing within an episode (``"2026-03-09T08:00"``), one
  calendar day per session;
* ``speaker`` from a pool of 50 principal ids ``"p000"``..``"p049"``, with a
  cast of two to four speakers per episode.

Options for governed benchmarks (each leaves the default output unchanged):
``names`` replaces the pool of first names that texts mention (so texts can name
the store's principals by display name), ``domains`` restricts episodes to some
domains, and ``synthetic_queries(templates=...)`` asks other questions.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, timedelta
from functools import lru_cache

from govmem.models import Turn

__all__ = ["DOMAINS", "PRINCIPALS", "synthetic_queries", "synthetic_turns"]

EPISODE_TURNS = 200
EPISODE_JITTER = 20
BASE_DATE = date(2026, 3, 9)
DAY_START_MINUTE = 8 * 60

PRINCIPALS: tuple[str, ...] = tuple(f"p{i:03d}" for i in range(50))


def _pool(text: str, sep: str | None = None) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(sep) if item.strip())


FIRST_NAMES = _pool("""
Maria James Aisha Chen Olu Priya Lukas Sofia Mateo Yuki Amara Noah Fatima Liam
Ingrid Rafael Mei Omar Chloe Dmitri Zanele Hugo Leila Tomas Nadia Kwame Elena
Ravi Grace Pablo Hana Felix Ayesha Bruno Lina Arjun Clara Samuel Ines Kofi
Yara Erik Lucia Hamza Emma Diego Keiko Jonas Nia Viktor Rosa Idris Freya
Marco Zara Oscar Anya Tariq Julia Kenji Alma Sven Beatriz Malik Ada Leon
Nomvula Pietro Sana Caleb Irene Mohammed Greta Andre Laila Theo Carmen Babajide
Astrid Luis Noor Henrik Maya Rohan Elif Jakub Wanjiru Tobias Salma Ivan Paloma
Daniel Chiara Youssef Lea Kai Miriam Adrian Thandiwe Nikolai Ana Sami Olivia
Gustavo Esther Ming Ruth Farid Isla Emeka Vera Santiago Hui Patrick Dalia
""")

SURNAMES = _pool("""
Okafor Nguyen Schmidt Haddad Rossi Tanaka Kowalski Mensah Garcia Johansson
Patel Dubois Silva Kim Novak Adeyemi Moreau Costa Ivanova Lindqvist Mahlangu
Fischer Romero Sato Osei Bianchi Kaplan Haugen Mbeki Alvarez Petrov Nakamura
Brennan Yilmaz Castillo Andersen Chowdhury Ferreira Walsh Abubakar Morales
Lehmann Suzuki Kariuki Rahman Ortiz Varga Gallagher Ekström Obi Delgado
""")

DRUGS = _pool("""
metformin lisinopril amoxicillin atorvastatin omeprazole levothyroxine
amlodipine sertraline ibuprofen paracetamol prednisone warfarin insulin
salbutamol gabapentin losartan citalopram furosemide doxycycline azithromycin
cetirizine montelukast pantoprazole simvastatin tramadol apixaban bisoprolol
ramipril clopidogrel fluoxetine methotrexate hydrochlorothiazide naproxen
ciprofloxacin lamotrigine quetiapine tamsulosin allopurinol spironolactone
""")

PROJECTS = _pool("""
Falcon Aurora Bluebird Cobalt Meridian Juniper Orion Halcyon Tidewater Quartz
Redwood Nimbus Sapphire Lantern Keystone Harbor Zephyr Monarch Granite Willow
Beacon Cascade Ember Polaris Summit Atlas Kestrel Mosaic Northstar Pioneer
Riverbend Solstice Tundra Vanguard Yarrow Catalyst Driftwood Evergreen Fjord
""")

CITIES = _pool("""
Porto Kraków Accra Osaka Leeds Nairobi Lyon Austin Valencia Gothenburg Durban
Montreal Bologna Pune Tallinn Cork
""")

CONDITIONS = _pool(
    """hypertension | type 2 diabetes | asthma | a chest infection | migraines | back pain
    | high cholesterol | an ear infection | anxiety | eczema | a sprained ankle
    | atrial fibrillation | reflux | a thyroid problem | insomnia | gout | a urinary infection
    | seasonal allergies | sciatica | low iron""",
    "|",
)

CLINIC_PLACES = _pool(
    """exam room 3 | the east wing | the pharmacy counter | radiology | the physiotherapy suite
    | ward 7 | the walk-in clinic | the lab on level 2 | the cardiology unit | the front desk
    | outpatient bay B | the dental annex""",
    "|",
)

OFFICE_PLACES = _pool(
    """the Atlas meeting room | the third floor kitchen | the Lisbon office | the boardroom
    | the Berlin hub | room 4.12 | the open plan area | the Nairobi office | the Toronto site
    | the client site in Leeds | the Osaka office | the quiet room""",
    "|",
)

SCHOOL_PLACES = _pool(
    """the science lab | the gym | room 14 | the library | the music room | the art studio
    | the main hall | the playground | the computer lab | the staff room | portable 2
    | the cafeteria""",
    "|",
)

HOME_PLACES = _pool(
    """the garage | the kitchen | the upstairs bathroom | the garden shed | the spare bedroom
    | the hallway | the basement | the attic | the balcony | the laundry room | the driveway
    | the back porch""",
    "|",
)

OFFICE_TOPICS = _pool(
    """the quarterly budget | the vendor contract | the onboarding plan | the security review
    | the hiring pipeline | the release checklist | the customer escalation
    | the migration runbook | the sales forecast | the design review | the audit findings
    | the roadmap draft | the invoice backlog | the API deprecation | the offsite agenda""",
    "|",
)

SUBJECTS = _pool(
    """maths | chemistry | history | biology | French | geography | physics | art | music
    | English literature | Spanish | computer science | economics | PE""",
    "|",
)

SCHOOL_EVENTS = _pool(
    """the science fair | parents evening | the field trip | the spelling bee | sports day
    | the end of term concert | the mock exams | the book week | the robotics club
    | the debate final | the school play""",
    "|",
)

CHORES = _pool(
    """fix the leaking tap | clean the gutters | book the boiler service | renew the car insurance
    | pay the water bill | repaint the fence | sort the recycling
    | replace the smoke alarm battery | mow the lawn | defrost the freezer
    | take the dog to the vet | return the library books | order more printer ink
    | call the electrician | reset the wifi router""",
    "|",
)

FOODS = _pool(
    """lentil soup | roast chicken | vegetable curry | fish tacos | mushroom risotto | lasagne
    | a stir fry | pancakes | shepherd's pie | falafel wraps | tomato pasta | jollof rice""",
    "|",
)

STORES = _pool(
    """the corner shop | the farmers market | the big supermarket | the hardware store
    | the pharmacy | the garden centre | the bakery | the butcher""",
    "|",
)

FREQUENCIES = _pool(
    """once a day | twice a day | three times a day | every morning | at night
    | every eight hours | with meals | as needed | every other day | once a week""",
    "|",
)

GRADES = _pool("an A | a B plus | a B | a C | a distinction | a merit | full marks | a pass", "|")

WEEKDAYS = _pool("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
DAY_REFS = (*WEEKDAYS, "tomorrow", "next week", "the weekend", "the end of the month")
MONTHS = _pool("January February March April May June July August September October November December")
CLOCK_TIMES = (
    *(
        f"{(h - 1) % 12 + 1}:{m:02d} {'am' if h < 12 else 'pm'}"
        for h in range(7, 20)
        for m in (0, 15, 30, 45)
    ),
    "noon",
    "lunchtime",
    "end of day",
    "first thing in the morning",
)
DOSES = tuple(f"{d} mg" for d in (2, 5, 10, 20, 25, 40, 50, 75, 100, 125, 200, 250, 400, 500, 850, 1000))
BLOOD_PRESSURES = tuple(f"{s} over {d}" for s in range(100, 185, 5) for d in range(60, 115, 5))
AMOUNTS = (*(str(x) for x in range(2, 100)), *(str(x) for x in range(100, 5000, 37)))
FEW = tuple(str(x) for x in range(2, 30))
PRICES = (*(f"{x} euros" for x in range(5, 900, 7)), *(f"{x} dollars" for x in range(5, 900, 11)))
PERCENTS = tuple(f"{x} percent" for x in range(1, 60))
DATES = tuple(f"{d} {m}" for m in MONTHS for d in range(1, 29, 3))

OPENERS = ("",) * 6 + (
    "Okay, ",
    "So ",
    "Quick note: ",
    "Just to confirm, ",
    "By the way, ",
    "Reminder: ",
    "Heads up, ",
    "Right, ",
    "Sorry, ",
    "Also, ",
)
CLOSERS = ("",) * 6 + (
    " Thanks.",
    " Does that work?",
    " Let me know.",
    " I wrote it in the calendar.",
    " Please double check.",
    " No rush.",
    " I will follow up later.",
    " Can you confirm?",
)

POOLS: dict[str, Sequence[str]] = {
    "name": FIRST_NAMES,
    "name2": FIRST_NAMES,
    "surname": SURNAMES,
    "drug": DRUGS,
    "drug2": DRUGS,
    "condition": CONDITIONS,
    "cplace": CLINIC_PLACES,
    "oplace": OFFICE_PLACES,
    "splace": SCHOOL_PLACES,
    "hplace": HOME_PLACES,
    "city": CITIES,
    "project": PROJECTS,
    "project2": PROJECTS,
    "otopic": OFFICE_TOPICS,
    "subject": SUBJECTS,
    "event": SCHOOL_EVENTS,
    "chore": CHORES,
    "chore2": CHORES,
    "food": FOODS,
    "store": STORES,
    "day": DAY_REFS,
    "weekday": WEEKDAYS,
    "time": CLOCK_TIMES,
    "dose": DOSES,
    "freq": FREQUENCIES,
    "num": AMOUNTS,
    "price": PRICES,
    "pct": PERCENTS,
    "grade": GRADES,
    "few": FEW,
    "bp": BLOOD_PRESSURES,
    "date": DATES,
}

TURN_TEMPLATES: dict[str, list[str]] = {
    "clinic": [
        "{name} {surname} has an appointment with Dr {surname} on {day} at {time} in {cplace}.",
        "Dr {surname} increased the {drug} dose to {dose} {freq} because the {condition} is not under "
        "control.",
        "The pharmacy called about {name}'s prescription for {drug}; they only have {dose} tablets until "
        "{weekday}.",
        "{name} reported side effects from {drug}, mostly nausea and dizziness, so we switched to {drug2} "
        "{dose} {freq}.",
        "Blood pressure was {bp} this morning, pulse {num}; {name} says the {drug} makes her tired.",
        "Please move {name} {surname}'s follow up for {condition} from {weekday} to {day}, ideally before "
        "{time}.",
        "Lab results for {name} came back: HbA1c is slightly high, so keep {drug} at {dose} and recheck on "
        "{date}.",
        "{name} is allergic to {drug}, that must go on the chart before anyone prescribes anything for "
        "{condition}.",
        "The referral to {cplace} for {name}'s {condition} was approved; the wait is about {few} days.",
        "We ran out of {drug} samples in {cplace}; {name2} will order {num} boxes from the supplier on "
        "{weekday}.",
        "{name} asked whether {drug} can be taken with {drug2}; Dr {surname} said yes, but not within two "
        "hours.",
        "Nurse {name} will do {name2}'s dressing change in {cplace} at {time} and check the wound for "
        "infection.",
        "For {condition} the plan is physiotherapy twice a week plus {drug} {dose} {freq} for {few} days, "
        "then review.",
        "The insurance company covers {pct} of the {drug} cost for {name}, the rest is {price} per month.",
        "{name} {surname} missed the {time} appointment again; the clinic will charge {price} unless we "
        "reschedule by {day}.",
    ],
    "office": [
        "The {project} kickoff with {name} {surname} is on {day} at {time} in {oplace}; bring {otopic}.",
        "{name} wants the {project} budget cut by {pct}, which means dropping the {city} pilot until {date}.",
        "Can someone review {otopic} for {project} before {weekday}? {name} is out and {name2} is covering.",
        "We signed the vendor contract for {project} at {price} a month, renewing on {date} unless {name} "
        "objects.",
        "{name} moved the {project} demo to {oplace} because the client from {city} is arriving at {time}.",
        "The {project} release slipped to {day}; {name2} found {num} failing tests in the payment flow.",
        "Headcount for {project} is frozen, but {name} {surname} can borrow two engineers from {project2} "
        "until {date}.",
        "{name} is flying to {city} on {weekday} for the {project} workshop and will be back by {day}.",
        "Minutes from today: {otopic} approved, {project} owner is {name}, next check in on {day} at {time}.",
        "The {city} office reported {num} support tickets about {project} last week, up {pct} from the week "
        "before.",
        "Please send {name} {surname} the slides on {otopic} before {time}; the board meets in {oplace}.",
        "{name} and {name2} disagree on whether {project} should merge with {project2}; decision postponed "
        "to {day}.",
        "Expense reports for the {city} trip are due {day}; the hotel came to {price} and the taxis were "
        "extra.",
        "Our {project} dashboard shows latency at {num} milliseconds, which breaks the target agreed with "
        "{name}.",
        "{name2} is taking over {otopic} from {name}, who starts parental leave on {date} for {few} weeks.",
    ],
    "school": [
        "{name}'s {subject} homework is due {day}; the teacher, Ms {surname}, wants it handed in to "
        "{splace}.",
        "{name} got {grade} in the {subject} test and wants to join {event} with {name2}.",
        "Parents evening is on {weekday} at {time} in {splace}; we have ten minutes with Mr {surname} about "
        "{subject}.",
        "The permission slip for {event} costs {price}, sign it by {day}; the bus leaves at {time}.",
        "{name} forgot the PE kit again, so Mr {surname} said {name} can sit out but must bring it {day}.",
        "Mr {surname} says {name} is struggling with {subject} and suggests tutoring in {splace} on "
        "{weekday} afternoons.",
        "{name2} is picking up {name} after {event} at {time} because the car is at the garage until {day}.",
        "The {subject} project on {city} needs a poster, {num} words of text and three sources by {date}.",
        "{name} was elected class representative and will speak at {event} in {splace} on {day}.",
        "School lunch money is {price} for the term; {name} prefers packed lunch on {weekday}s anyway.",
        "Ms {surname} moved the {subject} exam to {date}; revision sessions run in {splace} at {time}.",
        "{name} lost the library book about {city}; the fine is {price} if it is not back by {day}.",
        "Reading log for {name}: {num} pages this week, mostly adventure books, Ms {surname} wants more non "
        "fiction.",
        "The after school {subject} club with Mr {surname} finishes at {time} on {weekday}s from {date}.",
    ],
    "household": [
        "Can you {chore} before {day}? {name} said the plumber charges {price} if he comes on a {weekday}.",
        "We need to {chore} and {chore2} this weekend; {name} will take {hplace}, I will do the rest.",
        "Dinner on {weekday} is {food}; {name} is bringing dessert and {name2} is vegetarian now.",
        "I left the spare key for {name} under the mat by {hplace}; she arrives from {city} at {time}.",
        "The electricity bill was {price} this month, {pct} higher than last, probably the heater in "
        "{hplace}.",
        "Grandma {name} takes her {drug} {freq}; the pills are in the blue box in {hplace}, next to the "
        "torch.",
        "{name} booked the car service for {day} at {time}; we can borrow {name2}'s car until {weekday}.",
        "Shopping list for {store}: milk, eggs, bread, and the stuff for {food}, about {price} in total.",
        "The washing machine in {hplace} is leaking again; {name} {surname} can come {day} between {time} "
        "and noon.",
        "Rent goes up to {price} from {date}; {name} thinks we should ask the landlord to {chore} first.",
        "{name} is staying with us from {date} for {few} nights, so please clear out {hplace}.",
        "The dog needs her {drug} {freq} with food; {name2} walks her at {time} while we are in {city}.",
        "Remember to {chore} on {weekday}; last time we forgot and {name} had to pay {price}.",
        "Bin day moved to {weekday}; {name} put the recycling out by {hplace} but the green bin is full.",
        "We agreed {name} does the dishes on {weekday}s and {name2} does {chore} every {weekday}.",
    ],
}

QUERY_TEMPLATES: list[str] = [
    "When is {name}'s appointment with Dr {surname}?",
    "What dose of {drug} is {name} taking?",
    "Who changed the {drug} prescription?",
    "Is {name} allergic to {drug}?",
    "Can {drug} be taken with {drug2}?",
    "What is the plan for {name}'s {condition}?",
    "How much does the insurance cover for {drug}?",
    "When is the {project} kickoff?",
    "Who owns the {project} project?",
    "Why did the {project} release slip?",
    "When is {name} flying to {city}?",
    "How much was the {project} vendor contract?",
    "Who is covering {otopic} while {name} is away?",
    "What did the board decide about {otopic}?",
    "When is {name}'s {subject} homework due?",
    "What grade did {name} get in {subject}?",
    "When is {event} for {name}'s class?",
    "How much does the permission slip for {event} cost?",
    "Who is picking up {name} after {event}?",
    "When is the {subject} exam?",
    "Who agreed to {chore} on {weekday}?",
    "Who is bringing dessert for {food} on {weekday}?",
    "Where is the spare key for {name}?",
    "Why was the electricity bill {pct} higher?",
    "When did {name} book the car service?",
    "What time does {name} arrive from {city}?",
    "Where does grandma {name} keep her {drug}?",
    "When does the rent go up to {price}?",
    "What is on the shopping list for {store}?",
    "Did bin day move to {weekday}?",
    "What did Ms {surname} say about {name}?",
    "Where is the meeting about {otopic}?",
]

DOMAINS: tuple[str, ...] = tuple(TURN_TEMPLATES)

_KEEP_CAPITAL = frozenset({"Dr", "Nurse", "Ms", "Mr", "Grandma", "I"})
_MAX_WORDS = 30


def _words(s: str) -> int:
    return len(s.split())


class _Template:
    """A template compiled to functions that fill every slot in one f-string.

    ``fill(rnd)`` draws one index per slot from ``rnd`` and returns the text;
    ``fill_after`` does the same with the first word lower-cased, for use after
    an opener. The functions are generated because ``str.format`` and per-slot
    loops dominate the cost at a million turns. ``openers`` and ``closers`` are
    the framing phrases that keep the longest possible fill within
    ``_MAX_WORDS`` words.
    """

    __slots__ = ("closers", "fill", "fill_after", "openers")

    def __init__(self, text: str, all_pools: Mapping[str, Sequence[str]] = POOLS) -> None:
        pieces = [(literal, field) for literal, field, _, _ in string.Formatter().parse(text)]
        pools = [all_pools[field] for _, field in pieces if field is not None]
        first = pieces[0][0].split(" ", 1)[0]
        lower_first = bool(first) and first not in _KEEP_CAPITAL
        for attr, lower in (("fill", False), ("fill_after", lower_first)):
            body = ""
            slot = 0
            for k, (literal, field) in enumerate(pieces):
                if lower and k == 0:
                    literal = literal[0].lower() + literal[1:]
                body += literal.replace("{", "{{").replace("}", "}}")
                if field is not None:
                    body += f"{{_p{slot}[int(rnd() * {len(pools[slot])})]}}"
                    slot += 1
            scope: dict[str, object] = {f"_p{i}": p for i, p in enumerate(pools)}
            exec(f"def _fill(rnd):\n    return f{body!r}\n", scope)
            setattr(self, attr, scope["_fill"])
        longest = _words(text.format_map({k: max(v, key=_words) for k, v in all_pools.items()}))
        slack = max(_MAX_WORDS - longest, 0)
        opener_budget = min(slack, max(map(_words, OPENERS)))
        self.openers = tuple(o for o in OPENERS if _words(o) <= opener_budget)
        self.closers = tuple(c for c in CLOSERS if _words(c) <= slack - opener_budget)


_TURN_COMPILED: dict[str, tuple[_Template, ...]] = {
    d: tuple(_Template(t) for t in ts) for d, ts in TURN_TEMPLATES.items()
}
_QUERY_COMPILED: tuple[_Template, ...] = tuple(_Template(t) for t in QUERY_TEMPLATES)


def _pools_with(names: tuple[str, ...] | None) -> Mapping[str, Sequence[str]]:
    if names is None:
        return POOLS
    if not names or not all(isinstance(n, str) and n.strip() for n in names):
        raise ValueError("names must be a non-empty sequence of non-empty strings")
    return {**POOLS, "name": names, "name2": names}


@lru_cache(maxsize=4)
def _turn_templates(names: tuple[str, ...] | None) -> dict[str, tuple[_Template, ...]]:
    if names is None:
        return _TURN_COMPILED
    pools = _pools_with(names)
    return {d: tuple(_Template(t, pools) for t in ts) for d, ts in TURN_TEMPLATES.items()}


@lru_cache(maxsize=4)
def _query_templates(
    templates: tuple[str, ...] | None, names: tuple[str, ...] | None
) -> tuple[_Template, ...]:
    if templates is None and names is None:
        return _QUERY_COMPILED
    pools = _pools_with(names)
    return tuple(_Template(t, pools) for t in (QUERY_TEMPLATES if templates is None else templates))


_CLOCK = tuple(f"{m // 60:02d}:{m % 60:02d}" for m in range(24 * 60))
_LAST_MINUTE = 24 * 60 - 1


def synthetic_turns(
    n: int,
    seed: int = 0,
    turns_per_session: int = 20,
    *,
    names: Sequence[str] | None = None,
    domains: Sequence[str] | None = None,
) -> Iterator[Turn]:
    """Yield ``n`` deterministic synthetic turns.

    Each episode sticks mostly to one domain (one turn in ten comes from another)
    and has its own cast of speakers. Episode ``k`` starts on ``BASE_DATE`` plus
    ``k % 365`` days, and each session starts on the next calendar day between
    08:00 and 11:59, with turns one to six minutes apart (capped at 23:59).

    ``names`` replaces the first names that texts mention (turns keep their ids,
    speakers and times: a turn takes as many random draws); ``domains`` (some of
    :data:`DOMAINS`) is what episodes, and the odd turn from another domain, are
    drawn from.
    """
    if n < 0:
        raise ValueError("n must be non-negative")
    if turns_per_session < 1:
        raise ValueError("turns_per_session must be at least 1")
    compiled = _turn_templates(None if names is None else tuple(names))
    domains = DOMAINS if domains is None else tuple(domains)
    unknown = [d for d in domains if d not in TURN_TEMPLATES]
    if unknown or not domains:
        raise ValueError(f"domains must be some of {', '.join(DOMAINS)}, got {list(domains)}")
    rng = random.Random(seed)
    rnd = rng.random
    n_domains = len(domains)
    clock = _CLOCK
    turn_ids = tuple(f"t{i + 1:04d}" for i in range(EPISODE_TURNS + EPISODE_JITTER))
    produced = 0
    episode = 0
    while produced < n:
        episode_id = f"syn-{episode:06d}"
        length = min(n - produced, EPISODE_TURNS + rng.randint(-EPISODE_JITTER, EPISODE_JITTER))
        home_templates = compiled[domains[episode % n_domains]]
        n_home = len(home_templates)
        cast = rng.sample(PRINCIPALS, rng.randint(2, 4))
        n_cast = len(cast)
        day_offset = episode % 365
        minute = 0
        session_id = ""
        day_prefix = ""
        for i in range(length):
            if i % turns_per_session == 0:
                session = i // turns_per_session
                session_id = f"{episode_id}-s{session + 1:02d}"
                day_prefix = (BASE_DATE + timedelta(days=day_offset + session)).isoformat() + "T"
                minute = DAY_START_MINUTE + int(rnd() * 240)
            else:
                minute += 1 + int(rnd() * 6)
                if minute > _LAST_MINUTE:
                    minute = _LAST_MINUTE
            if rnd() < 0.1:
                pool = compiled[domains[int(rnd() * n_domains)]]
                template = pool[int(rnd() * len(pool))]
            else:
                template = home_templates[int(rnd() * n_home)]
            openers = template.openers
            opener = openers[int(rnd() * len(openers))]
            body = template.fill_after(rnd) if opener else template.fill(rnd)
            closers = template.closers
            yield Turn(
                turn_id=turn_ids[i],
                speaker=cast[i % n_cast] if rnd() < 0.8 else cast[int(rnd() * n_cast)],
                text=f"{opener}{body}{closers[int(rnd() * len(closers))]}",
                episode_id=episode_id,
                timestamp=day_prefix + clock[minute],
                session_id=session_id,
            )
        produced += length
        episode += 1


def synthetic_queries(
    n: int,
    seed: int = 1,
    *,
    names: Sequence[str] | None = None,
    templates: Sequence[str] | None = None,
) -> list[str]:
    """Return ``n`` deterministic short questions in the vocabulary of the turns.

    ``templates`` (with the slots of :data:`QUERY_TEMPLATES`) replaces the
    questions asked; ``names`` the first names they mention.
    """
    if n < 0:
        raise ValueError("n must be non-negative")
    rnd = random.Random(seed).random
    templates = _query_templates(
        None if templates is None else tuple(templates), None if names is None else tuple(names)
    )
    k = len(templates)
    return [templates[int(rnd() * k)].fill(rnd) for _ in range(n)]
