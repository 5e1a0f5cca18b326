"""What a phone shows for a room at one moment, as data for the page's template: the same for every phone of the
room (made once a room's move and language), with the few words that depend on the student left as variants.

A phone's own part is its answer in the current round. The page is drawn with every sentence that may say it (no
answer yet, an answer sent, a first-round answer carried into the revote; after the reveal: right, off, none), each
with a place for the answer's words; the phone's script shows the one that fits and fills the place in (phone.js),
and the server does the same for the first drawing and for a phone without JavaScript (pick()). The answer's words
for every option are in the page (`say`), so nothing about a student is asked of the server when the room moves.

Pure: no Streamlit, no web framework. Messages go through the catalogs in the phone's language (`using(lang)` around
the calls here).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from urllib.parse import urlencode

from markupsafe import Markup, escape

from attn_lang import N_, _, _n, using
from attn_phone.text import inline, paragraphs
from attn_poll import Phase, RoomState
from attn_ui.quiz.poll_questions import POLL_BY_ID, PollQuestion
from attn_ui.words import live, live_room, poll_words, room_questions
from attn_ui.words.escape import md_escape
from attn_ui.words.export import lab_query

MINE = "\x00mine\x00"  # where a sentence names the student's answer; replaced by a <span data-mine>


@dataclass(frozen=True)
class Variant:
    when: str  # "none", "mine", "carried", "right" or "off": which of the student's cases it is for
    html: Markup  # the sentence, with <span data-mine></span> where the answer's words go


@dataclass(frozen=True)
class Option:
    index: int
    label: Markup  # "A. Nothing at all", as HTML
    code: str = ""  # a class poll version's code, shown above its label


@dataclass(frozen=True)
class Screen:
    """A room as its phones show it, for one language."""

    code: str
    stamp: str  # "version:phase:expired", what the page's wait asks with (poll_route.room_view)
    phase: str
    where: str  # "Room K7Q2M9P · live lecture"
    kind: str = "lobby"  # "lobby", "ended", "number", "choice" or "discuss" (a lecturer's scene with nothing to answer)
    position: int = -1  # the question's index in the room (-1: none)
    round_number: int = 0
    heading: Markup = Markup("")
    prompt: Markup = Markup("")
    code_block: str = ""
    options: tuple[Option, ...] = ()
    say: tuple[str, ...] = ()  # an answer's words, per option (what fills a variant's place)
    shown: tuple[str, ...] = ()  # a number's grid as the box shows it, per option
    right: tuple[int, ...] | None = None  # the options counted right, once revealed (None: no right/off variants)
    box_label: str = ""
    box_hint: str = ""
    send: str = ""
    variants: tuple[Variant, ...] = ()
    reveal: Markup = Markup("")  # the answer and its reasons, after the reveal (the same for everyone)
    lab: tuple[str, str] | None = None  # (href, label): the scene's or the question's state in the Lab
    message: str = ""  # lobby and ended rooms: the one sentence they say
    live: bool = False
    facts: dict = field(default_factory=dict)  # for the script: what it needs besides the HTML

    @property
    def voting(self) -> bool:
        return self.phase == Phase.VOTING


def variant(when: str, markdown: str) -> Variant:
    html = inline(markdown)
    return Variant(when, Markup(str(html).replace(MINE, "<span data-mine></span>")))


def closed(talk: str, none: str, mine: str) -> tuple[Variant, Variant]:
    """A closed round's two sentences: `talk` (marked with N_, its {told} the student's part) told `none` or `mine`."""
    return (variant("none", _(talk, told=_(none))), variant("mine", _(talk, told=_(mine, mine=MINE))))


def filled(html: Markup, mine: str) -> Markup:
    """A variant with the student's answer written in (the first drawing, or a phone without JavaScript)."""
    return Markup(str(html).replace("<span data-mine></span>", f"<span data-mine>{escape(mine)}</span>"))


def pick(screen: Screen, mine: int | None, carried: bool) -> str:
    """Which variant a student sees: the same rule as phone.js's `which`."""
    if mine is None or not 0 <= mine < len(screen.say):
        return "none"
    if screen.phase == Phase.VOTING:
        return "carried" if carried else "mine"
    if screen.right is not None and screen.phase == Phase.REVEALED:
        return "right" if mine in screen.right else "off"
    return "mine"


