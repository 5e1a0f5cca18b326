"""Page 7, Train it yourself, through AppTest: presets show their shipped runs at once, Train really trains (and
its result is the core's own run), the URL holds the choice, bad links get a note, and the run board shares runs
between sessions, queues them for its slot and stops a run nobody watches."""

from __future__ import annotations

import json
import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

from attn_core.training import PRESETS, run
from attn_core.training.choices import TrainChoice, coerce, preset_choice
from attn_ui.quiz.bank import BY_ID
from attn_ui.views.training_runs import RunBoard
from attn_ui.words import training_results as results
from attn_ui.words import training_words as words
from attn_ui.words.scenes import SCENES, TRAINING_SCENES
from tests.apptest_helpers import APP, checked, metrics

PAGE = "pages/7_Train_it_yourself.py"


def open_page(predicted: bool = True, **query: str) -> AppTest:
    """The Lab first (the sidebar's page links need the entry file), then page 7 with these URL keys; `predicted`:
    then the experiment's predict-first question answered (right), which opens Train and the run."""
    at = AppTest.from_file(APP, default_timeout=60)
    checked(at.run())
    for key, value in query.items():
        at.query_params[key] = value
    checked(at.switch_page(PAGE).run())
    question = BY_ID[words.VERDICT_QUESTIONS[at.session_state["train.choice"].experiment]]
    if predicted:
        checked(at.radio(key=f"quiz.w.{question.id}").set_value(question.answer).run())
    return at


def texts(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info])


def url(at: AppTest, answers: bool = False) -> dict[str, str]:
    """The address; the answers (`answer`) only with `answers`: most tests are about the choice's keys."""
    values = {key: at.query_params[key] for key in at.query_params if answers or key != "answer"}
    return {key: value if isinstance(value, str) else value[-1] for key, value in values.items()}


def table_rows(at: AppTest, index: int = 0) -> list[dict[str, str]]:
    frame = at.table[index].value
    return [{str(k): str(v) for k, v in row.items()} for row in frame.to_dict("records")]


@pytest.fixture(scope="module")
def mask_page() -> AppTest:
    """The mask preset, its question answered."""
    return open_page()


def test_the_mask_preset_asks_first_and_offers_train_only_after_the_prediction():
    at = open_page(predicted=False)
    shipped = PRESETS["mask"].shipped()
    assert not metrics(at) and not at.get("plotly_chart") and not at.table, "nothing of any run before the answer"
    assert results.mask_verdict(shipped) not in texts(at) and at.radio(key="quiz.w.train-mask-off-zero").value is None
    assert words.PRESET_SHOWN not in texts(at) and words.PREDICT_TO_TRAIN in texts(at)
    assert at.button(key="train.go").disabled is True, "Train's run answers the question: it waits for the prediction"
    assert at.button(key="train.stop").disabled is True
    assert at.button(key="quiz.skip.train-mask-off-zero"), "the skip, on purpose, beside Train"
    assert url(at, answers=True) == {}, "the first experiment at its preset: a bare address"


def test_skipping_the_prediction_opens_train_and_the_run_and_counts_as_unanswered():
    at = open_page(predicted=False, exp="dropout")
    checked(at.button(key="quiz.skip.train-dropout-gap").click().run())
    assert at.button(key="train.go").disabled is False and words.PREDICT_TO_TRAIN not in texts(at)
    assert results.dropout_verdict(PRESETS["dropout"].shipped()) in texts(at)
    assert at.radio(key="quiz.w.train-dropout-gap").value is None, "the question stays, unanswered"


def test_the_answered_mask_preset_shows_both_models_on_one_scale(mask_page):
    at = mask_page
    shipped = PRESETS["mask"].shipped()
    assert at.button(key="train.go").disabled is False
    assert metrics(at) == results.mask_tiles(shipped.masked)
    assert results.mask_verdict(shipped) in texts(at)
    assert results.page_task(preset_choice("mask"), shipped) in texts(at), "the task asks about the run on screen"
    assert url(at, answers=True) == {"answer": "a"}, "the answer is in the address: a reload keeps it"
    (chart,) = at.get("plotly_chart")
    spec = json.loads(chart.proto.spec)
    names = [trace["name"] for trace in spec["data"]]
    assert names == [f"{words.CURVE_LABELS[name]} ({model})" for model in ("mask off", "mask on")
                     for name in ("train", "held_out", "generating")]
    generating_off = spec["data"][2]
    assert generating_off["y"] == list(shipped.unmasked.curves[2].losses)  # the cheating model, in view
    top = spec["layout"]["yaxis"]["range"][1]
    assert top >= max(max(c.losses) for run in shipped.runs for c in run.curves), "one scale for both"


