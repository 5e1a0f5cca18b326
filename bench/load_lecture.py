"""A 50-minute lecture simulated with 150 phones: N scenes, every phone answering every scene within 20 s of its
question.

    python3 bench/load_lecture.py                                 # SQLite (a temp file), 150 phones, 27 scenes: ~12 min
    python3 bench/load_lecture.py --url postgresql+psycopg://... --scenes 9
    python3 bench/load_lecture.py --phones 10 --scenes 3 --scene-seconds 12 --answer-within 8   # a quick try
    python3 bench/load_lecture.py --timer ...                     # the old way: no route, a timed fragment per phone
    python3 bench/load_lecture.py --deploy --scenes 9             # through deploy/local.sh: HAProxy, 3 replicas, PG
    python3 bench/load_lecture.py --projector                     # the lecturer is a real host page in Chromium
    python3 bench/load_lecture.py --projector --server-cpus 0     # the server on CPU 0, phones and Chromium elsewhere

Two modes, both `streamlit run app.py`. The default (route mode) is the app as Community Cloud and the deployment
start it: a phone's browser keeps one GET /_attn/room/<CODE>/stamp?since=<drawn stamp> open (the route holds it until
the room moves, at most 20 s: a long poll) and presses the phone fragment's hidden Refresh button only when the answer
differs from the stamp its last drawing showed. --timer runs it with ATTN_LAB_STAMP_ROUTE=0 (no route, as before the
app served one): each phone reruns its timed watch fragment every 2 s and that fragment reruns the page on a change.

What is real, what is simulated (loopback only, every count and wait bounded):
- The app server is real: `streamlit run app.py` (without its route with --timer) of this working tree on 127.0.0.1, on
  SQLite (a temp file) or the database at --url. Its log is kept (--server-log) and scanned for tracebacks. With
  --deploy, `bash deploy/local.sh` instead (tests/deploy/local_deploy.py's start_local: HAProxy on a free port, three
  app.py replicas, its own PostgreSQL); phones' websockets and GETs go through the proxy (no cookie: leastconn), the
  server CPU is the three replicas' sum (HAProxy's not counted), and the log is the three replicas' logs.
- The lecturer is simulated, without a browser: the bench opens the room as Go live does (create_room over
  live.lecture_questions(), then show_scene(0)) and then calls Poll.show_scene on the database itself, as the host's
  Lecture scenes page does on every run: scene k at k x --scene-seconds, revealed (show_scene(..., revealed=True))
  --reveal-before seconds before the next one. This is simpler than driving a host browser, and it leaves out the host
  page's own runs and its board fragment (a projector polling every 1 s): no projector page runs here, so the server
  CPU below is the phones' alone.
  --projector: the lecturer is real instead. One headless Chromium page (1280x720) opens the host link in projector
  mode (`Lecture_scenes?scene=1&room=CODE&host=SECRET&mode=projector`, as Go live writes it) and the bench presses
  Page Down on it, as a clicker does: at k x --scene-seconds the next scene, --reveal-before seconds earlier the
  reveal. The host page's own run moves the room (show_scene), so "scene change" starts at the key press. Every
  0.1 s the bench reads the projected status line ("N of M answered") and the scene's title; a reading counts for
  a scene only once the title is that scene's and the line is not stale (Streamlit's data-stale). The server CPU
  then includes the host page's runs and its 1-second board fragment. A press after which the page's address has
  not reached the state it leads to within REPRESS_AFTER_S is made again, as a lecturer presses again, and counted.
- Phones are bench/phones.py's light clients (its LecturePhone: the Phone of bench/load_poll.py, over Streamlit's
  own protocol, on a lecture room), each on `Class_poll?room=CODE&v=<token>` (no XSRF cookie, so the voter token
  rides in the URL). They join during the first scene, spread over --join-seconds, then wait for the room to move:
  route mode: as PHONE_JS in the browser loops, one HTTP/1.1 GET at a time of the route's address (the address in
  the poll-stamp text the phone fragment drew) with `?since=` the drawn stamp, held by the route, on one kept-alive
  connection per phone (asyncio streams; a quick answer that changed nothing waits 2 s before the next);
  when the answer's stamp differs from the stamp in that text (or the GET failed), the Refresh button's trigger
  in a run of the phone fragment alone (the button's fragment id), and not again within 6 s for the same drawn
  stamp, as PHONE_JS waits for a refresh on its way;
  --timer: every 2 s a rerun of the watch fragment (is_auto_rerun, the id from the auto_rerun message), as the
  frontend's run_every timer does; the app reruns the whole page when the room moved.
  At a random moment in [1, --answer-within] s after a scene's question appeared on it, each phone answers: on a number
  scene the number box's value (a value on the scene's grid, live_question(n).values[random index]) and the Send
  button's trigger in one run of the phone fragment, as the browser submits a form; on a choice scene the radio's value
  (its formatted option, as the frontend sends it). The answer is the app's real callback: Poll.vote on the server's
  engine.
Measured and printed:
- scene change -> question on the phones: from the start of the show_scene call to the moment the phone received the
  new scene's question (whichever came first: the card, shown ASK_CARD_AFTER_MS after the route's answer carrying the
  scene's question unless the phone was drawn again by then, as PHONE_JS does, or the fragment's run drawing the
  question and its answer box). Both are printed apart too ("of which").
  Each question the route carries is checked against the scene's own, word for word. Scenes 2..N: the first is on
  screen when the phones join (Go live opens the room on it).
- answer -> counted: from the moment a phone sent its answer to the moment it was in the database count (Poll.counts
  for that scene, read by this process every 50 ms; not the projector page). With --projector besides: answer ->
  on the projector, the k-th answer sent in a scene against the first reading of the projected line that showed
  k or more. Matched in order per scene and option:
  the k-th answer sent for an option is counted when that option's count first reached k.
- answers lost: answers whose run finished without an error and without a refusal note (e.g. "This round is closed")
  minus the answers the database counts, over the lecture. Refused answers are printed apart.
- server CPU seconds per phone-minute: the server process's utime + stime from /proc over the lecture (after the
  joins), divided by phones x lecture minutes.
- route mode: the route's requests over the lecture, their answer time (request written -> body read), the ones that
  did not answer 200, and the Refresh runs (sent -> finished). --timer: the timer polls' round trips.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import phones  # noqa: E402  (sets sys.path for the repo, tests/browser and bench)
from phones import (  # noqa: E402
    PHONE_EVERY_S,
    REPO_ROOT,
    Answer,
    LecturePhone,
    LectureTally,
    harness,
    percentile,
    serve,
)

from attn_poll import Poll, open_store  # noqa: E402
from attn_ui.words import live  # noqa: E402
from attn_ui.words.scenes import SCENES, scene_words  # noqa: E402

MAX_PHONES = 300  # a room's cap
COUNT_EVERY_S = 0.05
JOIN_TIMEOUT_S = 120  # every phone must have drawn the first scene this long after the last one started


# --- the lecturer, the counter, the server's log --------------------------------------------------------------------


async def lecturer(poll: Poll, code: str, secret: str, tally: LectureTally, scenes: int, scene_s: float,
                   reveal_before: float) -> None:
    """show_scene on the database, as the host page does: scene k at k x scene_s, revealed reveal_before s before
    the next one. Scene 1 was shown when the room opened (Go live)."""
    loop = asyncio.get_running_loop()

    async def show(index: int, revealed: bool) -> None:
        started = time.perf_counter()
        if not revealed:
            tally.changed_at[index] = started
        await loop.run_in_executor(None, poll.show_scene, code, secret, index, revealed)
        tally.show_s.append(time.perf_counter() - started)
        if not revealed:
            tally.current = index

    await timetable(tally.lecture_start, scenes, scene_s, reveal_before, show)


async def timetable(begin: float, scenes: int, scene_s: float, reveal_before: float, act) -> None:
    """The lecture's moments: act(k, False) at begin + k x scene_s (scene 1 is on screen already), act(k, True)
    reveal_before s before the next one; returns when the last scene's time is over."""

    async def until(moment: float) -> None:
        await asyncio.sleep(max(0.0, moment - time.perf_counter()))

    for index in range(scenes):
        if index:
            await until(begin + index * scene_s)
            await act(index, False)
        await until(begin + (index + 1) * scene_s - reveal_before)
        await act(index, True)
    await until(begin + scenes * scene_s)


