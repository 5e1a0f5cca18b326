"""Which page asks which questions of the bank: what the sidebar's marks count (nav.py). Each lesson declares its
own in its address (PageAddress.questions) and Train it yourself in train_view.QUESTIONS; tests/ui/test_progress.py
keeps this table equal to them."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from attn_ui.quiz.bank import QUESTIONS

PAGE_QUESTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "pages/1_Peeking_and_the_causal_mask.py": ("pad-zero-trap",),
    "pages/2_Padding_mask.py": ("pad-one-open-cell",),
    "pages/3_Dropout.py": ("dropout-rescale",),
    "pages/4_Many_heads.py": ("heads-start-column",),
    "pages/5_Shapes_and_memory.py": ("shapes-double-context",),
    "pages/7_Train_it_yourself.py": ("train-mask-off-zero", "train-heads-layer-two", "train-dropout-gap"),
    "pages/8_Check_yourself.py": tuple(question.id for question in QUESTIONS),
})
