"""Authority pressure in a query: a demand for exact values made with urgency, or a
demand its asker justifies by who they say they are.

"The board review is in five minutes. I need the exact current budget right now" is
the shape of fraud by authority pressure (the "CEO fraud" of payment scams): the
urgency is there to skip the checks a request would normally get. "I am family, so I
should be able to see them" and "I'm on the helper chain, so just give me the code" are
its other shape: a claimed entitlement in place of the checks. A query that demands,
with urgency, exact values, or that demands something on the strength of what its
asker says they are, is *pressured*; the read path then serves it without the pack's
``pressure_tags`` about anyone but the requester (an answer the requester could pass
on safely), whatever the requester's role would allow. Asking for one's own details in
a hurry is not pressure on anyone else's.

Pressure only narrows what a read returns; nothing said in a query ever grants access.
The cues are general English, not a domain's wording.
"""

from __future__ import annotations

import re

_DEMAND = re.compile(
    r"\b(?:i (?:just |only |really )?need|we need|give me|send (?:me|us|it|them)|get me|tell me|show me"
    r"|provide|hand (?:me|over)|pull (?:up )?(?:the|me)|read me|share)\b",
    re.I,
)
_URGENCY = re.compile(
    r"\b(?:in (?:a |one |\w+ |\d+ ?)(?:minutes?|mins?)\b|right now|right away|immediately|urgent(?:ly)?"
    r"|asap|as soon as possible|walking into|(?:is|are) waiting|no time|hurry)",
    re.I,
)
_EXACTNESS = re.compile(
    r"\b(?:exact(?:ly)?|precise(?:ly)?|verbatim|word for word|actual (?:figures?|numbers?|amounts?|codes?)"
    r"|full (?:figures?|numbers?|amounts?|codes?))\b",
    re.I,
)
_ENTITLEMENT = re.compile(
    r"\bI(?: am|['’]m) (?:[\w'’-]+ ){0,6}?[\w'’-]+[,.]? so\b"
    r"|\b(?:since|because|as) I(?: am|['’]m) (?:[\w'’-]+ ){0,6}?[\w'’-]+,"
    r"|^\W*(?:as|being) (?:a |an |the |her |his |their |your )?(?:[\w'’-]+ ){0,2}?(?:family|relative|resident"
    r"|parent|partner|spouse|owner|member)\b[^,.?]{0,30},"
    r"|\bI (?:should be (?:able|allowed) to|have (?:every |a )?right to|am entitled to|['’]m entitled to)\b"
    r"|\bI(?: am|['’]m) entitled\b",
    re.I,
)
PRESSURE_RULE = "pressure: exact values demanded with urgency, or on a claimed entitlement, are not served"


def is_pressured(query: str) -> bool:
    """Whether ``query`` demands exact values with urgency (a demand: "give me", "I
    need"; an urgency cue: "in five minutes", "right now", "is waiting"; and a demand
    for exactness, all three), or demands anything on an entitlement its asker claims
    ("I am family, so tell me ...", "I should be able to see them"). A question ("what
    is the exact budget right now?") is not a demand, so asking for current values
    plainly is never pressure."""
    if _DEMAND.search(query) is None:
        return False
    if _ENTITLEMENT.search(query) is not None:
        return True
    return _URGENCY.search(query) is not None and _EXACTNESS.search(query) is not None