REPRESS_AFTER_S = 8.0  # a press whose page address has not moved this long after is made again (and counted)
PROJECTED = re.compile(r"(\d+) (?:of \d+ answered|answers?)\b")
READ_PROJECTOR = """() => {
    const status = document.querySelector('.st-key-live-status');
    const title = document.querySelector('.st-key-scene-story h3');
    return {status: status ? status.innerText : '', stale: !!(status && status.closest('[data-stale="true"]')),
            title: title ? title.innerText.trim() : '', exceptions: document.querySelectorAll(
                '[data-testid="stException"]').length};
}"""


class Projector(threading.Thread):
    """--projector: the lecturer's host page in Chromium, driven by Page Down; its status line read every 0.1 s."""

    def __init__(self, port: int, code: str, secret: str, tally: LectureTally, scenes: int) -> None:
        super().__init__(daemon=True, name="projector")
        self.url = f"http://127.0.0.1:{port}/Lecture_scenes?scene=1&room={code}&host={secret}&mode=projector"
        self.tally = tally
        self.titles = [scene_words(SCENES[n]).title for n in range(scenes)]
        self.ready = threading.Event()
        self.presses: collections.deque = collections.deque()  # from the lecturer's loop: {"event"}, gets "at"
        self.stop = threading.Event()
        self.scene, self.revealed = 0, False

    def shows(self, url: str) -> bool:
        """The host page's address is the state the presses so far lead to (?scene=n, &reveal=1 once revealed)."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
        return (query.get("scene", ["1"])[0] == str(self.scene + 1)
                and (query.get("reveal", ["0"])[0] == "1") == self.revealed)

    def run(self) -> None:
        from playwright.sync_api import Error, sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = harness.launch_browser(playwright)
                page = harness.new_context(browser, 1280, 720).new_page()
                errors = harness.collect_page_errors(page)
                page.goto(self.url, timeout=120_000)
                harness.wait_for_app(page, timeout_ms=120_000, initial_wait_ms=0)
                self.ready.set()
                pressed_at = math.inf
                while not self.stop.is_set():
                    while self.presses:
                        done = self.presses.popleft()
                        done["at"] = pressed_at = time.perf_counter()
                        page.keyboard.press("PageDown")
                        self.scene, self.revealed = (self.scene + 1, False) if self.revealed else (self.scene, True)
                        done["event"].set()
                    if self.shows(page.url):
                        pressed_at = math.inf
                    elif time.perf_counter() - pressed_at > REPRESS_AFTER_S:  # the page did not take the key
                        self.tally.repeated.append(f"scene {self.scene + 1}{' reveal' if self.revealed else ''}")
                        page.keyboard.press("PageDown")
                        pressed_at = time.perf_counter()
                    self.read(page.evaluate(READ_PROJECTOR))
                    time.sleep(0.1)
                self.tally.errors.extend(f"projector page error: {e[:120]}" for e in errors)
                browser.close()
        except Error as error:
            self.tally.errors.append(f"projector: {str(error).splitlines()[0][:160]}")
        finally:
            self.ready.set()

    def read(self, seen: dict) -> None:
        now = time.perf_counter()
        if seen["exceptions"]:
            self.tally.errors.append(f"projector: {seen['exceptions']} exception box(es) at scene {self.scene + 1}")
            self.stop.set()
        found = PROJECTED.search(seen["status"])
        if found and not seen["stale"] and self.scene < len(self.titles) and seen["title"] == self.titles[self.scene]:
            readings = self.tally.projected.setdefault(self.scene, [])
            if not readings or readings[-1][1] != int(found.group(1)):
                readings.append((now, int(found.group(1))))


async def lecturer_on_projector(projector: Projector, tally: LectureTally, scenes: int, scene_s: float,
                                reveal_before: float) -> None:
    """The lecturer's clicker on the host page: the reveal, then the next scene, at the same moments as lecturer()."""

    async def press(index: int, revealed: bool) -> None:
        done = {"event": threading.Event()}
        projector.presses.append(done)
        await asyncio.get_running_loop().run_in_executor(None, done["event"].wait, 30)
        if not revealed:
            tally.changed_at[index] = done.get("at", time.perf_counter())
            tally.current = index

    await timetable(tally.lecture_start, scenes, scene_s, reveal_before, press)


