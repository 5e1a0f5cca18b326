"""The Lab: the live attention map. This file only wires: widgets -> Settings -> compute -> figures.

It is also the app's entry point. `streamlit run app.py` (Community Cloud, the image, deploy/) first imports this
file as a module, finds `app` at the bottom (an st.App: this script and its pages, plus the phones' cheap check,
attn_ui/views/poll_route.py), and then runs the file as the Lab's script on every page view, as "__main__".
"""

import streamlit as st

if __name__ == "__main__":  # a page view; imported to find `app`, the file needs none of these (nor their caches)
    from attn_lang import _
    from attn_ui.widgets import lang, panels, progress, projector, share, state, theme
    from attn_ui.widgets.controls import lab_controls
    from attn_ui.widgets.join import back_to_lecture, follow_lecture_of_lab, join_switch, lecture_view
    from attn_ui.widgets.look import apply_look
    from attn_ui.widgets.nav import page_menu, sidebar_nav
    from attn_ui.widgets.page import back_to_lesson, lesson_view, newcomer_line
    from attn_ui.words.scenes import SCENES


@st.fragment
def lab() -> None:
    progress.waiting_lab()  # a saved Lab that arrived while the address held Lab keys: a link's state wins
    incoming = state.current_settings()
    on = projector.projector_on()
    projector.whole_page_follows(on)
    if not on:  # the way back to a scene goes first, above the controls: a phone shows it before anything else
        scene = projector.back_to_scene(incoming.view.get("scene"), len(SCENES))
    layout = projector.lab_layout(on)
    with layout.controls:
        projector.projector_switch()
        settings, notes = lab_controls(incoming)
    if on:  # the sidebar is hidden: its pages and language in one menu, at the top of the map's column, beside the
        # way back to a scene when there is one (the first thing the lecturer's eye meets), else in the corner the
        # map leaves empty, where it takes no height
        back = projector.scene_to_return_to(incoming.view.get("scene"), len(SCENES))
        with (layout.notes if back else layout.panel), st.container(
                key="lab-pages-row" if back else "lab-pages", horizontal=True, vertical_alignment="center"):
            scene = projector.back_to_scene(back, len(SCENES))
            page_menu()
    result = state.cached_compute(settings)
    row, row_notes = state.picked_row(incoming, len(result.tokens))
    view = {**projector.view_keys(row, layout.projector), **lang.url_view(), **theme.url_view(), "scene": scene,
            **lesson_view(), **lecture_view()}
    with layout.notes:
        panels.show_notes([*incoming.notes, *row_notes, *notes], layout.projector)
    with layout.tiles:
        panels.kpi_tiles(result, columns=1 if layout.projector else 3)
    with layout.panel:
        panels.empty_rows_notice(result)
        panels.attention_panel(result, row, style=projector.map_style(layout.projector, under_link=bool(scene)),
                               picker=True)
        panels.legend(result)
        share.share_row(result, view)
    state.remember(settings, view=view)
    progress.keep_lab(settings, own=not incoming.from_link)


def page() -> None:
    lang.choose()
    st.set_page_config(page_title=_("Attention Lab"), page_icon=":material/grid_view:", layout="wide")
    apply_look()
    follow_lecture_of_lab()  # a Lab a lecture's phone opened: no way to the scenes in its menu
    sidebar_nav()
    st.title(_("Attention Lab"))
    back_to_lesson()  # a lesson's Try-it opened the Lab: the way back is here, not in the sidebar
    back_to_lecture()  # a live lecture's phone opened the Lab: one tap back to the lecture
    newcomer_line()  # otherwise, for a first visit: where to start
    if not projector.is_on():  # a projected Lab must fit 720 px: the note is for a student's own screen
        progress.lab_back_note()  # the Lab as this browser left it last time, with the way to the default
    join_switch()  # the class poll's join code, once this browser has opened a room
    lab()


if __name__ == "__main__":  # a page view: Streamlit runs this file as the Lab's script
    page()
else:  # `streamlit run app.py` imports this file to find the app it serves
    from attn_phone.ahead import ahead_of_streamlit
    from attn_ui.views.poll_route import served

    routes = served()
    app = st.App(__file__, routes=routes, middleware=[ahead_of_streamlit(routes)])