def test_answering_the_question_opens_the_run_and_its_verdict():
    at = open_page(predicted=False)
    checked(at.radio(key="quiz.w.train-mask-off-zero").set_value(1).run())  # a wrong guess is still a guess
    assert at.button(key="train.go").disabled is False
    assert results.mask_verdict(PRESETS["mask"].shipped()) in texts(at)
    assert words.PRESET_SHOWN in texts(at)


def test_the_page_ends_with_a_next_link_to_check_yourself(mask_page):
    links = [link.proto for link in mask_page.get("page_link") if link.proto.label.startswith("Next:")]
    assert [(link.label, link.page) for link in links] == [("Next: Check yourself", "Check_yourself")]


def test_the_mask_switch_picks_the_tiles_model_and_writes_the_url(mask_page):
    at = mask_page
    checked(at.toggle(key="train.show").set_value(False).run())
    shipped = PRESETS["mask"].shipped()
    assert metrics(at) == results.mask_tiles(shipped.unmasked)
    assert url(at) == {"show": "off"}
    assert all(sample in texts(at) for sample in [results.samples_markdown(shipped, shipped.unmasked)])
    assert results.tiles_heading(shipped.unmasked) in texts(at)
    assert len(json.loads(at.get("plotly_chart")[0].proto.spec)["data"]) == 6, "the chart keeps both models"


def test_the_heads_preset_shows_scores_maps_and_ablation():
    at = open_page(exp="heads")
    shipped = PRESETS["heads"].shipped()
    assert table_rows(at) == results.heads_rows(shipped)
    assert results.heads_verdict(shipped) in texts(at)
    charts = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    learned = charts[1]  # the curves, then the learned map
    strongest = max(shipped.heads, key=lambda score: score.induction)
    z = learned["data"][0]["z"]
    assert z[5][:6] == [round(w, 3) for w in shipped.maps[strongest.layer - 1][strongest.head - 1][5][:6]]
    assert all(cell is None for cell in z[0][1:])  # the future is grey (a gap in the weights layer)


def test_the_dropout_preset_says_honestly_that_the_gap_stays():
    at = open_page(exp="dropout")
    shipped = PRESETS["dropout"].shipped()
    verdict = results.dropout_verdict(shipped)
    assert verdict in texts(at) and "does not close it" in verdict
    assert table_rows(at) == results.dropout_rows(shipped)
    best = min(shipped.runs, key=lambda r: r.held_out_loss)
    assert f"{best.held_out_loss:.3f}" in verdict and f"{best.gap:.2f}" in verdict


@pytest.mark.parametrize(("query", "expected"), [
    ({"exp": "nonsense"}, preset_choice("mask")),
    ({"exp": "heads", "heads": "3"}, preset_choice("heads")),
    ({"exp": "heads", "steps": "99999", "seed": "x`y"}, coerce("heads", steps=2000)[0]),
    ({"exp": "dropout", "p": "0.7,abc"}, preset_choice("dropout")),
    ({"exp": "dropout", "p": "0.5,0.7"}, coerce("dropout", rates=(0.5,))[0]),
])
def test_a_bad_link_gets_a_note_and_a_valid_state(query, expected):
    at = open_page(predicted=False, **query)
    assert at.info, "a fixed link must say what changed"
    assert at.session_state["train.choice"] == expected
    assert url(at) == {key: value for key, value in expected.to_query().items() if (key, value) != ("exp", "mask")}


def test_a_custom_choice_says_how_long_it_will_take_then_trains_the_cores_own_run():
    at = open_page(exp="heads", layers="1", steps="100", seed="7")
    choice = coerce("heads", layers=1, steps=100, seed=7)[0]
    assert words.NOT_RUN_YET in texts(at) and "Training takes about" in texts(at)
    assert not at.table  # nothing to show before it has trained
    assert results.heads_task(None, 1) in texts(at), "before a run, the task asks for a prediction"
    checked(at.button(key="train.go").click().run())
    expected = run(choice.progress())
    assert table_rows(at) == results.heads_rows(expected)
    assert "Trained live in" in texts(at)
    assert results.heads_verdict(expected) in texts(at), "trained here, after the prediction: the verdict shows"
    assert results.heads_task(expected, 1) in texts(at)
    assert at.button(key="train.stop").disabled is True, "a finished run leaves nothing to stop"
    assert url(at) == {"exp": "heads", "layers": "1", "steps": "100", "seed": "7"}