def projected_delays(tally: LectureTally, scene: int) -> list[float]:
    """answer -> on the projector for one scene: the k-th answer sent, against the first reading showing >= k."""
    readings = tally.projected.get(scene, [])
    sent = sorted(a.sent for a in tally.answers if a.scene == scene and ok(a))
    delays = []
    for k, moment in enumerate(sent, start=1):
        shown = next((at for at, count in readings if count >= k and at >= moment), None)
        if shown is not None:
            delays.append(shown - moment)
    return delays


def counter(poll: Poll, code: str, tally: LectureTally, stop: threading.Event) -> None:
    """The database count of the scene on screen, every 50 ms; each change is kept with its moment. When the room
    moves on, the scene before is read once more."""
    last: dict[int, tuple[int, ...]] = {}
    shown = tally.current
    while not stop.is_set() and time.perf_counter() < tally.deadline:
        scenes = [tally.current] if tally.current == shown else [shown, tally.current]
        shown = tally.current
        for scene in scenes:
            try:
                counts = poll.counts(code, scene)
            except Exception as error:  # noqa: BLE001 (kept as an error of the run)
                tally.errors.append(f"counter: {type(error).__name__}: {str(error)[:100]}")
                continue
            tally_now = counts.rounds[0] if counts is not None and counts.rounds else ()
            if tally_now and tally_now != last.get(scene):
                tally.counts.setdefault(scene, []).append((time.perf_counter(), tally_now))
                last[scene] = tally_now
        stop.wait(COUNT_EVERY_S)


