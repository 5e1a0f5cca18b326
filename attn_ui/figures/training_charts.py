"""Figures of the "Train it yourself" page: loss curves that grow while a model trains, the dropout bars, and the
learned attention maps (through maps.learned_cells, the Lab's own map). They draw; they never call st.*.

A chart's x axis is fixed to the whole run from the start, so a live curve grows into its frame instead of the
frame stretching under it. Reference levels (the true entropy, chance) are dotted grey lines named at their end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attn_core import maths
from attn_core.engine import HeadMap
from attn_core.training.experiments import Curve, DropoutResult, HeadsResult
from attn_lang import _, number
from attn_ui.figures import maps
from attn_ui.figures.layout import CHART, LEARNED, ChartStyle, MapStyle, base_layout
from attn_ui.figures.palette import CURVE_COLOURS, CURVE_DASHES, LEVEL_COLOUR, MODEL_COLOURS
from attn_ui.words import training_words as words
from attn_ui.words.escape import plotly_escape

HEADROOM = 1.08  # the y axis reaches this far above the highest loss or level
TOP_ROOM = 40  # px above the plot: the title on the left, Plotly's and Streamlit's toolbars on the right, so
# neither covers a level's label near the top of the plot
LEGEND_ROW = 20  # px a page chart grows by for each curve past the third: a phone wraps its legend one entry a row,
# and six entries (both mask models, three dropout p's) had squeezed the plot to a strip
HELD_OUT_PATTERN = "/"  # a held-out bar is hatched, as its curve is dashed: colour is the dropout p on both charts


def _legend(style: ChartStyle) -> dict:
    """A horizontal legend at the foot of the whole figure (container coordinates): Plotly reserves its rows as
    margin, so however many rows a narrow phone wraps it into, it stays below the x axis title."""
    return {"orientation": "h", "xref": "paper", "x": 0, "yref": "container", "y": 0, "yanchor": "bottom",
            "font": {"size": style.font}}


def _axes(style: ChartStyle, total_steps: int, top: float) -> dict:
    tick = {"size": style.font}
    return {
        "xaxis": {"range": [0, total_steps], "title": {"text": _(words.STEP_AXIS), "font": tick}, "tickfont": tick,
                  "fixedrange": True, "zeroline": False},
        "yaxis": {"range": [0, top], "title": {"text": _(words.LOSS_AXIS), "font": tick}, "tickfont": tick,
                  "fixedrange": True, "zeroline": False},
    }


def curves_spec(
    groups: Sequence[tuple[str, Sequence[Curve]]],
    levels: Sequence[tuple[str, float]],
    total_steps: int,
    style: ChartStyle = CHART,
    title: str | None = None,
    top: float | None = None,
    groups_in_all: int | None = None,
    legend: bool = True,
) -> dict:
    """Loss curves of one or more models (groups of (model label, curves); an empty label for one model) and
    reference levels (labels as training_words gives them, translated), as a plain figure dict for ReadyFigure.
    `top` fixes the y axis, so two charts side by side share one scale. `groups_in_all` is how many groups the
    finished chart will have (a live run draws fewer): it decides whether colour names the group or the curve, so a
    live chart never changes its colours. `legend=False`: no legend of its own (charts side by side that share one
    beneath them, legend_spec)."""
    traces, highest = [], max([value for __, value in levels] or [1.0])
    for index, (model, curves) in enumerate(groups):
        latest = index == len(groups) - 1
        for curve in curves:
            # several models: colour names the model; one: it names the curve
            colour = group_colour(index, groups_in_all or len(groups)) or CURVE_COLOURS.get(curve.name, LEVEL_COLOUR)
            name = words.curve_label(curve.name)
            traces.append({
                "type": "scatter", "mode": "lines", "name": plotly_escape(words.curve_name(curve, model)),
                "x": list(curve.steps), "y": list(curve.losses), "meta": plotly_escape(name),
                "line": {"color": colour, "width": 3 if latest else 2, "dash": CURVE_DASHES.get(curve.name, "solid")},
                # Translators: a curve's hover label: %{meta} is the curve's name, %{y:.4f} its loss, %{x} the step
                "hovertemplate": _("%{meta}: %{y:.4f} at step %{x}") + "<extra></extra>",
            })
            highest = max(highest, *curve.losses)
    shapes, notes = [], []
    for label, value in levels:
        shapes.append({"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": value, "y1": value,
                       "line": {"color": LEVEL_COLOUR, "width": 2, "dash": "dot"}})
        notes.append({"xref": "paper", "x": 1, "xanchor": "right", "y": value, "yanchor": "bottom",
                      "text": plotly_escape(f"{label} {number(value, '.2f')}"), "showarrow": False,
                      "font": {"size": style.font, "color": LEVEL_COLOUR}})
    height = style.height + (LEGEND_ROW * max(0, len(traces) - 3) if style == CHART else 0)  # projector: one screen
    layout = base_layout(
        height, {"l": 10, "r": 10, "t": TOP_ROOM, "b": 10},
        **_axes(style, total_steps, top or highest * HEADROOM), shapes=shapes, annotations=notes,
        legend=_legend(style), hovermode="closest", showlegend=legend,
    )
    if title:
        # pinned to the top of the figure, inside it (placed by Plotly, a 22 px title rose 2 px above the chart), over
        # the plot's middle: at the left it sat on the top of the rotated loss axis title
        layout["title"] = {"text": plotly_escape(title), "x": 0.5, "xanchor": "center", "y": 1, "yref": "container",
                           "yanchor": "top", "pad": {"t": 6}, "font": {"size": style.title_font}}
    return {"data": traces, "layout": layout}


def legend_spec(chart: dict, style: ChartStyle) -> dict:
    """One legend row for charts side by side that draw none of their own (curves_spec(legend=False)): the first
    chart's curves as Plotly draws their legend entries, colours and dashes included, with nothing else."""
    entries = [{**trace, "x": [None], "y": [None], "hoverinfo": "skip", "showlegend": True}
               for trace in chart["data"]]
    return {"data": entries, "layout": base_layout(
        round(style.font * 4.4), {"l": 0, "r": 0, "t": 0, "b": 0}, showlegend=True,  # room for two rows of entries
        legend={"orientation": "h", "x": 0.5, "xanchor": "center", "y": 1, "yanchor": "top",
                "font": {"size": style.font}, "maxheight": 1.0},  # the whole figure: no scroll bar beside one row
        xaxis={"visible": False, "fixedrange": True}, yaxis={"visible": False, "fixedrange": True})}


