"""The household pack: how the home's devices are set up is read by those who set them
up; what a camera saw is not."""

from __future__ import annotations

import pytest

from govmem.governance.labeling import made_of, states_only
from govmem.governance.policy_pack import load_pack
from govmem.models import Relationship
from small_household import household

AT = "2026-06-01T10:00:00"
LATER = "2026-06-02T00:00:00"
PEOPLE = {
    "olivia": ("primary_resident", "Olivia Chen"),
    "noah": ("partner_spouse", "Noah Reed"),
    "maya": ("adult_child", "Maya Chen"),
    "ethan": ("home_it_helper", "Ethan Cho"),
    "elise": ("household_manager", "Elise Hart"),
    "rosa": ("caregiver", "Rosa Mendez"),
    "victor": ("building_staff", "Victor Shaw"),
}


SETUP = [Relationship("device_setup_delegate", "ethan", "", {"access_scope": "wednesday_listen_setup_only"})]


def tags(text: str) -> frozenset[str]:
    with household(PEOPLE, [("olivia", text)], AT, SETUP) as memory:
        return memory.labeler().tags_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Residents Olivia and Noah have household clip access; Rosa has no direct clip or live-view rights.",
        "Arrival chimes stay on the resident side only.",
        "Current Listen access is QR LLN-9 plus tap-only resident unlock only.",
        "Remote camera share remains Noah only.",
        "Device note: arrival chimes go to Olivia and Noah only.",
        "Olivia and Noah are the only clip viewers.",
    ],
)
def test_how_a_device_is_set_up_is_a_device_setting(text: str) -> None:
    found = tags(text)
    assert "device_settings" in found
    assert "security" not in found


@pytest.mark.parametrize(
    "text",
    [
        "The porch clip shows Maya leaving at 7 PM.",
        "Clips of Olivia arguing with Maya are on the hallway camera.",
        "The hallway camera caught Noah coming home at 2 AM.",
        "Footage from the study camera is shared with Noah only.",
        "The alarm is armed.",
    ],
)
def test_what_a_camera_saw_or_an_alarm_stays_security(text: str) -> None:
    found = tags(text)
    assert "security" in found
    assert "device_settings" not in found


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
]


@pytest.mark.parametrize("text", REVIEWED)
def test_a_setting_that_says_more_than_the_setting_is_not_the_helpers(text: str) -> None:
    """(The household manager still reads some of them as logistics: "general" facets about
    residents, a rule older than device settings.)"""
    assert "device_settings" not in tags(text) or tags(text) & {"health", "absence", "private"}
    said = [("olivia", text)]
    people = {**PEOPLE, "mei": ("elder_family_member", "Mei Chen"), "leo": ("minor_child", "Leo Chen")}
    with household(people, said, AT) as memory:
        assert text not in memory.recall("ethan", text, k=20, as_of=LATER).context()


def test_a_setting_is_a_sentence_of_setting_words_the_homes_names_and_a_short_qr_label() -> None:
    words = frozenset(["clip", "access", "is", "shared", "with", "only", "qr", "plus", "unlock", "the"])
    names = frozenset(["listen"])
    assert made_of("Clip access is shared with the only.", words)
    assert made_of("Unlock is QR LLN-9 plus Listen access.", words, names)
    assert made_of("    's clip access is shared.", words)  # "Noah's", the name blanked
    assert not made_of("Clip access is shared with Sunrise.", words, names)  # no name of the home's
    assert not made_of("Clip access is shared with Tuesdays.", words, frozenset(["tuesdays"]))
    assert not made_of("Clip access is shared with 4471.", words)
    assert not made_of("Unlock is QR Gate-2745.", words)  # a code in a label
    assert not made_of("Unlock is QR Hospice-1.", words)  # a word, not a label
    assert not made_of("Unlock is LLN-9.", words)  # not after "QR"
    assert not made_of("Listen access is shared.", words, names)  # a first word must be a setting's own


def test_a_setting_says_one_thing() -> None:
    pattern = load_pack("household").tag_patterns["device_settings"]
    words = load_pack("household").only_words["device_settings"]
    assert states_only("     has no direct clip or live-view rights.", pattern, words)
    assert states_only(
        "Current camera note: residents       and      have household clip access.", pattern, words
    )
    assert not states_only("     is not a resident now and has no camera access.", pattern, words)
    assert not states_only("Camera access update:      is not a resident.", pattern, words)
    assert not states_only("Camera access:       only,      not family now.", pattern, words)
    assert not states_only("Camera alerts go to      ,       's not local now.", pattern, words)
    assert not states_only("Is      's camera access off?", pattern, words)


def test_an_arrival_chime_is_a_device_not_a_schedule() -> None:
    assert "scheduling" not in tags("Arrival chimes stay on the resident side only.")
    assert "scheduling" in tags("Rosa's arrival is at 4:20 PM.")


def test_a_travel_device_is_a_device_not_a_trip() -> None:
    assert "absence" not in tags("What is the current travel-device configuration?")
    assert "absence" in tags("What is the current travel window?")
    assert "absence" in tags("Olivia is travelling from Friday to Sunday.")


SAID = [
    ("olivia", "Device note: residents Olivia and Noah are the only clip viewers."),
    ("olivia", "The porch clip shows Maya leaving at 7 PM."),
    ("noah", "Maya's hallway camera stays off on Thursday nights so she can leave unseen."),
]


@pytest.mark.parametrize("requester", ["ethan", "elise", "noah"])
def test_device_helpers_managers_and_residents_read_the_settings(requester: str) -> None:
    with household(PEOPLE, SAID, AT) as memory:
        context = memory.recall(requester, "Who can view the camera clips?", k=20, as_of=LATER).context()
    assert "only clip viewers" in context


@pytest.mark.parametrize("requester", ["ethan", "elise"])
def test_device_helpers_and_managers_read_no_camera_content_or_residents_schedules(requester: str) -> None:
    with household(PEOPLE, SAID, AT) as memory:
        result = memory.recall(requester, "What do the cameras show about Maya?", k=20, as_of=LATER)
    context = result.context()
    assert "leaving at 7 PM" not in context
    assert "Thursday nights" not in context


def test_a_display_in_guest_mode_is_still_a_visitors_logistics() -> None:
    """Only cameras, doorbells, chimes and locks make a device setting: a review found
    visitors losing "Put the living-room display in guest mode." to the first version."""
    text = "Put the living-room display in guest mode."
    assert "device_settings" not in tags(text)
    with household(PEOPLE, [("olivia", text)], AT) as memory:
        assert "guest mode" in memory.recall("victor", "What mode is the display in?", as_of=LATER).context()


@pytest.mark.parametrize("requester", ["rosa", "victor"])
def test_visitors_read_no_device_settings(requester: str) -> None:
    with household(PEOPLE, SAID, AT) as memory:
        context = memory.recall(requester, "Who can view the camera clips?", k=20, as_of=LATER).context()
    assert "clip viewers" not in context