def test_a_second_session_on_the_same_settings_costs_no_second_run():
    first = open_page(exp="mask", steps="100", seed="11")
    checked(first.button(key="train.go").click().run())
    second = open_page(exp="mask", steps="100", seed="11")
    assert words.NOT_RUN_YET not in texts(second)  # already finished on this server: shown at once
    checked(second.button(key="train.go").click().run())
    assert words.done_text(0.0, False) in texts(second)
    assert metrics(second) == metrics(first)


def test_changing_the_experiment_resets_its_switches_to_the_preset():
    at = open_page(exp="heads", layers="1")
    checked(at.segmented_control(key="train.exp").set_value("dropout").run())
    assert at.session_state["train.choice"] == preset_choice("dropout")
    assert url(at) == {"exp": "dropout"}


def test_projector_mode_from_the_url_hides_the_explanations():
    at = open_page(exp="mask", mode="projector")
    assert words.INTRO not in texts(at) and at.toggle(key="page.projector").value is True
    (settings,) = [box for box in at.expander if box.label.endswith("(change)")]
    assert settings.label == words.settings_summary("mask", 2, 1, [], 1200, 0)
    assert settings.label.startswith("Mask off vs on · 2 heads · 1,200 steps · seed 0")
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["height"] == 380 and spec["layout"]["xaxis"]["tickfont"]["size"] >= 11
    checked(at.segmented_control(key="train.heads").set_value(4).run())  # the folded switches still work
    assert at.session_state["train.choice"].heads == 4 and url(at)["heads"] == "4"
    (settings,) = [box for box in at.expander if box.label.endswith("(change)")]
    assert "4 heads" in settings.label


# --- the run board ----------------------------------------------------------------------------------------------


