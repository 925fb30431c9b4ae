"""Grants ended in words supersede the sentences that gave them."""

from __future__ import annotations

import pytest

from claim_records import found_in_any_batches, records
from govmem.governance.revocation.access_supersession import endings_of
from govmem.governance.revocation.claim_supersession import find_claim_supersessions

GRANT = (
    "Consent note entered: Nina Reed may receive scheduling and transportation logistics through Monday only."
)
ENDED = "Consent change: family logistics access for Nina Reed is revoked as of Monday afternoon."


def test_an_ended_grant_supersedes_the_sentence_that_gave_it() -> None:
    found = found_in_any_batches(records(GRANT, "The echo is Tuesday at 9 AM.", ENDED))
    assert [(f.older, f.newer, f.reasons) for f in found] == [(0, 2, ("access-ended",))]
    assert (found[0].start, found[0].end) == (0, len(GRANT))


@pytest.mark.parametrize(
    ("ending", "names", "scope"),
    [
        (ENDED, {"Nina Reed"}, {"logistic"}),
        (
            "Documented: Daniel's ride-and-scheduling access is revoked at the patient's request.",
            {"Daniel"},
            {"ride", "schedul"},
        ),
        ("Revoking Leo's temporary Lighthouse logs-only access now.", {"Leo"}, None),
        ("Yes, please revoke Sofia's access entirely.", {"Sofia"}, None),
    ],
)
def test_an_ending_says_whose_access_and_which(ending: str, names: set[str], scope: set[str] | None) -> None:
    ((said, which),) = endings_of(ending)
    assert said == names
    if scope is not None:
        assert which == scope


@pytest.mark.parametrize(
    "ending",
    [
        "Marcus revoked family scheduling access.",  # the grantor
        "Your access was revoked.",
        "Was Nina Reed's family logistics access revoked?",
        "Nina Reed's family logistics access is not revoked.",
    ],
)
def test_an_ending_naming_no_grantee_supersedes_nothing(ending: str) -> None:
    assert not find_claim_supersessions(records(GRANT, ending), [])


@pytest.mark.parametrize(
    "grant",
    [
        "Nina Reed says Marcus may receive logistics through Monday.",  # Marcus holds this grant
        "Nina Reed may not receive anything.",
        "Nina Reed may also receive billing statements.",  # another access than the one ended
        "Can Nina Reed receive the times?",
    ],
)
def test_what_is_no_grant_of_the_ended_access_stays(grant: str) -> None:
    assert not find_claim_supersessions(records(grant, ENDED), [])


def test_a_grant_given_after_the_ending_stays() -> None:
    assert not find_claim_supersessions(records(ENDED, GRANT), [])


@pytest.mark.parametrize(
    ("grant", "ending"),
    [  # from a read-only review: each of these ended nothing of the grant before it was fixed
        ("Marcus Reed may receive scheduling logistics through Monday.", ENDED),  # a shared family name
        (
            "Dr. Chen may view the allergy panel results too.",
            "Mia Chen's portal access to the allergy results is revoked.",
        ),
        (
            "Nina may receive appointment updates for her father.",
            "At Nina's request, Daniel's appointment access is revoked.",
        ),
        (
            "Nina Reed's daughter may receive the discharge instructions.",
            "Nina Reed's discharge access is revoked.",
        ),
        (
            "Leo has temporary logs-only access through Friday.",
            "Leo's logs-only access hasn't been revoked yet.",
        ),
        (
            "Leo has temporary logs-only access through Friday.",
            "We will revoke Leo's logs-only access on Friday.",
        ),
        (
            "Nina may receive scheduling logistics.",
            "If Nina misses two visits, Nina's scheduling access will be revoked.",
        ),
        (
            "Nina may receive scheduling logistics.",
            "The letter saying Nina's scheduling access was revoked was sent in error.",
        ),
        (
            "Nina may receive billing statements but only by mail.",
            "Nina's ride access is revoked, but that is all.",
        ),
        ("Nina may see Dr. Patel on Tuesday at 10 AM.", "Nina's access is revoked."),
        (
            "Rosa may receive Ben's report cards.",
            "Ben's father asked us to revoke Rosa's access, and we will do that Monday.",
        ),
        ("Theo Grant may receive the billing statements.", "Access for Theo Grant's assistant is revoked."),
    ],
)
def test_another_persons_access_or_an_ending_not_in_force_supersedes_nothing(grant: str, ending: str) -> None:
    assert not find_claim_supersessions(records(grant, ending), [])