def group_colour(index: int, groups: int) -> str | None:
    """The colour of a chart's group when there are several (one model, one dropout p), as curves_spec colours
    it; None for a lone group, whose curves are coloured by what they measure."""
    return MODEL_COLOURS[index % len(MODEL_COLOURS)] if groups > 1 else None


def dropout_bars_spec(result: DropoutResult, style: ChartStyle = CHART) -> dict:
    """Training and held-out loss at the end, one pair of bars a dropout p, the true entropy as a level across the
    whole plot. A bar has its p's colour from the curve chart beside it (a lone p: the curves' own colours); the
    held-out bar is hatched, as the held-out curve is dashed. The numbers on the bars are printed as the table
    prints them (3 decimals)."""
    rates = [words.rate_label(run.p) for run in result.runs]
    count = len(result.runs)
    traces = []
    for name, values in (("train", [run.train_loss for run in result.runs]),
                         ("held_out", [run.held_out_loss for run in result.runs])):
        colours = [group_colour(index, count) or CURVE_COLOURS[name] for index in range(count)]
        pattern = {"shape": HELD_OUT_PATTERN if name == "held_out" else "", "fillmode": "replace", "solidity": 0.5}
        label = words.curve_label(name)
        traces.append({
            "type": "bar", "name": label, "x": rates, "y": values, "showlegend": False, "meta": label,
            "marker": {"color": colours, "pattern": pattern, "line": {"color": colours, "width": 2}},
            "text": [number(v, ".3f") for v in values], "textposition": "outside", "textfont": {"size": style.font},
            "constraintext": "none", "cliponaxis": False,  # never shrunk below the chart's font to fit a bar
            # Translators: a bar's hover label: %{meta} is the loss's name, %{y:.4f} its value, %{x} the dropout p
            "hovertemplate": _("%{meta} %{y:.4f} at %{x}") + "<extra></extra>",
        })
        traces.append({  # its legend entry in the level grey: the colours belong to the p's, not to the loss
            "type": "bar", "name": label, "x": [None], "y": [None], "hoverinfo": "skip",
            "marker": {"color": LEVEL_COLOUR, "pattern": pattern, "line": {"color": LEVEL_COLOUR, "width": 2}},
        })
    traces.append({  # the true entropy's legend entry; its line is a shape across the whole plot
        "type": "scatter", "mode": "lines", "name": f"{_(words.ENTROPY_LEVEL)} {number(result.entropy, '.2f')}",
        "x": [None],
        "y": [None], "line": {"color": LEVEL_COLOUR, "width": 2, "dash": "dot"}, "hoverinfo": "skip",
    })
    entropy_line = {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": result.entropy, "y1": result.entropy,
                    "line": {"color": LEVEL_COLOUR, "width": 2, "dash": "dot"}}
    top = max(run.held_out_loss for run in result.runs) * 1.2
    tick = {"size": style.font}
    layout = base_layout(
        style.height, {"l": 10, "r": 10, "t": TOP_ROOM, "b": 10}, barmode="group", shapes=[entropy_line],
        xaxis={"tickfont": tick, "fixedrange": True, "type": "category"},
        yaxis={"range": [0, top], "title": {"text": _(words.LOSS_AXIS), "font": tick}, "tickfont": tick,
               "fixedrange": True},
        legend=_legend(style),
    )
    return {"data": traces, "layout": layout}


