"""The Streamlit pieces of "Train it yourself": the page's state in the URL, its controls, and the training panel.

State flows as on every page: the URL (or the session) -> one TrainChoice -> a result -> figures and words. The
panel is a fragment: while a run trains it loops, redrawing the progress bar and the curves when the run has moved
(at most a few times a second), then draws the result in the same run. A click outside it (Stop included) reruns
the page, which ends the loop; the run itself lives on in the run board and the loop picks it up again.
"""

from __future__ import annotations

import time
import uuid
from types import MappingProxyType

import streamlit as st

from attn_core.query import PAGE_ANSWERS_KEY
from attn_core.training import PRESETS
from attn_core.training.choices import (
    EXPERIMENTS,
    HEAD_OPTIONS,
    LAYER_OPTIONS,
    RATE_OPTIONS,
    SEED_LIMIT,
    TrainChoice,
    coerce,
    from_query,
    preset_choice,
    step_bounds,
)
from attn_core.training.experiments import known_levels
from attn_lang import _, number
from attn_ui.figures import layout
from attn_ui.figures import training_charts as charts
from attn_ui.figures.layout import download_config
from attn_ui.figures.plotly_fast import ReadyFigure
from attn_ui.quiz.bank import BY_ID
from attn_ui.views.training_runs import LiveRun, RunView, run_board
from attn_ui.widgets import address, held, panels, predict, questions
from attn_ui.widgets import projector as projector_mode
from attn_ui.widgets.state import cached_training, history_navigation
from attn_ui.words import training_results as results
from attn_ui.words import training_words as words

QUERY_KEYS = ("exp", "heads", "layers", "p", "steps", "seed")
CHOICE_KEY, URL_KEY = "train.choice", "train.url"  # the choice on screen; the address as the browser shows it
ARRIVED_KEY = "train.arrived"  # this run is a navigation run: what it writes replaces the page's history entry
WATCH_KEY, VIEWER_KEY = "train.watch", "train.viewer"  # the run this session watches; who this session is
WIDGETS = MappingProxyType({"train.heads": "heads", "train.layers": "layers", "train.rates": "rates",
                            "train.steps": "steps", "train.seed": "seed"})  # widget key -> TrainChoice field
QUESTIONS = tuple(BY_ID[words.VERDICT_QUESTIONS[name]] for name in EXPERIMENTS)  # `answer`: one item an experiment
REDRAW_EVERY = 0.4  # seconds between two redraws of a live run, at least
REDRAW_PER_WATCHER = 0.03  # ... and this much more per session watching it (50 students: one redraw in 1.5 s)
PASS_PER_WATCHER = 0.02  # seconds between two passes of the live loop, per watcher, from REDRAW_EVERY ...
PASS_AT_MOST = 1.0  # ... to this: how long a click elsewhere (Stop included) may wait


# --- state: URL <-> session <-> widgets ----------------------------------------------------------------------


def _set_widgets(choice: TrainChoice) -> None:
    st.session_state["train.exp"] = choice.experiment
    for key, field in WIDGETS.items():
        value = getattr(choice, field)
        st.session_state[key] = list(value) if field == "rates" else value


def incoming_choice() -> tuple[TrainChoice, list[str], bool]:
    """(the choice to show, notes on a fixed link, whether the address set it). The Lab's rule: a navigation run (the
    page's first run in this session, Back or Forward) reads the address, and a link with the page's keys wins; a
    bare link (the sidebar) keeps the session's choice, so a trip to another page and back keeps it. Any other run
    was started by a widget: the widgets own the state, and the address is only written."""
    state = st.session_state
    stored = state.get(CHOICE_KEY)
    state[ARRIVED_KEY] = False
    if stored is not None and "train.exp" in state and not history_navigation():
        return stored, [], False
    state[ARRIVED_KEY] = True
    params = address.arrive(URL_KEY)
    notes = []
    if PAGE_ANSWERS_KEY in params or history_navigation():
        notes += questions.restore(QUESTIONS, (params.get(PAGE_ANSWERS_KEY) or [None])[-1], PAGE_ANSWERS_KEY)
    own = {key: values for key, values in params.items() if key in QUERY_KEYS}
    if stored is not None and not own and not history_navigation():
        return stored, notes, False
    choice, fixes = from_query(own)
    _set_widgets(choice)
    return choice, notes + fixes, True


