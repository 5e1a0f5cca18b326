"""The join QR code: a boolean matrix and a projector-sized PNG with its quiet zone, made without the network."""

from __future__ import annotations

import io
import socket

import numpy as np
import pytest
from PIL import Image

from attn_poll.qr import QUIET_ZONE, qr_matrix, qr_png

URL = "https://attention-lab.streamlit.app/Class_poll?room=ABC1DEF"
FINDER = np.array([[1] * 7, [1, 0, 0, 0, 0, 0, 1], *[[1, 0, 1, 1, 1, 0, 1]] * 3, [1, 0, 0, 0, 0, 0, 1], [1] * 7],
                  dtype=bool)  # the 7x7 square in three corners a phone's camera looks for


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("the QR code must be drawn without the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_the_matrix_is_a_qr_symbol():
    matrix = qr_matrix(URL)
    size = matrix.shape[0]
    assert matrix.dtype == bool and matrix.shape == (size, size) and (size - 21) % 4 == 0
    for corner in (matrix[:7, :7], matrix[:7, -7:], matrix[-7:, :7]):
        np.testing.assert_array_equal(corner, FINDER)
    assert not matrix[-7:, -7:].all()  # no finder in the fourth corner: that is how a phone knows which way is up
    assert not matrix.flags.writeable
    assert not np.array_equal(matrix, qr_matrix(URL.replace("ABC1DEF", "ABC1DEG")))


@pytest.mark.parametrize("target", [300, 900, 1400])
def test_the_png_has_a_white_quiet_zone_and_whole_pixel_modules(target):
    matrix = qr_matrix(URL)
    image = Image.open(io.BytesIO(qr_png(URL, target_pixels=target))).convert("L")
    pixels = np.asarray(image)  # (H, W)
    modules_across = matrix.shape[0] + 2 * QUIET_ZONE
    scale = image.width // modules_across
    assert image.width == image.height == modules_across * scale and target - modules_across < image.width <= target
    border = QUIET_ZONE * scale
    assert (pixels[:border] == 255).all() and (pixels[-border:] == 255).all()
    assert (pixels[:, :border] == 255).all() and (pixels[:, -border:] == 255).all()
    centres = pixels[border + scale // 2:-border:scale, border + scale // 2:-border:scale]  # one pixel per module
    np.testing.assert_array_equal(centres == 0, matrix)


def test_the_default_png_is_big_enough_for_a_projector():
    image = Image.open(io.BytesIO(qr_png(URL)))
    assert 800 <= image.width <= 900 and image.format == "PNG"