def tracebacks(log_text: str) -> list[str]:
    """Each traceback in the server log as its last line (the exception), with how many times it came."""
    lines = log_text.splitlines()
    found = collections.Counter()
    for index, line in enumerate(lines):
        if line.startswith("Traceback"):
            tail = next((later for later in lines[index + 1:] if later and not later.startswith((" ", "Traceback"))),
                        "?")
            found[tail[:200]] += 1
    return [f"{count} x {text}" for text, count in found.most_common()]


# --- figures ------------------------------------------------------------------------------------------------------


def ok(answer: Answer) -> bool:
    return answer.finished and not answer.refused


def counted_delays(tally: LectureTally, scene: int, question: live.Live) -> list[float]:
    """answer -> counted for one scene: per option, the k-th answer sent is counted when the count first reached k."""
    history = tally.counts.get(scene, [])
    delays = []
    for option in range(question.option_count):
        sent = sorted(a.sent for a in tally.answers if a.scene == scene and a.option == option and ok(a))
        for k, moment in enumerate(sent, start=1):
            shown = next((at for at, counts in history if counts[option] >= k), None)
            if shown is not None:
                delays.append(max(0.0, shown - moment))
    return delays


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"p50 {percentile(values, 50):.2f} s, p95 {percentile(values, 95):.2f} s, max {max(values):.2f} s "
            f"over {len(values)}")


