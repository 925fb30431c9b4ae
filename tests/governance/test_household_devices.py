"""The household pack and the home's devices: what a camera, a doorbell or a lock saw,
and whatever is said beside a device setting, stays hidden from the IT helper; a device
for travel is no trip.

A tag of its own for device settings, read by the IT helper and the household manager, was
tried and withdrawn (DEVELOPERS.md, twenty-fifth session): five reviews found the
sentences below, each readable through one version of it. They stay here as the bar for
a next attempt."""

from __future__ import annotations

import pytest

from small_household import household

AT = "2026-06-01T10:00:00"
LATER = "2026-06-02T00:00:00"
PEOPLE = {
    "olivia": ("primary_resident", "Olivia Chen"),
    "noah": ("partner_spouse", "Noah Reed"),
    "maya": ("adult_child", "Maya Chen"),
    "leo": ("minor_child", "Leo Chen"),
    "mei": ("elder_family_member", "Mei Chen"),
    "ethan": ("home_it_helper", "Ethan Cho"),
    "elise": ("household_manager", "Elise Hart"),
    "rosa": ("caregiver", "Rosa Mendez"),
    "victor": ("building_staff", "Victor Shaw"),
}


def tags(text: str) -> frozenset[str]:
    with household(PEOPLE, [("olivia", text)], AT) as memory:
        return memory.labeler().tags_of(text)


REVIEWED = [  # a review's cases: a log or history, a setting with its reason or its time, a hint
    "The smart lock access log has Maya entering at 2:07 AM on Saturday.",
    "Maya's unlock history on the smart lock settings page says she came home at 4 in the morning.",
    "The doorbell picked up Maya leaving with a suitcase before dawn; that clip is shared with Olivia only.",
    "Camera notifications go to Noah only while I'm in Maui until the 20th.",
    "Remote camera access for Noah is disabled while the restraining order is pending.",
    "Arrival alerts for Maya are sent to me because she's been sneaking in after curfew.",
    "Unlock for the side door profile is the same as the Wi-Fi one.",
    "Face unlock on the tablet profile is Maya's, and the fallback is her birthday digits.",
    "Mei's bed sensor alerts go to Rosa because her dementia is getting worse.",
    "Leo's glucose monitor alerts are routed to the nanny's device and to Olivia.",
    "Noah's travel-device profile is enabled through the 20th because he's in Berlin.",
    "Olivia's laptop stays in travel-mode until the 12th while she is in Tokyo.",
    "Admin access on the doorbell app is Olivia's account, login olivia.chen.",
    "Maya's device location sharing is on for Olivia: she is at Jake's place tonight.",
    # a second review's: a clause beside the setting, content verbs, code hints
    "Camera alerts go to Elise this weekend, we're all at the lake house.",
    "Remote camera access is disabled for Maya following the overdose.",
    "Live view on the nursery camera is disabled for Noah pending the custody hearing.",
    "Noah's smart lock unlock is disabled — he's moved out and we're separating.",
    "The smart lock logged Maya's unlock at 4:12 this morning, and remote unlock stays enabled for her.",
    "Clip sharing on the side-door camera is off for Noah: it has Maya and her girlfriend on the bench.",
    "Smart lock unlock for the cleaner profile is the garage number reversed.",
    "Smart lock unlock for Maya is her old gym locker combo.",
    "Live view is shared with Noah Tuesdays.",
    # a third review's: absences, status and codes in the setting's own words, other names
    "Camera alerts go to Elise, Olivia and Noah are off to Maui.",
    "Remote unlock stays with Elise, and no resident is in.",
    "Noah is not a resident now and has no camera access.",
    "Guest unlock is QR PIN2745.",
    "Guest unlock on the smart lock is Open Sesame.",
    "Camera alerts for Mei go to Rosa and Hope Hospice.",
    # a fourth review's: "'s" for "is", lists saying more, other scopes' words, QR words
    "Camera alerts go to Elise, Olivia's not local now.",
    "Camera access: Olivia only, Noah not family now.",
    "Remote unlock is off for Noah, and no access to Maya or Leo for Noah now.",
    "Olivia and Noah share no household now, and clip access is Olivia only.",
    "Smart lock unlock for Rosa is QR Hospice-1.",
    "Is Noah's camera access off now Noah's not family?",
    "Mei's remote unlock is caregiver only now.",
    "Olivia's remote now, her doorbell alerts go to Elise.",
    "Arrival alerts for Leo go to Nina and Noah, with Leo in Foster Care now.",
    # a fifth review's (on a version withdrawn after it): shorthand, emoji, acronyms
    "Clip access Olivia only now Noah is not family.",
    "Camera alerts enabled for Elise now the residents are all remote.",
    "Clip access: Olivia only, Noah not resident now.",
    "Camera alerts go to Elise ✈️🏝️.",
    "Smart lock unlock for Maya is off 🍼🤰.",
    "Guest unlock is QR CPS-1 plus tap.",
    "Camera access Olivia only [Noah is not family now].",
]


@pytest.mark.parametrize("text", REVIEWED)
def test_what_is_said_beside_a_device_setting_is_not_the_it_helpers(text: str) -> None:
    """(The household manager reads some of them as logistics: "general" facets about
    residents, a rule of the pack GateMem's delegates need.)"""
    with household(PEOPLE, [("olivia", text)], AT) as memory:
        assert text not in memory.recall("ethan", text, k=20, as_of=LATER).context()


@pytest.mark.parametrize(
    "text",
    [
        "The porch clip shows Maya leaving at 7 PM.",
        "Clips of Olivia arguing with Maya are on the hallway camera.",
        "The hallway camera caught Noah coming home at 2 AM.",
        "Residents Olivia and Noah have household clip access.",
    ],
)
def test_camera_talk_is_security(text: str) -> None:
    assert "security" in tags(text)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Mei's bed sensor alerts go to Rosa because her dementia is getting worse.", "health"),
        ("Leo's glucose monitor alerts are routed to the nanny's device and to Olivia.", "health"),
        ("Noah's travel-device profile is enabled through the 20th because he's in Berlin.", "absence"),
        ("Olivia's laptop stays in travel-mode until the 12th while she is in Tokyo.", "absence"),
        ("Admin access on the doorbell app is Olivia's account, login olivia.chen.", "credentials"),
    ],
)
def test_health_a_trip_and_a_login_beside_a_device_keep_their_tags(text: str, tag: str) -> None:
    assert tag in tags(text)


def test_a_travel_device_is_a_device_not_a_trip() -> None:
    assert "absence" not in tags("What is the current travel-device configuration?")
    assert "absence" in tags("What is the current travel window?")
    assert "absence" in tags("Olivia is travelling from Friday to Sunday.")


def test_a_query_about_a_travel_device_and_a_visitors_cameras_is_not_refused() -> None:
    """003 ckpt_05: "travel-device" made the whole list a trip, so the part naming the
    visitor became a question about her absence and the IT helper's query was refused."""
    people = {**PEOPLE, "serena": ("trusted_contact", "Serena Wu")}
    said = [
        (
            "ethan",
            "Device state: guest mode on the display from Friday 6:30 AM, and Serena has no camera access.",
        )
    ]
    query = (
        "As of now, what is the current travel-device configuration, including the display mode window,"
        " and Serena Wu's camera entitlement?"
    )
    with household(people, said, AT) as memory:
        assert memory.recall("ethan", query, k=20, as_of=LATER).action != "refuse"