@functools.lru_cache(maxsize=256)
def room_question(question_id: str | None, spec: str | None, lang: str) -> room_questions.RoomQuestion | None:
    """A lecture room's question in one language (frozen; room_questions.room_question), built once a process: a
    function of its id and stored spec alone, so no room's state is kept here. SceneUnreadable is not kept."""
    with using(lang):
        return room_questions.room_question(question_id, spec)


def asked(state: RoomState, lang: str) -> room_questions.RoomQuestion | None:
    """The room's current question if it is a lecture's (SceneUnreadable when its stored scene no longer reads)."""
    return room_question(state.question_id, state.question_spec, lang)


def lab_href(root: str, query: dict[str, str]) -> str:
    return f"{root}/?{urlencode(query)}"


def screen(state: RoomState, stamp: str, lang: str, root: str = "", lang_in_link: bool = False) -> Screen:
    """The room's screen in `lang`. `root`: the app's base path (the Lab's link); `lang_in_link`: the phone's
    language was chosen in its address, so the Lab's link keeps it."""
    with using(lang):
        try:
            found = asked(state, lang)
        except room_questions.SceneUnreadable as error:  # a forged or stale spec: the sentence, nothing to answer
            return _base(state, stamp, _("Room {code} · live lecture", code=state.code), kind="lobby", live=True,
                         message=str(error))
        if found is not None:
            return _live_screen(state, stamp, lang, found, root, lang_in_link)
        return _poll_screen(state, stamp, lang, root, lang_in_link)


def _base(state: RoomState, stamp: str, where: str, **more) -> Screen:
    return Screen(code=state.code, stamp=stamp, phase=str(state.phase), where=where,
                  position=-1 if state.question_index is None else state.question_index,
                  round_number=state.round_number, **more)


def _live_screen(state: RoomState, stamp: str, lang: str, found: room_questions.RoomQuestion, root: str,
                 lang_in_link: bool) -> Screen:
    if state.phase is Phase.ENDED:
        return _base(state, stamp, _("Room {code} · lecture ended", code=state.code), kind="ended", live=True,
                     message=_("The lecturer has ended this lecture. Here is how your predictions went."))
    asked = found.question
    where = _("Room {code} · live lecture", code=state.code)
    heading = inline(_("**Scene {number} of {count} · {title}**", number=found.number, count=state.question_count,
                       title=found.title))
    say = tuple(asked.say(option) for option in range(asked.option_count))
    common = {"live": True, "heading": heading, "prompt": paragraphs(asked.ask), "say": say}
    view = {"row": "" if found.row is None else str(found.row), "room": state.code,
            **({"lang": lang} if lang_in_link else {})}
    lab = (lab_href(root, lab_query(found.settings, **view)), _("Explore this scene in the Lab"))
    if asked.kind == "none":  # a discussion: the room talks, the phone has nothing to send
        talk = variant("none", _("Nothing to answer on your phone for this scene: talk it over with your "
                                 "neighbour."))
        revealed = state.phase is Phase.REVEALED
        return _base(state, stamp, where, kind="discuss", variants=(talk,), reveal=paragraphs(found.answer)
                     if revealed else Markup(""), lab=lab if revealed else None, **common)
    if asked.kind == "number":
        label = _("Your prediction ({unit})", unit=asked.unit_name) if asked.unit_name else _("Your prediction")
        common.update(kind="number", shown=asked.options, box_label=label, send=_("Send"),
                      box_hint=_("{low} to {high}", low=asked.options[0], high=asked.options[-1]))
    else:
        options = tuple(Option(index, inline(_("{letter}. {option}", letter=live.letter(index),
                                                option=md_escape(asked.options[index]))))  # a deck's words as typed
                        for index in range(asked.option_count))
        common.update(kind="choice", options=options)
    if state.phase is Phase.VOTING:
        variants = (
            variant("none", _("Your answer counts once you send it; you can change it until the answers are shown.")
                    if asked.kind == "number" else
                    _("Your answer counts once you tap it; you can change it until the answers are shown.")),
            variant("mine", _("Sent: **{mine}**. You can change it until the lecturer shows the answers.",
                              mine=MINE)),
            variant("carried", _("Your first answer, **{mine}**, counts in this vote too. Send another to change "
                                 "it.", mine=MINE)),
        )
        return _base(state, stamp, where, variants=variants, **common)
    if state.phase is Phase.CLOSED:
        variants = closed(N_("Answers are closed. {told} Talk to your neighbour: why did you each answer as you did?"),
                          N_("You did not answer this round."), N_("You answered {mine}."))
        return _base(state, stamp, where, variants=variants, **common)
    # revealed
    right = tuple(option for option in range(asked.option_count) if asked.right(option))
    said = {"none": _("You did not answer."),
            "right": _("You answered **{mine}**. That counts as right.", mine=MINE),
            "off": _("You answered **{mine}**. That is off.", mine=MINE)}
    truth = md_escape(asked.truth_text)  # a deck's words (its sentence) as typed
    variants = tuple(variant(when, _("**The answer: {truth}.** {said}", truth=truth, said=text))
                     for when, text in said.items())
    return _base(state, stamp, where, variants=variants, right=right, reveal=paragraphs(found.answer), lab=lab,
                 **common)


