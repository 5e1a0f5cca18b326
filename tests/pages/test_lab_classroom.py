"""Projector mode, the exports, the link to a view and the lecture scenes, driven through AppTest."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from attn_core import Settings, compute, settings_from_query
from attn_ui.figures import layout as styles
from attn_ui.widgets import projector, share
from attn_ui.words import export
from attn_ui.words.explain import kpi_values
from attn_ui.words.scenes import SCENES, scene_words
from tests.apptest_helpers import APP, open_section, run_lab
from tests.apptest_helpers import checked as ok

SCENES_PAGE = "pages/9_Lecture_scenes.py"


def url(at: AppTest) -> dict[str, str]:
    return {key: at.query_params[key][-1] if isinstance(at.query_params[key], list) else at.query_params[key]
            for key in at.query_params}


def layout(at: AppTest) -> dict:
    return json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]


def projector_css_shown(at: AppTest) -> bool:
    return any('class="attn-projector"' in element.proto.body for element in at.get("html"))  # the marker span


def test_mode_projector_in_the_url_turns_the_lab_into_the_big_map():
    at = run_lab(mode="projector", causal="1", heads="4")
    assert at.toggle(key="lab.projector").value is True
    assert projector_css_shown(at)
    spec = layout(at)
    assert spec["height"] == styles.PROJECTOR.height
    assert spec["yaxis"]["tickfont"]["size"] == styles.PROJECTOR.axis_font
    # the keys lie side by side, as large as their columns allow ("journey" beside "starts")
    assert styles.PROJECTOR_MIN_FONT <= spec["xaxis"]["tickfont"]["size"] <= styles.PROJECTOR.axis_font
    assert {m.label: m.value for m in at.metric} == kpi_values(compute(Settings(causal=True, heads=4)))
    assert url(at) == {"mode": "projector", "causal": "1", "heads": "4"}


def test_the_switch_writes_mode_to_the_url_and_takes_it_away_again():
    at = run_lab(causal="1")
    assert at.toggle(key="lab.projector").value is False and not projector_css_shown(at)
    assert layout(at)["height"] == styles.LAB.height and "mode" not in url(at)

    ok(at.toggle(key="lab.projector").set_value(True).run())
    assert url(at) == {"causal": "1", "mode": "projector"}
    assert layout(at)["height"] == styles.PROJECTOR.height and projector_css_shown(at)
    assert at.toggle(key="lab.causal").value is True  # the settings did not move

    ok(at.toggle(key="lab.projector").set_value(False).run())
    assert url(at) == {"causal": "1"}
    assert layout(at)["height"] == styles.LAB.height and not projector_css_shown(at)


def test_projector_keeps_the_row_outline_and_survives_a_control_change():
    at = run_lab(mode="projector", row="3", causal="1")
    assert layout(at)["shapes"][0]["y0"] == 1.5  # row 3, 0-based 2, outlined from 1.5 to 2.5
    ok(at.segmented_control(key="lab.heads").set_value(2).run())
    assert url(at) == {"mode": "projector", "row": "3", "causal": "1", "heads": "2"}
    assert at.toggle(key="lab.projector").value is True


@pytest.mark.parametrize("mode", ["beamer", "", "PROJECTOR "])
def test_other_mode_values(mode):
    at = run_lab(mode=mode)
    projector = mode.strip().lower() == "projector"
    assert at.toggle(key="lab.projector").value is projector
    assert ("mode" in url(at)) is projector


def test_a_note_about_a_fixed_link_is_a_toast_in_projector_mode_and_a_box_otherwise():
    projector = run_lab(mode="projector", heads="5")
    assert [t.value for t in projector.toast] and not projector.info
    assert "5 heads cannot split d_model = 12" in projector.toast[0].value
    plain = run_lab(heads="5")
    assert not plain.toast and "5 heads cannot split d_model = 12" in plain.info[0].value


def test_csv_download_carries_the_weights_and_the_maps_file_name(monkeypatch):
    """The CSV is eager data, served over HTTP by the replica that ran the page, so it still downloads after a
    failover (share.py says why deferred data would not); it is registered once, as a static download."""
    registered = []
    original = MediaFileManager.add

    def spy(self, path_or_data, mimetype, coordinates, file_name=None, is_for_static_download=False):
        registered.append((path_or_data, mimetype, file_name, is_for_static_download))
        return original(self, path_or_data, mimetype, coordinates, file_name, is_for_static_download)

    monkeypatch.setattr(MediaFileManager, "add", spy)
    at = run_lab(causal="1", heads="4", view="2", pad="5,6")
    settings = Settings(causal=True, heads=4, view=2, padded=(5, 6))
    button = at.get("download_button")[0]
    assert button.proto.label == "Weights as CSV" and button.proto.ignore_rerun
    assert button.proto.url and not button.proto.deferred_file_id
    (data, mimetype, filename, static), = [entry for entry in registered if entry[1] == "text/csv"]
    assert mimetype == "text/csv" and static
    assert filename == "attention-head2of4_causal_pad5-6.csv" == export.csv_file_name(settings)
    written = data.decode() if isinstance(data, bytes) else data
    assert written == export.weights_csv(compute(settings))


def test_plotly_toolbar_saves_a_png_named_like_the_csv_at_slide_scale():
    at = run_lab(causal="1", p="0.5")
    config = json.loads(at.get("plotly_chart")[0].proto.config)
    options = config["toImageButtonOptions"]
    assert options == {"format": "png", "filename": "attention-head1of1_causal_drop50", "scale": 3}


def test_link_to_this_view_on_community_cloud_and_without_a_known_address():
    cloud = open_section(run_lab({"url": "https://attention-lab.streamlit.app/~/+/"}, causal="1", row="2"),
                         share.LINK_KEY)
    (link,) = [code.value for code in cloud.code]
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://attention-lab.streamlit.app/"
    assert parse_qs(parts.query) == {"causal": ["1"], "row": ["2"]}

    local = open_section(run_lab(causal="1", mode="projector"), share.LINK_KEY)
    assert [code.value for code in local.code] == ["?causal=1&mode=projector"]


# --- the lecture scenes page ------------------------------------------------------------------------------


def open_scenes(**query: str) -> AppTest:
    """As a student arrives: the Lab first (page links need the entry file), then the scenes page."""
    at = AppTest.from_file(APP, default_timeout=30)
    ok(at.run())
    for key, value in query.items():
        at.query_params[key] = value
    return ok(at.switch_page(SCENES_PAGE).run())


def shows_scene(at: AppTest, number: int, revealed: bool = True) -> None:
    """The scene's question always; its answer, tiles and map only once revealed."""
    scene = SCENES[number - 1]
    words = scene_words(scene)
    shown = [m.value for m in at.markdown]
    assert [s.value for s in at.subheader] == [words.title]
    assert words.question in shown and (words.answer in shown) is revealed
    assert any(m.value == f"**Scene {number} of {len(SCENES)}**" for m in at.markdown)
    if not revealed:  # no tile, and no chart but the givens' map in shades (tests/pages/test_scene_givens.py)
        allowed = ["scene.shades"] if scene.givens in ("shades", "row") else []
        assert at.metric.len == 0 and [chart.key for chart in at.get("plotly_chart")] == allowed
        return
    if scene.kind == "map":
        assert {m.label: m.value for m in at.metric} == kpi_values(compute(scene.settings), score_tensor=False)
        shapes = layout(at).get("shapes", [])
        assert [shape["y0"] + 0.5 for shape in shapes] == ([] if scene.row is None else [scene.row - 1])
    else:
        assert at.get("plotly_chart"), scene.kind  # one lesson figure


