"""The phone's page writes a question's formulas itself (no KaTeX): exponents as superscripts, and a decimal comma
written TeX's way ({,}, which keeps a formula's comma from reading as punctuation) as a plain comma."""

from __future__ import annotations

from attn_lang import _, using
from attn_phone.text import formula, inline
from attn_ui.quiz.bank import BY_ID


def test_an_exponent_is_a_superscript_in_either_decimal_sign():
    assert formula("e^{0.34} \\approx 1.40") == "e<sup>0.34</sup> ≈ 1.40"
    assert formula("e^{0{,}34}") == "e<sup>0,34</sup>"


def test_the_zero_trap_question_reads_with_commas_on_a_spanish_phone():
    with using("es"):
        shown = str(inline(_(BY_ID["pad-zero-trap"].prompt)))
    assert "<sup>0,34</sup>" in shown and "<sup>0,05</sup>" in shown
    assert "{" not in shown and "0.34" not in shown