def _experiment_changed() -> None:
    experiment = st.session_state.get("train.exp")
    if experiment in PRESETS:  # None when the selected option is pressed again (or a client sent no option)
        _set_widgets(preset_choice(experiment))


def controls(choice: TrainChoice, folded: bool = False) -> TrainChoice:
    """The experiment and its switches; returns the choice they describe. `folded` (projector mode) puts them in
    an expander whose label says what is chosen, so the curves fit a 1280x720 screen under the buttons."""
    state = st.session_state
    if state.get("train.exp") not in EXPERIMENTS:  # unset, or None (a press on the chosen option, a client's empty
        _set_widgets(choice)  # value: once in a full browser run, a KeyError): the page's own choice
    if not folded:
        return _controls()
    label = words.settings_summary(state["train.exp"], state.get("train.heads"), state.get("train.layers"),
                                   state.get("train.rates"), state.get("train.steps"), state.get("train.seed"))
    with st.expander(label, icon=":material/tune:", key="train.settings", on_change="rerun"):
        return _controls()


def _controls() -> TrainChoice:
    state = st.session_state
    held.one_of(_(words.EXPERIMENT_LABEL), EXPERIMENTS, key="train.exp",
                format_func=lambda name: _(words.EXPERIMENT_NAMES[name]), on_change=_experiment_changed)
    experiment = state["train.exp"]
    fewest, most, step = step_bounds(experiment, state.get("train.heads") or 2)
    with st.container(horizontal=True, gap="medium", key="train-switches"):
        labels, helps = words.SETTINGS_LABELS, words.SETTINGS_HELP
        held.one_of(_(labels["heads"]), HEAD_OPTIONS, key="train.heads", help=_(helps["heads"]))
        if experiment == "heads":
            held.one_of(_(labels["layers"]), LAYER_OPTIONS, key="train.layers", help=_(helps["layers"]))
        if experiment == "dropout":
            st.pills(_(words.SETTINGS_LABELS["rates"]), RATE_OPTIONS, selection_mode="multi", key="train.rates",
                     **held.start("train.rates", "default", options=RATE_OPTIONS),
                     format_func=lambda p: number(p, "g"), help=_(words.SETTINGS_HELP["rates"]))
        state["train.steps"] = min(max(state.get("train.steps", fewest), fewest), most)
        st.slider(_(words.SETTINGS_LABELS["steps"]), fewest, most, step=step, key="train.steps",
                  **held.start("train.steps", low=fewest, high=most, of=int),
                  help=_(words.SETTINGS_HELP["steps"]), width=260)
        st.number_input(_(words.SETTINGS_LABELS["seed"]), 0, SEED_LIMIT, step=1, key="train.seed",
                        **held.start("train.seed", low=0, high=SEED_LIMIT, of=int),
                        help=_(words.SETTINGS_HELP["seed"]), width=130)
    rates = tuple(state.get("train.rates") or ()) or None
    chosen, notes = coerce(experiment, heads=state["train.heads"], layers=state.get("train.layers"), rates=rates,
                           steps=state["train.steps"], seed=int(state["train.seed"]))
    panels.show_notes(notes)
    return chosen


def remember(choice: TrainChoice, show_masked: bool, replace: bool | None = None) -> None:
    """Keep the choice for this session and mirror it, the view keys and the answers into the address, in one
    message: one history entry a change. Keys at their default are left out (the mask experiment, its preset's
    values). What a navigation run writes replaces the page's entry (`replace` None: this run decides)."""
    st.session_state[CHOICE_KEY] = choice
    wanted = choice.to_query()
    if wanted.get("exp") == EXPERIMENTS[0]:
        del wanted["exp"]  # the first experiment is what a bare address opens
    if choice.experiment == "mask" and not show_masked:
        wanted["show"] = "off"  # projector mode and the language: address.write_address adds them
    answered = questions.address_value(QUESTIONS)
    if answered:
        wanted[PAGE_ANSWERS_KEY] = answered
    arrived = bool(st.session_state.get(ARRIVED_KEY)) if replace is None else replace
    address.write_address(wanted, URL_KEY, replace=arrived)


def show_masked_switch(choice: TrainChoice, from_link: bool) -> bool:
    """The mask experiment's switch between its two trained models (a view, like the Lab's projector mode)."""
    if choice.experiment != "mask":
        return True
    if from_link or "train.show" not in st.session_state:
        st.session_state["train.show"] = (projector_mode.url_value("show") or "").strip().lower() != "off"
    return st.toggle(_(words.SHOW_MASKED), key="train.show", **held.start("train.show", of=bool),
                     help=_(words.SHOW_MASKED_HELP))