@pytest.mark.parametrize("number", range(1, len(SCENES) + 1))
def test_every_scene_asks_first_then_shows_its_board(number):
    shows_scene(open_scenes(scene=str(number)), number, revealed=False)
    shows_scene(open_scenes(scene=str(number), reveal="1"), number)


def test_next_reveals_then_advances_and_back_undoes_one_step():
    at = open_scenes(scene="3")
    ok(at.button(key="scenes.next").click().run())
    assert url(at)["scene"] == "3" and url(at)["reveal"] == "1"
    shows_scene(at, 3)
    ok(at.button(key="scenes.next").click().run())
    assert url(at)["scene"] == "4" and "reveal" not in url(at)
    shows_scene(at, 4, revealed=False)
    ok(at.button(key="scenes.back").click().run())
    assert url(at) == {"scene": "3", "reveal": "1"}
    ok(at.button(key="scenes.back").click().run())
    ok(at.button(key="scenes.back").click().run())
    assert url(at) == {"scene": "2", "reveal": "1"}
    shows_scene(at, 2)


def test_the_hidden_key_buttons_step_like_next_and_back():
    at = open_scenes(scene="5")
    ok(at.button(key="scenes.next.space").click().run())
    assert url(at)["reveal"] == "1"
    ok(at.button(key="scenes.next.right").click().run())
    assert url(at)["scene"] == "6"
    ok(at.button(key="scenes.back.left").click().run())
    assert url(at) == {"scene": "5", "reveal": "1"}