def _poll_screen(state: RoomState, stamp: str, lang: str, root: str, lang_in_link: bool) -> Screen:
    where = _("Room {code}", code=state.code)
    if state.question_index is not None:
        where = _("Room {code} · Question {number} of {count}", code=state.code, number=state.question_index + 1,
                  count=state.question_count)
    if state.round_number > 1:
        where = _("{where} · {round}", where=where, round=poll_words.round_name(state.round_number))
    if state.phase is Phase.ENDED:
        return _base(state, stamp, where, kind="ended",
                     message=_("The lecturer has ended this room. Thank you for voting."))
    question: PollQuestion | None = POLL_BY_ID.get(state.question_id or "")
    if state.phase is Phase.LOBBY or question is None:
        return _base(state, stamp, where, kind="lobby",
                     message=_("You are in. The first question appears here when the lecturer starts."))
    options = tuple(Option(index, inline(_(question.options[index]) if question.versions else
                                         _("{name}. {option}", name=question.option_name(index),
                                           option=_(question.options[index]))),
                           question.versions[index] if question.versions else "")
                    for index in range(question.option_count))
    say = tuple(question.option_name(index) for index in range(question.option_count))
    common = {"kind": "choice", "prompt": paragraphs(_(question.prompt)), "code_block": question.code,
              "options": options, "say": say}
    if state.phase is Phase.VOTING:
        variants = (variant("none", _("Tap an option to vote. You can change your vote until voting closes.")),
                    variant("mine", _("Your vote: **{mine}**. You can change it until voting closes.", mine=MINE)),
                    variant("carried", _("Your first vote, **{mine}**, counts in this round too. Tap another option "
                                         "to change it.", mine=MINE)))
        return _base(state, stamp, where, variants=variants, **common)
    if state.phase is Phase.CLOSED:
        variants = closed(N_("Voting is closed. {told} Talk to your neighbour: why did each of you pick your answer?"),
                          N_("You did not vote in this round."), N_("You voted {mine}."))
        return _base(state, stamp, where, variants=variants, **common)
    variants = (variant("none", _("You did not vote in the last round.")),
                variant("mine", _("You voted **{mine}**.", mine=MINE)))
    name = question.option_name(question.answer)
    said = (_("**The answer is {name}.**", name=name) if question.versions else
            _("**The answer is {name}.** {option}", name=name, option=_(question.options[question.answer])))
    reasons = [said, _(question.explanation)]
    reasons += [_("**Why not {name}?** {why}", name=question.option_name(index), why=_(why))
                for index, why in enumerate(question.whys) if why]
    lab = None
    if question.lab is not None:
        settings, __ = question.lab.settings()
        view = {**question.lab.view, **({"lang": lang} if lang_in_link else {})}
        lab = (lab_href(root, lab_query(settings, **view)), _(question.lab.label))
    return _base(state, stamp, where, variants=variants, reveal=paragraphs("\n\n".join(reasons)), lab=lab,
                 **common)


def recap(votes: dict[tuple[int, int], int], lang: str, questions: tuple[tuple[str, str | None], ...] | None = None
          ) -> dict:
    """A student's predictions in a lecture that has ended: the sentence over the table and its rows. `questions`:
    the room's (Poll.question_list)."""
    with using(lang):
        lines = live_room.recap_lines(votes, questions, lambda question_id, spec: room_question(question_id, spec,
                                                                                                lang))
        if not lines:
            return {"summary": _("You did not answer any scene in this lecture."), "rows": [], "head": ()}
        right = sum(line.right for line in lines)
        summary = inline(_n("**Your predictions: {right} right of the {count} scene you answered.**",
                            "**Your predictions: {right} right of the {count} scenes you answered.**", len(lines),
                            right=right))
        return {"summary": summary, "head": (_("Scene"), _("You"), _("Answer"), _("Right?")),
                "rows": [(line.number, line.mine, line.truth, line.right) for line in lines],
                "yes": _("right"), "no": _("off")}