# --- the training panel ------------------------------------------------------------------------------------


def _viewer() -> str:
    if VIEWER_KEY not in st.session_state:
        st.session_state[VIEWER_KEY] = uuid.uuid4().hex
    return st.session_state[VIEWER_KEY]


def _watched(choice: TrainChoice) -> LiveRun | None:
    """The run this session watches, if it is of this choice; a run of another choice is left."""
    run = st.session_state.get(WATCH_KEY)
    if run is not None and run.choice != choice:
        run_board().release(run, _viewer())
        st.session_state.pop(WATCH_KEY, None)
        return None
    return run


def _train(choice: TrainChoice) -> None:
    st.session_state[WATCH_KEY] = run_board().request(choice, _viewer())


def _stop() -> None:
    run = st.session_state.pop(WATCH_KEY, None)
    if run is not None:
        st.session_state["train.stopped"] = run.active
        run_board().release(run, _viewer())


def verdict_question(choice: TrainChoice) -> str:
    """The id of the experiment's predict-first question: every run of the experiment answers it."""
    return words.VERDICT_QUESTIONS[choice.experiment]


def ask_first(choice: TrainChoice) -> None:
    """The experiment's predict-first question, right above Train: a run's curves, tiles and verdict (live or
    precomputed, with any settings) answer it, so Train and every run wait for the prediction or a skip on purpose.
    Outside the panel's fragment, so an answer reruns the page and Train opens with it."""
    questions.inline_question(verdict_question(choice))


def buttons(choice: TrainChoice) -> None:
    """Train and Stop, outside the panel's fragment on purpose: a click outside a fragment reruns the page, and
    Streamlit lets a page rerun cut a fragment's running loop short, whereas a click inside one would wait for
    the loop to end. Train stays enabled during a run (pressing it again joins the same run). Until the question
    above is answered Train is off, and beside it the skip (outside the fragment too, so Train opens with it)."""
    question = verdict_question(choice)
    ready = predict.revealed(question)
    run = _watched(choice)
    with st.container(horizontal=True, gap="small", vertical_alignment="center", key="train-buttons"):
        st.button(_(words.TRAIN_BUTTON), key="train.go", type="primary", icon=":material/model_training:",
                  on_click=_train, args=(choice,), disabled=not ready)
        st.button(_(words.STOP_BUTTON), key="train.stop", icon=":material/stop:",
                  disabled=run is None or not run.active, on_click=_stop)
    if not ready:
        st.markdown(_(words.PREDICT_TO_TRAIN))
        predict.skip_button(question)


@st.fragment
def training_panel(choice: TrainChoice, show_masked: bool, projector: bool) -> None:
    """The estimate or the queue, the live curves while a run trains, then the result (in the same run) and the
    "Your turn" task about it. Nothing of it before the experiment's question is answered or skipped (ask_first):
    every run answers it. After that, a result the student has not trained here and that is not the preset's (another
    session's run) still waits behind a fold, so a new setting can be predicted too."""
    if not predict.revealed(verdict_question(choice)):
        _estimate_only(choice)
        return
    run = _watched(choice)
    status = st.empty()
    if run is not None and run.active:
        _follow(run, status, choice, projector)
        st.rerun(scope="app")  # the run has ended: the page draws its result, and Stop (drawn for a live run) again
    view = run.view() if run is not None else None
    result, trained_here = None, view is not None and view.status == "done"
    estimated = None  # the status line's own sentence, to which the estimate is added once the page is drawn
    if trained_here:
        result = view.result
        status.caption(words.done_text(view.elapsed, len(run.watchers) > 1))
    elif view is not None and view.status == "failed":
        status.error(words.failed_text(view.error), icon=":material/error:")
    elif run_board().is_finished(choice):
        result = cached_training(choice)
    elif choice.is_preset:
        result = PRESETS[choice.experiment].shipped()
        estimated = (status.caption, _(words.PRESET_SHOWN))
    if result is None:
        if st.session_state.pop("train.stopped", False):
            st.info(_(words.STOPPED), icon=":material/stop_circle:")
        if view is None or view.status != "failed":  # a failed run keeps its message in the status line
            estimated = (status.markdown, _(words.NOT_RUN_YET))
    known = run_board().known_estimate(choice) if estimated is not None else None
    if estimated is not None:
        write, sentence = estimated
        write(sentence + " " + (_(words.ESTIMATING) if known is None else words.estimate_text(known, choice.models)))
    _panel_body(choice, result, trained_here, show_masked, projector)
    run_board().warm_up()  # once a server, after the first view is drawn: the presets' pace, for every later view
    if estimated is not None and known is None:  # drawn first, filled in later: the first estimate of a model's
        # shape times a few of its steps (seconds on a fresh server), which must not hold the question back
        write(sentence + " " + words.estimate_text(run_board().estimate(choice), choice.models))