def test_first_and_last_steps_disable_the_way_out():
    first = open_scenes()
    assert first.button(key="scenes.back").disabled and not first.button(key="scenes.next").disabled
    last = open_scenes(scene=str(len(SCENES)), reveal="1")
    assert last.button(key="scenes.next").disabled and not last.button(key="scenes.back").disabled


def test_a_scene_number_out_of_range_shows_the_nearest_scene_and_says_why():
    at = open_scenes(scene="99")
    shows_scene(at, len(SCENES), revealed=False)
    assert f"showing {len(SCENES)} instead of 99" in at.info[0].value
    low = open_scenes(scene="0")
    shows_scene(low, 1, revealed=False)
    word = open_scenes(scene="three")
    shows_scene(word, 1, revealed=False)
    assert "Showing scene 1" in word.info[0].value


def test_open_in_the_lab_carries_the_scene_settings_row_and_number_and_the_lab_links_back():
    at = open_scenes(scene="12", reveal="1")
    (link,) = [element for element in at.get("page_link") if element.proto.label == "Open in the Lab"]
    query = parse_qs(link.proto.query_string)
    scene = SCENES[11]
    assert query.pop("row") == [str(scene.row)] and query.pop("scene") == ["12"]
    assert settings_from_query(query) == (scene.settings, [])

    lab = AppTest.from_file(APP, default_timeout=30)
    for key, values in parse_qs(link.proto.query_string).items():
        lab.query_params[key] = values[-1]
    ok(lab.run())
    (back,) = [element for element in lab.get("page_link") if element.proto.label == "Back to scene 12"]
    assert parse_qs(back.proto.query_string) == {"scene": ["12"], "reveal": ["1"]}
    plain = ok(AppTest.from_file(APP, default_timeout=30).run())
    assert not [e for e in plain.get("page_link") if e.proto.label.startswith("Back to scene")]


def test_scenes_page_projector_switch_writes_mode_and_enlarges_the_map():
    at = open_scenes(scene="4", reveal="1")
    assert layout(at)["height"] == styles.LAB.height and not projector_css_shown(at)
    ok(at.toggle(key=projector.PAGE_SWITCH_KEY).set_value(True).run())
    assert url(at)["mode"] == "projector" and url(at)["scene"] == "4"
    assert layout(at)["height"] == styles.SCENE_PROJECTOR.height and projector_css_shown(at)
    (link,) = [element for element in at.get("page_link") if element.proto.label == "Open in the Lab"]
    assert parse_qs(link.proto.query_string)["mode"] == ["projector"]
