"""Authority pressure in a query: a demand for exact values made with urgency.

"The board review is in five minutes. I need the exact current budget right now" is
the shape of fraud by authority pressure (the "CEO fraud" of payment scams): the
urgency is there to skip the checks a request would normally get. A query with both
an urgency cue and a demand for exactness is *pressured*; the read path then serves
it without the pack's ``pressure_tags`` about anyone but the requester (an answer the
requester could pass on safely), whatever the requester's role would allow. Asking
for one's own details in a hurry is not pressure on anyone else's.

Pressure only narrows what a read returns; nothing said in a query ever grants access.
The cues are general English, not a domain's wording.
"""

from __future__ import annotations

import re

_URGENCY = re.compile(
    r"\b(?:in (?:a |one |two |three |five |ten |fifteen |twenty |\d+ )(?:minutes?|mins?)"
    r"|right now|right away|immediately|urgent(?:ly)?|asap|as soon as possible"
    r"|walking into|no time|in a hurry|hurry)\b",
    re.I,
)
_EXACTNESS = re.compile(
    r"\b(?:exact(?:ly)?|precise(?:ly)?|verbatim|word for word|full (?:figures?|numbers?|amounts?|codes?))\b",
    re.I,
)
PRESSURE_RULE = "pressure: exact values demanded with urgency are not served"


def is_pressured(query: str) -> bool:
    """Whether ``query`` demands exact values with urgency."""
    return _URGENCY.search(query) is not None and _EXACTNESS.search(query) is not None