def _estimate_only(choice: TrainChoice) -> None:
    """Before the prediction: only how long Train will take (it answers nothing), drawn after the question, and
    timed after the page is drawn when this server has not timed the model's shape yet."""
    status = st.empty()
    known = run_board().known_estimate(choice)
    status.caption(_(words.ESTIMATING) if known is None else words.estimate_text(known, choice.models))
    run_board().warm_up()
    if known is None:
        status.caption(words.estimate_text(run_board().estimate(choice), choice.models))


def _panel_body(choice: TrainChoice, result, trained_here: bool, show_masked: bool, projector: bool) -> None:
    """The panel under its status line (drawn once the question is answered or skipped): the task, the result, or
    another session's result in a fold."""
    if result is None:
        if not projector:
            st.caption(results.page_task(choice, None))  # nothing on screen yet: a prediction to make
    elif trained_here or choice.is_preset:
        show_result(result, show_masked, projector)
        _task(choice, result, projector)
    else:
        with st.expander(_(words.RESULT_FOLD), icon=":material/lightbulb:"):
            show_result(result, show_masked, projector)
            _task(choice, result, projector)


def _task(choice: TrainChoice, result, projector: bool) -> None:
    """The "Your turn" line about the run on screen (a hall follows the lecturer instead)."""
    if not projector:
        st.caption(results.page_task(choice, result))


def _follow(run: LiveRun, status, choice: TrainChoice, projector: bool) -> None:
    """Redraw the live run until it ends. Every pass writes the status line: a page rerun (a click elsewhere,
    or Stop) takes effect at the next element written, so it never waits longer than one pass. A preset that
    waits for a slot shows its shipped curves meanwhile, so a class pressing Train sees curves at once."""
    bar, chart, words_box = st.empty(), st.empty(), st.empty()
    drawn, last_draw, shipped_shown = -1, 0.0, False
    style = layout.CHART_PROJECTOR if projector else layout.CHART
    levels = words.levels_of(choice.experiment, known_levels(choice.config))  # fixed by the data, not the run
    while True:
        view = run.view()
        if not run.active:
            return
        watching = len(run.watchers)
        redraw = max(REDRAW_EVERY, REDRAW_PER_WATCHER * watching)  # a whole class watching: fewer redraws each
        rest = min(PASS_AT_MOST, max(REDRAW_EVERY, PASS_PER_WATCHER * watching))
        if view.status == "waiting":
            rest = PASS_AT_MOST  # nothing moves in a queue but its place
        if view.status == "waiting":
            ahead, wait = run_board().ahead_of(run)
            status.info(words.waiting_text(ahead, wait), icon=":material/hourglass_top:")
            if choice.is_preset and not shipped_shown:  # drawn as the finished chart draws it
                groups, shipped_levels, title = words.result_chart(PRESETS[choice.experiment].shipped())
                spec = charts.curves_spec(groups, shipped_levels, choice.steps, style, title)
                chart.plotly_chart(ReadyFigure(spec), key="train.live.shipped", config=layout.still_config(),
                                   alt=words.chart_alt(_(words.PRESET_SHOWN), groups, shipped_levels))
                words_box.caption(_(words.PRESET_WHILE_WAITING))
                shipped_shown = True
        else:
            stage = words.stage_text(choice, view.stages[-1][0] if view.stages else "")
            status.caption(words.training_text(stage, view.fraction, view.elapsed, view.left))
        if view.version != drawn and view.stages and time.monotonic() - last_draw >= redraw:
            _draw_live(view, choice, bar, chart, words_box, style, levels)
            drawn, last_draw = view.version, time.monotonic()
        run.wait_until_over(rest)  # a pass a rest, not a pass a Progress: a run moves every few ms


