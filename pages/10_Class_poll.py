"""Class poll: the room votes on a Check yourself question, talks, votes again, then sees the answer.

This page only wires: the URL picks the face (attn_ui/views/poll_view.py); the rooms live in a database
through attn_poll. No room in the URL: open a room or join one. `?room=CODE&host=SECRET`: the host's controls
and projector board. `?room=CODE`: a student's phone.
"""

from attn_ui.views import poll_view

face = poll_view.face()  # reads the URL and the database; draws nothing
poll_view.frame(switch=face.kind != "host")  # the host's board puts the projector switch in its tools row
if face.kind == "host":
    poll_view.host_face(face.code, face.secret, face.problem)
elif face.kind == "student":
    poll_view.student_face(face.code, face.problem)
else:
    poll_view.open_face(face.problem)
