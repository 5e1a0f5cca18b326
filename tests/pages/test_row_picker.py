"""A long sentence on a phone: its cells are too small for a thumb (16 px at 16 words on a 390 px screen), so the Lab
offers its rows in a list under the map, says so, and a row picked there is a click on the map: the row's sentence,
the address, Back. A short sentence keeps the map alone."""

from __future__ import annotations

from apptest_helpers import checked, run_lab

from attn_ui.widgets.panels import PICKER_FROM

LONG = " ".join(f"w{i}" for i in range(1, 17))


def test_a_long_sentence_offers_its_rows_in_a_list_and_a_pick_is_a_click():
    at = run_lab(s=LONG)
    picker = at.selectbox(key="lab.row_pick")
    assert picker.value is None and len(picker.options) == 16
    assert any("or pick a row above" in c.value for c in at.caption)
    picker.set_value(4).run()
    checked(at)
    assert at.query_params["row"] in ("5", ["5"])
    assert any(m.value.startswith("**w5** (query 5)") for m in at.markdown)
    assert at.selectbox(key="lab.row_pick").value == 4


def test_the_list_follows_a_link_and_a_short_sentence_has_none():
    assert run_lab(s=LONG, row="7").selectbox(key="lab.row_pick").value == 6
    short = " ".join(f"w{i}" for i in range(1, PICKER_FROM))
    assert not [box for box in run_lab(s=short).selectbox if box.key == "lab.row_pick"]
    assert not [box for box in run_lab(s=LONG, mode="projector").selectbox if box.key == "lab.row_pick"]