def report(args, tally: LectureTally, questions: list[live.Live], final: dict[int, tuple[int, ...]], cpu_s: float,
           bench_cpu_s: float, lecture_s: float, log_text: str, backend: str) -> None:
    phones, scenes = args.phones, args.scenes
    arrivals, missed = [], []
    per_scene = []
    for scene in range(scenes):
        changed = tally.changed_at.get(scene)
        waits = []
        for number in range(phones):
            seen = tally.seen.get((number, scene))
            if scene == 0:
                if seen is None:
                    missed.append(f"phone {number}, scene 1")
                continue
            if changed is None or seen is None:
                missed.append(f"phone {number}, scene {scene + 1}")
                continue
            waits.append(max(0.0, seen - changed))
        arrivals += waits
        delays = counted_delays(tally, scene, questions[scene])
        sent_ok = [a for a in tally.answers if a.scene == scene and ok(a)]
        per_scene.append((scene, waits, delays, len(sent_ok), sum(final.get(scene, ())),
                          collections.Counter(a.option for a in sent_ok)))
    all_delays = [d for _, _, delays, _, _, _ in per_scene for d in delays]
    finished = [a for a in tally.answers if a.finished]
    refused = [a for a in finished if a.refused]
    counted = sum(sum(c) for c in final.values())
    good = sum(ok(a) for a in tally.answers)
    wrong_option = sum(1 for scene, _, _, _, _, sent in per_scene
                       if tuple(sent.get(o, 0) for o in range(questions[scene].option_count)) != final.get(scene, ()))
    minutes = lecture_s / 60
    print(f"backend {backend} · {'timer (no route)' if args.timer else 'route'} · {phones} phones · "
          f"{scenes} scenes x {args.scene_seconds:g} s, answers 1 to "
          f"{args.answer_within:g} s after the question, reveal {args.reveal_before:g} s before the next scene · "
          f"lecture {lecture_s:.0f} s · load average {os.getloadavg()[0]:.1f} (1 min) at the end")
    start = "the lecturer's key press on the host page" if args.projector else "the start of show_scene"
    print(f"scene change -> question on the phones (scenes 2..{scenes}, from {start}): "
          f"{spread(arrivals)} (phone, scene) pairs; never drawn: {len(missed)}")
    if not args.timer:
        carded = {key: at for key, at in tally.told.items() if at < tally.boxed.get(key, math.inf)}
        for what, moments in (("in the card (the route's answer, shown after ASK_CARD_AFTER_MS unless drawn first)",
                               carded), ("answer box drawn", tally.boxed)):
            waits = [moments[(n, s)] - tally.changed_at[s] for s in range(1, scenes) for n in range(phones)
                     if (n, s) in moments and s in tally.changed_at]
            print(f"  of which: question {what}: {spread([max(0.0, w) for w in waits])}")
    print(f"show_scene call (moves and reveals): {spread(tally.show_s)}")
    print(f"answer -> counted (database count, Poll.counts every {COUNT_EVERY_S * 1000:.0f} ms): {spread(all_delays)} "
          f"answers")
    if args.projector:
        on_screen = [d for scene in range(scenes) for d in projected_delays(tally, scene)]
        print(f"answer -> on the projector (the host page's status line, read every 0.1 s): {spread(on_screen)} "
              f"answers; scenes read on it {len(tally.projected)} of {scenes}; Page Down presses made again (the "
              f"page's address had not moved {REPRESS_AFTER_S:g} s later): {len(tally.repeated)} {tally.repeated[:6]}")
    answer_runs = [a.run_s for a in finished]
    print(f"answer's own run (sent -> its run finished, 'Sent' shown in {sum(a.confirmed for a in finished)} of "
          f"{len(finished)}): {spread(answer_runs)}")
    print(f"answers: expected {phones * scenes}, sent {len(tally.answers)}, finished {len(finished)}, refused by the "
          f"app (a note) {len(refused)}, not sent {len(tally.skipped)}, finished without error {good}, counted "
          f"{counted}, lost {good - counted}")
    print(f"counted options equal the options sent: {scenes - wrong_option} of {scenes} scenes")
    print(f"server CPU {cpu_s:.1f} s over the lecture = {cpu_s / (phones * minutes):.3f} s per phone-minute "
          f"({phones} phones x {minutes:.2f} min); bench process CPU {bench_cpu_s:.1f} s")
    if args.timer:
        print(f"phone timer polls: idle {spread(tally.idle_poll_s)}; drawing the page again "
              f"{spread(tally.drawing_poll_s)}")
    else:
        held = [s * 1000 for s in tally.held_s]
        print(f"route GETs held (answered after >= 1 s: the room did not move meanwhile): {len(held)}, "
              f"p50 {percentile(held, 50):.0f} ms" if held else "route GETs held: none")
        ms = [s * 1000 for s in tally.route_s]
        answer = "none" if not ms else (f"p50 {percentile(ms, 50):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
                                        f"max {max(ms):.1f} ms")
        print(f"route GET /_attn/room/<CODE>/stamp: {len(ms)} requests over the lecture "
              f"({len(ms) / max(1e-9, phones * minutes):.1f} per phone-minute), {tally.route_all} in the whole run; "
              f"answer {answer}; not 200 or failed {len(tally.route_failed)}"
              + "".join(f"\n  {f}" for f in tally.route_failed[:4]))
        print(f"Refresh runs (the stamp moved): {spread(tally.refresh_s)}; {tally.refresh_drew} drew a new question; "
              f"data-url seen {dict(tally.stamp_urls.most_common(2))}")
    print(f"reconnects {tally.reconnects} · reconnecting notes {tally.reconnecting_notes}")
    print("per scene: question p95 / max · answer -> counted p95 / max · answers counted of finished without error")
    for scene, waits, delays, sent, count, _ in per_scene:
        question = questions[scene]
        wait = "-" if not waits else f"{percentile(waits, 95):.2f} / {max(waits):.2f} s"
        delay = "-" if not delays else f"{percentile(delays, 95):.2f} / {max(delays):.2f} s"
        print(f"  scene {scene + 1:2d} {question.kind:6s} {question.option_count:3d} options · {wait:>17s} · "
              f"{delay:>17s} · {count}/{sent}")
    problems = tally.errors + [f"phone {a.phone}, scene {a.scene + 1}: {a.refused}" for a in refused]
    print(f"errors and refusals: {len(problems)}" + "".join(f"\n  {p}" for p in problems[:12]))
    if tally.skipped or missed:
        why = collections.Counter(line.split(": ", 1)[1] for line in tally.skipped)
        print(f"not sent {len(tally.skipped)}: " + ", ".join(f"{count} {reason}" for reason, count in why.most_common())
              + f"; never drawn {len(missed)}: {missed[:6]}")
    found = tracebacks(log_text)
    total = sum(int(t.split(" x ")[0]) for t in found)
    print(f"server log tracebacks: {total}" + "".join(f"\n  {t}" for t in found[:8]))