def _draw_live(view: RunView, choice: TrainChoice, bar, chart, words_box, style, levels) -> None:
    """The live chart in the finished chart's encoding (words.live_chart): its title, colours and level lines."""
    percent = words.percent_done(view.fraction)
    bar.progress(percent, text=f"{percent}%")  # one whole number for the bar and its text
    groups, title, groups_in_all = words.live_chart(choice, view.stages)
    spec = charts.curves_spec(groups, levels, choice.steps, style, title, groups_in_all=groups_in_all)
    chart.plotly_chart(ReadyFigure(spec), key=f"train.live.{view.version}", config=layout.still_config(),
                       alt=words.chart_alt(title or _(words.EXPERIMENT_NAMES[choice.experiment]), groups, levels))
    words_box.markdown(words.curves_in_words(groups, levels))


# --- results ---------------------------------------------------------------------------------------------------


def curves_chart(result, projector: bool, name: str, overlapping=None) -> None:
    """A finished run's loss chart with its text alternative; right under it, which of the `overlapping` curves
    lie on top of each other (if any), then every curve in words."""
    groups, levels, title = words.result_chart(result)
    style = layout.CHART_PROJECTOR if projector else layout.CHART
    spec = charts.curves_spec(groups, levels, result.config.train.steps, style, title)
    st.plotly_chart(ReadyFigure(spec), key=f"train.curves.{name}", config=download_config(f"training-{name}"),
                    alt=words.chart_alt(title or _(words.EXPERIMENT_NAMES[name]), groups, levels))
    overlap = words.overlap_text(overlapping, charts.line_loss_width(spec)) if overlapping else ""
    if overlap:
        st.caption(overlap)
    if not projector:
        with st.expander(_(words.CURVES_IN_WORDS), icon=":material/notes:"):
            st.markdown(words.curves_in_words(groups, levels))


def show_result(result, show_masked: bool, projector: bool) -> None:
    kind = type(result).__name__
    if kind == "MaskResult":
        show_mask(result, show_masked, projector)
    elif kind == "HeadsResult":
        show_heads(result, projector)
    else:
        show_dropout(result, projector)


def show_mask(result, show_masked: bool, projector: bool) -> None:
    """Both models' curves on one chart (the cheating one in view); the switch picks the model of the tiles and the
    samples beside it."""
    run = result.masked if show_masked else result.unmasked
    left, right = st.columns([1.5, 1], gap="medium")
    with left:
        groups = words.result_chart(result)[0]
        curves_chart(result, projector, "mask", overlapping=words.labelled_curves(groups))
    with right.container(key="train-story"):
        if projector:  # a hall sees the comparison of both models beside the curves; the samples give way
            st.markdown(results.mask_verdict_short(result))
        st.markdown(results.tiles_heading(run))
        panels.metric_tiles(results.mask_tiles(run), columns=2)
        if not projector:
            st.markdown(results.samples_markdown(result, run))
    if not projector:
        st.markdown(results.mask_verdict(result))


def show_heads(result, projector: bool) -> None:
    left, right = st.columns([1.5, 1], gap="medium")
    with left:
        curves_chart(result, projector, "heads")
    with right.container(key="train-story"):
        st.markdown(results.heads_verdict(result))
    st.subheader(_(words.HEADS_TABLE_HEADING), anchor=False)
    st.table(results.heads_rows(result), hide_index=True)
    if not projector:
        st.caption(_(words.HEADS_TABLE_HOW))
    scores = {(score.layer, score.head): score for score in result.heads}  # the options: one in every language
    strongest = max(scores, key=lambda which: scores[which].induction)
    shape = f"{result.config.layers}x{result.config.heads}"  # another model shape, another set of options
    # the chooser before the map, so on a phone (columns stacked) it comes first, as it does in reading order
    picked = st.radio(_(words.MAP_PICK), list(scores), index=list(scores).index(strongest), horizontal=True,
                      format_func=lambda which: _("layer {layer}, head {head}", layer=which[0], head=which[1]),
                      key=f"train.map.{shape}")
    board, notes = st.columns([1.3, 1], gap="medium")
    score = scores.get(picked, scores[strongest])
    layer, head = score.layer, score.head
    rows = range(len(result.example))
    if st.session_state.get(MAP_ROW_KEY) not in (None, *rows):
        del st.session_state[MAP_ROW_KEY]  # a row of a longer example than this one
    tokens = words.example_tokens(result)
    with notes:  # the map's rows are ~10 px tall: a chooser with a full-size target reads any of them (WCAG 2.5.8)
        row = st.selectbox(_(words.ROW_PICK), rows, index=None, key=MAP_ROW_KEY, placeholder=_(words.ROW_PICK_EMPTY),
                           format_func=lambda query: f"{query + 1} {tokens[query]}")
    style = layout.LEARNED_PROJECTOR if projector else layout.LEARNED
    spec = charts.learned_map_spec(result, layer, head, row, style)
    board.plotly_chart(ReadyFigure(spec), key="train.map_click", on_select=_map_clicked, selection_mode="points",
                       config=download_config(f"learned-layer{layer}-head{head}"),
                       alt=results.map_alt(result, layer, head))
    with notes:
        if row is not None:
            st.markdown(results.map_row_sentence(result, layer, head, row))
        if not projector:
            st.caption(_(words.MAP_HOW))
            box = st.expander(_(words.MAP_TABLE), icon=":material/table:", key="train.map_table", on_change="rerun")
            if box.open:
                with box:
                    st.table(results.map_rows(result, layer, head))


