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
            st.table(table_frame(table), hide_index=False, alt=table_name(result, table.head))
            if table.head == result.view_index:  # what a click on each row of the map says, without a pointer
                st.markdown(every_row_in_words(result))