def wait_until(condition, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_the_board_shares_a_run_queues_the_next_and_stops_one_nobody_watches():
    board = RunBoard(slots=1)
    board.pace = {("mask", 1, 1): (0.001, 0.0), ("heads", 1, 1): (0.001, 0.0)}  # no calibration needed
    first = coerce("heads", heads=1, layers=1, steps=300, seed=21)[0]
    second = coerce("mask", heads=1, steps=100, seed=21)[0]
    run_a = board.request(first, "student-1")
    assert board.request(first, "student-2") is run_a  # the same settings: one run, two watchers
    run_b = board.request(second, "student-3")
    wait_until(lambda: run_a.status == "training")
    assert run_b.status == "waiting" and board.ahead_of(run_b)[0] == 1  # one slot: the second waits its turn
    board.release(run_a, "student-1")
    board.release(run_a, "student-2")  # nobody watches any more: it stops at its next Progress
    wait_until(lambda: run_a.status == "stopped")
    assert not board.is_finished(first)  # a stopped run is never cached
    wait_until(lambda: run_b.status == "done")
    assert board.is_finished(second) and run_b.result == run(second.progress())


def test_a_waiting_run_that_everyone_leaves_never_trains():
    board = RunBoard(slots=1)
    board.pace = {("heads", 1, 1): (0.001, 0.0)}
    block = coerce("heads", heads=1, layers=1, steps=400, seed=31)[0]
    left = coerce("heads", heads=1, layers=1, steps=100, seed=32)[0]
    running = board.request(block, "a")
    queued = board.request(left, "b")
    board.release(queued, "b")
    wait_until(lambda: queued.status == "stopped")
    assert queued.started_at is None
    board.release(running, "a")
    wait_until(lambda: not running.active)


def test_a_run_whose_process_fails_reaches_its_watchers_as_a_short_message():
    board = RunBoard(slots=1)
    board.pace = {("heads", 3, 1): (0.001, 0.0)}
    forged = TrainChoice(experiment="heads", heads=3, layers=1, steps=100)  # the page never offers 3 heads
    failed = board.request(forged, "a")
    wait_until(lambda: not failed.active)
    assert failed.status == "failed" and failed.error.endswith("3 heads cannot split d_model = 32 evenly.")
    assert "Traceback" not in words.failed_text(failed.error)


def test_the_warm_up_measures_every_presets_shape_in_the_background():
    board = RunBoard()
    board.warm_up().join(timeout=120)
    presets = [preset_choice(experiment) for experiment in ("mask", "heads", "dropout")]
    assert set(board.pace) == {(c.experiment, c.heads, c.layers) for c in presets}
    assert all(per_step > 0 and start > 0 for per_step, start in board.pace.values())


def test_calibration_measures_once_a_shape_even_when_many_ask_at_once():
    board = RunBoard()
    choice = coerce("mask", heads=1, steps=100)[0]
    estimates = []
    threads = [threading.Thread(target=lambda: estimates.append(board.estimate(choice))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(estimates)) == 1 and estimates[0] > 0 and list(board.pace) == [("mask", 1, 1)]


class SlowClock:
    """A clock a test moves by hand: a run "takes" exactly the seconds the test says, whatever the machine does."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_slowed_run_shows_the_time_left_at_its_own_pace(monkeypatch):
    """The board estimates 0.001 s a step; the run is made three times slower (each Progress moves the clock by
    three times what the estimate allowed it). What a watcher is shown must follow the run's pace: the first
    estimate is off by a factor of three, the last figure shown is within 25% of the real time."""
    from attn_ui.views import training_runs

    clock = SlowClock()
    board = RunBoard(slots=1, clock=clock)
    board.pace = {("heads", 1, 1): (0.001, 0.0)}
    choice = coerce("heads", heads=1, layers=1, steps=400, seed=51)[0]
    shown = []  # (fraction, the whole run's time as a watcher sees it, the status line)

    def slowed_training(choice, _live):
        last = None
        for last in choice.progress():  # the real run, its Progress one by one
            if last.fraction > 0:
                clock.now += 3 * 0.001 * choice.steps * (last.fraction - shown[-1][0] if shown else last.fraction)
            _live.publish(last)
            view = _live.view()
            shown.append((view.fraction, view.expected,
                          words.training_text("training", view.fraction, view.elapsed, view.left)))
        return last.result

    monkeypatch.setattr(training_runs, "cached_training", slowed_training)
    live = board.request(choice, "student")
    wait_until(lambda: not live.active)
    real = live.view().elapsed
    assert live.status == "done" and real == pytest.approx(3 * 0.001 * 400)
    assert live.estimate == pytest.approx(0.4) and live.estimate / real < 0.4, "the first estimate is far off"
    before_end = [total for fraction, total, _ in shown if fraction < 1]
    assert abs(before_end[-1] / real - 1) <= 0.25, shown
    assert abs(before_end[len(before_end) // 2] / real - 1) <= 0.25, shown  # halfway too, not only at the end
    lines = [line for fraction, _, line in shown if fraction < 1]
    assert len(set(lines)) == len(lines), "each redraw says a new time left"


def test_time_left_blends_the_first_estimate_until_the_run_has_a_pace():
    from attn_ui.views.training_runs import TRUST_PACE_AFTER, time_left

    assert time_left(10.0, 2.0, 0.0, None) == 8.0  # nothing done yet: the first estimate, less the time spent
    assert time_left(10.0, 30.0, 0.5, (30.0, 0.0)) == pytest.approx(30.0)  # half done in 30 s: 30 s to go
    early = time_left(10.0, 3.0, TRUST_PACE_AFTER / 2, (3.0, 0.0))  # a twentieth done in 3 s: half trusted
    own, prior = 3.0 / (TRUST_PACE_AFTER / 2) * (1 - TRUST_PACE_AFTER / 2), (1 - TRUST_PACE_AFTER / 2) * 10.0
    assert early == pytest.approx((own + prior) / 2)
    assert words.training_text("training", 0.5, 30.0, 30.0).endswith("about 30 s to go (at its pace so far).")
    assert words.training_text("training", 1.0, 30.0, 0.0).endswith("finishing.")


# --- page 1 and the scenes -------------------------------------------------------------------------------------


def test_page_one_says_mask_on_is_what_generation_sees_and_links_the_experiment():
    at = AppTest.from_file(APP, default_timeout=60)
    checked(at.run())
    checked(at.switch_page("pages/1_Peeking_and_the_causal_mask.py").run())
    from attn_ui.words.mask_words import MASK_ON_MEANS

    assert MASK_ON_MEANS.strip() in [m.value.strip() for m in at.markdown]
    (link,) = [link for link in at.get("page_link") if link.proto.label == words.MASK_LINK_LABEL]
    assert link.proto.page == "Train_it_yourself" and link.proto.query_string == "exp=mask"


@pytest.mark.parametrize("scene", TRAINING_SCENES, ids=lambda s: s.training)
def test_a_training_scene_shows_the_shipped_curves_and_their_numbers(scene):
    number = SCENES.index(scene) + 1
    at = AppTest.from_file(APP, default_timeout=60)
    checked(at.run())
    at.query_params["scene"] = str(number)
    at.query_params["reveal"] = "1"  # a scene asks first; the curves are its answer
    checked(at.switch_page("pages/9_Lecture_scenes.py").run())
    shipped = PRESETS[scene.training].shipped()
    assert [s.value for s in at.subheader] == [scene.title]
    assert results.scene_numbers(shipped) in [m.value for m in at.markdown]
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    assert len(specs) == (2 if scene.training == "mask" else 1)
    first = specs[0]["data"][0]
    curves = shipped.runs[0].curves if scene.training == "mask" else shipped.curves
    assert first["y"] == list(curves[0].losses)


# --- the review's findings ---------------------------------------------------------------------------------------


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def test_projector_mode_keeps_the_comparison_of_both_models_beside_the_curves():
    at = open_page(exp="mask", mode="projector")
    shipped = PRESETS["mask"].shipped()
    assert results.mask_verdict_short(shipped) in texts(at)
    assert results.samples_markdown(shipped, shipped.masked) not in texts(at)  # the samples give way to it
    assert metrics(at) == results.mask_tiles(shipped.masked)


def test_the_mask_chart_says_which_curves_lie_on_top_of_each_other(mask_page):
    at = mask_page
    shipped = PRESETS["mask"].shipped()
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    from attn_ui.figures.training_charts import line_loss_width

    shown = words.overlap_text(words.labelled_curves(words.result_chart(shipped)[0]), line_loss_width(spec))
    assert shown and shown in captions(at)
    assert "(mask off)" in shown and "(mask on)" in shown, "each model's curves that lie together, named"


@pytest.mark.parametrize("experiment", ["mask", "heads", "dropout"])
def test_each_experiment_shows_its_own_task_about_the_run_on_screen(experiment):
    at = open_page(exp=experiment)
    choice = preset_choice(experiment)
    task = results.page_task(choice, PRESETS[experiment].shipped())
    others = [results.page_task(preset_choice(other), PRESETS[other].shipped()) for other in PRESETS
              if other != experiment]
    assert task in captions(at) and not any(other in captions(at) for other in others)
    # and the preset says how long Train takes before it is pressed:
    assert any(c.startswith(words.PRESET_SHOWN + " Training takes about") for c in captions(at))


def test_the_heads_table_states_its_baseline_and_signs_the_change():
    at = open_page(exp="heads")
    shipped = PRESETS["heads"].shipped()
    (row,) = [row for row in table_rows(at) if row["head"] == "L1 H2"]
    assert row[results.without_column(shipped)] == "0.16 (\u22120.07, falls)"
    assert words.HEADS_TABLE_HEADING in [s.value for s in at.subheader]


def test_the_map_chooser_comes_before_the_map():
    at = open_page(exp="heads")
    order = [node.type for node in _in_reading_order(at.main) if node.type in ("radio", "plotly_chart")]
    assert order == ["radio", "plotly_chart", "radio", "plotly_chart"], \
        "the predict-first question, the curves, then the head chooser, then its map"


def _in_reading_order(node):
    """Every element under a block, depth first: the order a phone stacks them in, columns one after another."""
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _in_reading_order(child)


def test_an_experiment_chooser_left_empty_falls_back_to_the_pages_own_choice():
    """A press on the chosen option, or a client's empty value, leaves the chooser None: the page draws its own
    choice again instead of failing (a KeyError, once, in a full browser run)."""
    at = open_page(exp="heads")
    at.session_state["train.exp"] = None
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.segmented_control(key="train.exp").value in ("mask", "heads", "dropout")