def line_loss_width(spec: dict) -> float:
    """The loss the width of a curve's line covers on a curves_spec chart: curves closer than this at every step
    draw as one line. The plot is taken as tall as the figure less its margins, more than Plotly leaves it once
    the axis titles and the legend have their room, so this errs small: curves it calls one do look like one."""
    layout = spec["layout"]
    plot_height = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    widest = max((trace["line"]["width"] for trace in spec["data"] if trace.get("mode") == "lines"), default=0)
    return layout["yaxis"]["range"][1] * widest / plot_height


@dataclass(frozen=True)
class LearnedHead:
    """A trained model's head as something the Lab's map can draw (maps.ShowsAttention): its learned weights on
    one sequence. The grey cells are the ones the causal mask blocked while it ran (the core's own causal_mask);
    at inference there is no dropout, and the repeat data has no PAD."""

    weights: np.ndarray  # (T, T) read-only
    tokens: tuple[str, ...]

    def head_map(self, head: int | None = None) -> HeadMap:
        length = len(self.tokens)
        nothing = np.zeros((length, length), dtype=bool)  # (T, T)
        return HeadMap(labels=self.tokens, padded=(), weights=self.weights, weights_before_dropout=self.weights,
                       blocked_by_causal=maths.causal_mask(length), blocked_by_padding=nothing, dropped=nothing)


def learned_map_spec(result: HeadsResult, layer: int, head: int, selected_row: int | None = None,
                     style: MapStyle = LEARNED) -> dict:
    """One head's learned weights (1-based layer and head) on the example sequence, drawn by the Lab's map."""
    learned = LearnedHead(result.weight_map(layer, head), words.example_tokens(result))
    return maps.attention_map_spec(learned, selected_row=selected_row, style=style)