MAP_ROW_KEY = "train.map_row"  # the learned map's row put in words: chosen in its box, or by a click on the map


def _map_clicked() -> None:
    """A click on the learned map picks its row in the chooser too (one row, whichever way it was picked)."""
    chart = st.session_state.get("train.map_click")
    points = chart.selection.points if chart else []
    picked = points[0].get("y") if points else None
    if isinstance(picked, int | float):
        st.session_state[MAP_ROW_KEY] = int(picked)


def show_dropout(result, projector: bool) -> None:
    left, right = st.columns([1.5, 1], gap="medium")
    with left:
        curves_chart(result, projector, "dropout")
    with right:
        st.subheader(_(words.DROPOUT_HEADING), anchor=False)
        style = layout.CHART_PROJECTOR if projector else layout.CHART
        st.plotly_chart(ReadyFigure(charts.dropout_bars_spec(result, style)), key="train.dropout_bars",
                        config=download_config("dropout-end"), alt=results.dropout_verdict(result))
        st.table(results.dropout_rows(result), hide_index=True)
    st.markdown(results.dropout_verdict(result))


# --- lecture scenes ------------------------------------------------------------------------------------------


def scene_story(preset: str) -> None:
    """Beside a training scene's curves: the run's own numbers and the way to the experiment."""
    result = PRESETS[preset].shipped()
    st.markdown(results.scene_numbers(result))
    st.page_link("pages/7_Train_it_yourself.py", label=_(words.SCENE_LINK_LABEL), icon=":material/model_training:",
                 query_params={"exp": preset})


def scene_board(preset: str, projector: bool, links_under: bool = False) -> None:
    """A training scene's board: the shipped curves (both models of the mask experiment side by side). `links_under`:
    a live lecture's reveal, whose links row goes under the board: projected, two charts share one legend row."""
    result = PRESETS[preset].shipped()
    style = layout.CHART_PROJECTOR if projector else layout.CHART
    if preset == "mask":
        panes = [(words.model_name(run), [("", run.curves)]) for run in result.runs]
        levels = words.mask_levels(result)
    else:
        panes = [(_(words.EXPERIMENT_NAMES[preset]), [("", result.curves)])]
        levels = words.heads_levels(result)
    top = max(loss for __, groups in panes for __, curves in groups for curve in curves for loss in curve.losses)
    shared = links_under and projector and len(panes) > 1  # one legend row under both: the plots keep their height
    for index, (column, (title, groups)) in enumerate(zip(st.columns(len(panes)), panes, strict=True)):
        spec = charts.curves_spec(groups, levels, result.config.train.steps, style, title,
                                  top=max(top, *(value for __, value in levels)) * charts.HEADROOM,
                                  legend=not shared)
        column.plotly_chart(ReadyFigure(spec), key=f"scene.curves.{preset}.{index}",  # one key in every language
                            config=download_config(f"scene-{preset}"), alt=words.chart_alt(title, groups, levels))
    if shared:
        st.plotly_chart(ReadyFigure(charts.legend_spec(spec, style)), key=f"scene.legend.{preset}",
                        config=layout.still_config())
    if not projector:
        with st.expander(_(words.CURVES_IN_WORDS), icon=":material/notes:"):
            st.markdown("\n".join(words.curves_in_words(groups, levels) for __, groups in panes))
