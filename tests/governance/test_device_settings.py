"""The household pack: how the home's devices are set up is read by those who set them
up; what a camera saw is not."""

from __future__ import annotations

import pytest

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


def tags(text: str) -> frozenset[str]:
    with household(PEOPLE, [("olivia", text)], AT) as memory:
        return memory.labeler().tags_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Residents Olivia and Noah have household clip access; Rosa has no direct clip or live-view rights.",
        "Arrival chimes stay on the resident side only.",
        "Current Listen access is QR LLN-9 plus tap-only resident unlock only.",
        "Remote porch-camera share remains Noah only.",
        "Put the living-room display in guest mode.",
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


@pytest.mark.parametrize("requester", ["rosa", "victor"])
def test_visitors_read_no_device_settings(requester: str) -> None:
    with household(PEOPLE, SAID, AT) as memory:
        context = memory.recall(requester, "Who can view the camera clips?", k=20, as_of=LATER).context()
    assert "clip viewers" not in context
