"""What kind of value a request asks to forget, and which turns state it."""

from govmem.governance.forgetting.disclosure import VALUE_KINDS, states


def kinds(request: str) -> list[str]:
    return [kind for pattern, kind in VALUE_KINDS if pattern.search(request)]


def test_where_i_said_is_not_an_address_request():
    assert "place" not in kinds("Delete the bit where I said I'm in recovery for my drinking, I mean it.")
    assert "place" not in kinds("Forget my living situation. All of it.")
    assert "place" in kinds("Delete the bit where I said where we moved, I mean it.")
    assert "place" in kinds("Forget my new address. All of it.")


def test_lost_my_job_asks_no_amount():
    assert "amount" not in kinds("Please drop any record that I lost my job.")
    assert "amount" in kinds("Forget my gambling losses.")


def test_an_address_is_a_street_with_its_number():
    keys = ["name:alder way", "num:52", "num:1"]
    assert states("We moved! 52 Alder Way, flat 1.", keys, "place")
    assert not states("Paid £52 for parking on Alder Way.", ["name:alder way", "num:52"], "place")
