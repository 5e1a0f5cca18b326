"""Page features: each module (or pair) is one page's whole view, drawn by that page's script.

The class poll (poll_view, its service poll_service), Train it yourself (train_view, its runs training_runs),
Check yourself (quiz_view), the lecture scenes (scene_board, scene_nav). A view may use every other room of
attn_ui and attn_poll; the shared controls and state in attn_ui/widgets never import a view.
"""
