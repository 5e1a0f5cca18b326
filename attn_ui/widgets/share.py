"""Below the Lab's map: the weights as CSV, where the PNG button is, and the link to this view."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

import streamlit as st

from attn_core import Result, Settings
from attn_lang import N_, _, current_language
from attn_ui.figures.svg_export import map_svg
from attn_ui.widgets import state
from attn_ui.words.export import csv_file_name, lab_root, view_url, weights_csv

LINK_KEY = "lab.link"  # whether the "Link to this view" popover is open
PNG_HINT = N_("The map as a picture: the camera button above its top right corner saves a PNG under the same "
              "name. It keeps the theme's text colour, so export in the light theme for a white slide.")


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs={Settings: repr})
def _map_svg(settings: Settings, row: int | None, lang: str) -> str:
    """The map as SVG (3 ms for 6 words, 14 ms for 16): written once per state, row and language."""
    return map_svg(state.cached_compute(settings), row=row)


def share_row(result: Result, view: Mapping[str, str]) -> None:
    """Below the map: the CSV download, where the PNG lives, and the link to this view.

    The CSV is written with each run (0.06 ms, a few hundred bytes) and served over HTTP from the replica that ran
    it. Deferred data (a callable) would be fetched over the websocket with the session id, and after a failover
    Streamlit 1.67's frontend keeps the dead replica's id: the new replica refuses it until a reload. Eager data
    gets a fresh URL from the replica the browser reconnected to. The link is worked out only while its popover
    is open (opening it reruns the Lab once).
    """
    settings = result.settings
    with st.container(key="lab-share", horizontal=True, gap="small", vertical_alignment="center"):
        st.download_button(
            _("Weights as CSV"), weights_csv(result), file_name=csv_file_name(settings),
            mime="text/csv", icon=":material/download:", key="lab.csv", width="stretch", on_click="ignore",
            help=_(PNG_HINT),
        )
        row = view.get("row") or ""
        st.download_button(
            _("Map as SVG"), _map_svg(settings, int(row) if row.isdigit() else None, current_language()),
            file_name=csv_file_name(settings).removesuffix(".csv") + ".svg", mime="image/svg+xml",
            icon=":material/image:", key="lab.svg", width="stretch", on_click="ignore",
            help=_("The map as a vector picture for slides: sharp at any size, with the colours shown here."),
        )
        add = {"add": urlencode(settings.to_query()) or "s=" + settings.sentence,
               **{key: view[key] for key in ("row", "lang", "theme") if view.get(key)}}
        st.page_link("pages/11_Your_lecture.py", label=_("Add this view to my lecture"), icon=":material/add_to_queue:",
                     query_params=add, width="stretch")
        link = st.popover(_("Link to this view"), icon=":material/link:", width="stretch", key=LINK_KEY,
                          on_change="rerun")
        if link.open:
            with link:
                root = lab_root(st.context.url)
                st.code(view_url(root, settings, **view), language=None, wrap_lines=True)
                if root:
                    # the copy button shows at all times, a phone's too (look.py)
                    st.caption(_("Press the copy button at the box's top right, or select the link. It opens the "
                                 "Lab exactly as it is now."))
                else:
                    st.caption(_("Add this to the app's address (after the last /) to open the Lab as it is now."))
