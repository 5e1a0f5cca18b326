"""The join link as a QR code, drawn by segno on this machine (no network, no image library)."""

from __future__ import annotations

import io

import numpy as np
import segno

QUIET_ZONE = 4  # modules of white border; the QR standard asks for 4 so a phone finds the code's edge
PROJECTOR_PIXELS = 900  # about the height of a projected slide, so the back row's phones can read it


def qr_code(url: str) -> segno.QRCode:
    # Error level M survives a smudged projector; boost_error raises it when the link leaves room for it.
    return segno.make_qr(url, error="m", boost_error=True)


def qr_matrix(url: str) -> np.ndarray:
    """The modules without the quiet zone: True where a dark module is. Read-only."""
    rows = [tuple(bool(module) for module in row) for row in qr_code(url).matrix]
    matrix = np.array(rows, dtype=bool)  # (n, n)
    matrix.flags.writeable = False
    return matrix


def qr_png(url: str, *, target_pixels: int = PROJECTOR_PIXELS) -> bytes:
    """A black-on-white PNG with the quiet zone, scaled by whole pixels per module to about target_pixels wide."""
    code = qr_code(url)
    modules_across = code.symbol_size(border=QUIET_ZONE)[0]
    scale = max(1, target_pixels // modules_across)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=QUIET_ZONE, dark="#000000", light="#ffffff")
    return buffer.getvalue()