# --- the run --------------------------------------------------------------------------------------------------------


async def lecture(args, port: int, poll: Poll, code: str, secret: str, tally: LectureTally,
                  questions: list[live.Live], pids) -> tuple[float, float, float]:
    projector = None
    if args.projector:  # the host page first, as the lecturer opens it before the room scans
        projector = Projector(port, code, secret, tally, args.scenes)
        projector.start()
        await asyncio.get_running_loop().run_in_executor(None, projector.ready.wait, 180)
    first = time.perf_counter() + 0.5
    phones = [LecturePhone(n, port, code, tally, questions, args.answer_within,
                           first + args.join_seconds * n / args.phones, args.seed, not args.timer)
              for n in range(args.phones)]
    tasks = [asyncio.create_task(phone.run()) for phone in phones]
    deadline = first + args.join_seconds + JOIN_TIMEOUT_S
    while sum((n, 0) in tally.seen for n in range(args.phones)) < args.phones and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)
    joined = sum((n, 0) in tally.seen for n in range(args.phones))
    if joined < args.phones:
        tally.errors.append(f"only {joined} of {args.phones} phones drew the first scene in time")
    await asyncio.sleep(PHONE_EVERY_S)  # every phone past its first poll
    tally.lecture_start = time.perf_counter() + 0.2
    end = tally.lecture_start + args.scenes * args.scene_seconds
    for phone in phones:
        phone.until = end
    stop = threading.Event()
    counting = threading.Thread(target=counter, args=(poll, code, tally, stop), daemon=True)
    cpu, bench_cpu = sum(map(harness.process_cpu_seconds, pids())), time.process_time()
    counting.start()
    if projector is not None:
        await lecturer_on_projector(projector, tally, args.scenes, args.scene_seconds, args.reveal_before)
    else:
        await lecturer(poll, code, secret, tally, args.scenes, args.scene_seconds, args.reveal_before)
    cpu, bench_cpu = sum(map(harness.process_cpu_seconds, pids())) - cpu, time.process_time() - bench_cpu
    lecture_s = time.perf_counter() - tally.lecture_start
    await asyncio.gather(*tasks)
    stop.set()
    counting.join(timeout=5)
    if projector is not None:
        projector.stop.set()
        projector.join(timeout=30)
    return cpu, bench_cpu, lecture_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--url", default="", help="database URL (default: SQLite in a temp folder)")
    parser.add_argument("--phones", type=int, default=150)
    parser.add_argument("--scenes", type=int, default=27, help="scenes shown, from the first (at most 27)")
    parser.add_argument("--answer-within", type=float, default=20.0,
                        help="each phone answers at a random moment in [1, this] s after the question appears")
    parser.add_argument("--scene-seconds", type=float, default=25.0, help="how long each scene stays on screen")
    parser.add_argument("--reveal-before", type=float, default=2.0,
                        help="the reveal comes this long before the next scene (at most half of scene - answer)")
    parser.add_argument("--join-seconds", type=float, default=10.0, help="the phones join over this long")
    parser.add_argument("--port", type=int, default=0, help="the app server's port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--server-log", default="", help="keep the server's log at this path")
    parser.add_argument("--timer", action="store_true",
                        help="the old way: ATTN_LAB_STAMP_ROUTE=0, each phone reruns its timed watch fragment "
                             "every 2 s (default: each phone's browser holds a GET of the HTTP stamp route)")
    parser.add_argument("--route", dest="timer", action="store_false", help="the default: the app with its route")
    parser.add_argument("--board-timer", action="store_true",
                        help="the host page's board on its one-second timer (ATTN_LAB_BOARD_ROUTE=0), as before the "
                             "boards' held route: the baseline of answer -> on the projector")
    parser.add_argument("--projector", action="store_true",
                        help="the lecturer is a host page in Chromium (projector mode), moved on by Page Down; "
                             "answer -> on the projector is read from it")
    parser.add_argument("--deploy", action="store_true",
                        help="start bash deploy/local.sh (HAProxy, three app.py replicas, its own PostgreSQL; "
                             "--url ignored) and send the phones through the proxy; server CPU is the replicas' sum")
    parser.add_argument("--server-cpus", default="",
                        help="keep the app server on these CPUs (e.g. 0) and this bench, its phones and its Chromium "
                             "on the others, so that the server's figures mean its own core(s) (default: all share)")
    args = parser.parse_args()
    if args.deploy and args.timer:
        parser.error("--deploy runs the app with its route (deploy/local.sh): no --timer")
    server_cpus = {int(c) for c in args.server_cpus.split(",") if c.strip()}
    if server_cpus:
        if args.deploy:
            parser.error("--server-cpus keeps one server process on its CPUs: not with --deploy")
        if not os.sched_getaffinity(0) > server_cpus:
            parser.error("--server-cpus must name CPUs this machine has and leave one for this bench")
        os.sched_setaffinity(0, os.sched_getaffinity(0) - server_cpus)  # threads and Chromium started later inherit
    args.phones = max(1, min(args.phones, MAX_PHONES))
    args.scenes = max(1, min(args.scenes, len(live.SCENES)))
    if not 1.0 < args.answer_within < args.scene_seconds:
        parser.error("--scene-seconds must be more than --answer-within, and --answer-within more than 1")
    args.reveal_before = max(0.0, min(args.reveal_before, (args.scene_seconds - args.answer_within) / 2))

    temp = tempfile.TemporaryDirectory(prefix="attn-lecture-")
    deployment = None
    if args.deploy:  # bash deploy/local.sh: HAProxy, three replicas of app.py, its own PostgreSQL
        from tests.deploy.local_deploy import start_local

        deployment = start_local()
        args.url = deployment.database_url
    url = args.url or f"sqlite:///{Path(temp.name) / 'poll.sqlite3'}"
    os.environ["ATTN_LAB_DATABASE_URL"] = url  # the server inherits it
    if args.board_timer:
        os.environ["ATTN_LAB_BOARD_ROUTE"] = "0"
    poll = Poll(open_store(url, application_name="attn-lab-lecture-bench"))
    questions = [live.live_question(n) for n in range(1, len(live.SCENES) + 1)]
    room = poll.create_room(live.lecture_questions())  # as Go live does, then the first scene
    poll.show_scene(room.code, room.host_secret, 0, False)
    log_path = Path(temp.name) / "server.log"
    if deployment is not None:
        port, process = deployment.proxy_port, None
        pids = lambda: [deployment.replica_pid(n) for n in (1, 2, 3)]  # noqa: E731
    else:
        port = args.port or harness.free_port()
        script, extra = phones.entry(REPO_ROOT, not args.timer)
        process = serve(port, log_path, script, extra=extra)
        if server_cpus:
            phones.load.pin_to(process.pid, server_cpus)
        pids = lambda: [process.pid]  # noqa: E731
    budget = args.join_seconds + JOIN_TIMEOUT_S + args.scenes * args.scene_seconds + 120
    tally = LectureTally(deadline=time.perf_counter() + budget)
    try:
        cpu, bench_cpu, lecture_s = asyncio.run(lecture(args, port, poll, room.code, room.host_secret, tally,
                                                        questions, pids))
        final = {}
        for scene in range(args.scenes):
            counts = poll.counts(room.code, scene)
            final[scene] = counts.rounds[0] if counts is not None and counts.rounds else ()
    finally:
        if deployment is not None:
            log_path.write_text("".join(f"--- app{n}.log\n" + (deployment.run_dir / f"app{n}.log").read_text(
                errors="replace") for n in (1, 2, 3)) + "--- haproxy.log (tail)\n" + "\n".join(
                (deployment.run_dir / "haproxy.log").read_text(errors="replace").splitlines()[-200:]))
            poll.store.engine.dispose()
            deployment.stop()
        else:
            phones.stop(process)
        if args.server_log:
            shutil.copyfile(log_path, args.server_log)
    backend = url.split(":", 1)[0] + (" · through HAProxy, 3 replicas (deploy/local.sh)" if deployment else "") + (
        f" · server on CPU {args.server_cpus}, the bench on the others" if server_cpus else "") + (
        " · lecturer: a host page in Chromium" if args.projector else " · lecturer: show_scene from the bench")
    report(args, tally, questions, final, cpu, bench_cpu, lecture_s, log_path.read_text(errors="replace"), backend)
    poll.store.engine.dispose()
    temp.cleanup()


if __name__ == "__main__":
    main()
