"""Under a map: the weights as an accessible table (words/table_words.py builds it), in an expander."""

from __future__ import annotations

import streamlit as st

from attn_core import Result
from attn_lang import N_, _
from attn_ui.words.escape import md_escape
from attn_ui.words.table_words import (
    HOW_TO_READ,
    QUERY_COLUMN,
    SUM_COLUMN,
    WeightTable,
    every_row_in_words,
    table_name,
    weight_table,
)

TABLE_KEY = "lab.table"  # whether the table under the map is open, per session


def table_frame(table: WeightTable):
    """The table as a DataFrame for st.table, every user word escaped (st.table renders Markdown)."""
    import pandas as pd  # pandas comes with Streamlit; imported here so the pure part needs only NumPy

    columns = [md_escape(name) for name in table.columns]
    data = [[*cells, total] for __, cells, total in table.rows]
    index = pd.Index([md_escape(query) for query, __, __ in table.rows], name=_(QUERY_COLUMN))
    return pd.DataFrame(data, index=index, columns=[*columns, _(SUM_COLUMN)])


NARROW_KEYS = 2  # key columns a phone's part of the table holds beside the query words: "blocked (future and
# padding)" wraps onto three lines, and three such columns with the words fit 358 px


def narrow_frames(table: WeightTable) -> list:
    """The table cut into parts for a phone: each holds the query words and NARROW_KEYS key columns, the last one the
    row sums too, so no part scrolls sideways and no cell is cut (look.py shows these under 640 px, the whole table
    above)."""
    whole = table_frame(table)
    keys = list(whole.columns[:-1])
    parts = [keys[start:start + NARROW_KEYS] for start in range(0, len(keys), NARROW_KEYS)]
    parts[-1] = [*parts[-1], whole.columns[-1]]
    return [whole[part] for part in parts]


def weights_table_expander(
    result: Result, head: int | None = None, label: str = N_("The map as a table"), key: str = TABLE_KEY
) -> None:
    """Under a map: an expander holding the same weights as an accessible HTML table. `label` is a message marked
    with N_, drawn as _(label).

    The table is built only while the expander is open (opening it reruns the Lab once); it stays open, and
    follows every change, until it is closed. Closed, it costs a click nothing.
    """
    box = st.expander(_(label), icon=":material/table:", key=key, on_change="rerun")
    if box.open:
        table = weight_table(result, head)
        with box:
            st.caption(_(HOW_TO_READ))
            name = table_name(result, table.head)
            with st.container(key="map-table-wide"):
                st.table(table_frame(table), hide_index=False, alt=name)
            with st.container(key="map-table-narrow", gap="small"):
                for part in narrow_frames(table):
                    st.table(part, hide_index=False, alt=name)
            if table.head == result.view_index:  # what a click on each row of the map says, without a pointer
                st.markdown(every_row_in_words(result))


