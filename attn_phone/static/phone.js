// The phone's page script (attn_phone): follow the room, send answers, keep a second tab in step. No framework.
//
// The page is drawn by the server. This script keeps one stream open on /j/<CODE>/events (server-sent events) from
// the stamp the page was drawn with; at each move of the room the server writes the room's new page (the same for
// every phone), and the script swaps it in and writes in this student's own answer (the sentence that fits, the button
// pressed, the number in the box). Where a stream cannot be kept (no EventSource, a refusal), it holds one request at
// a time on /j/<CODE>/wait instead, which the server answers at a move. An answer is posted with fetch; the reply says what was counted. Tabs of one browser tell each other of an
// answer through BroadcastChannel. Without this script the forms post and the server redirects back to the page.
"use strict";
(() => {
  const page = document.getElementById("phone");
  if (!page || !page.dataset.code) return;
  const code = page.dataset.code;
  const base = page.querySelector("form.vote") ? new URL(page.querySelector("form.vote").action).pathname
    .replace(/\/vote$/, "") : location.pathname.replace(/\/$/, "");
  const chosenLang = new URLSearchParams(location.search).get("lang");
  const withLang = (url) => chosenLang ? url + (url.includes("?") ? "&" : "?") + "lang=" +
    encodeURIComponent(chosenLang) : url;
  const csrfMeta = document.querySelector('meta[name="csrf"]');
  const csrf = csrfMeta ? csrfMeta.content : "";
  const votes = new Map();  // "q.r" -> {option, say, shown}: this student's answers, as counted, and their words
  const tabs = "BroadcastChannel" in window ? new BroadcastChannel("attn-phone") : null;
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  let waiting = null;
  let stream = null;  // the open EventSource, while the page follows the room that way

  const current = () => document.getElementById("phone");
  const facts = (main) => { try { return JSON.parse(main.dataset.facts || "{}"); } catch (e) { return {}; } };

  const seed = (main) => {  // the server's word on this student's answer in the round on screen
    let my = null;
    try { my = JSON.parse(main.dataset.my || "null"); } catch (e) { my = null; }
    if (!my || my.option === null || my.option === undefined) return;
    const q = main.dataset.q, r = Number(main.dataset.r);
    votes.set(q + "." + (my.carried ? 1 : r), {option: my.option, say: my.say, shown: my.shown});
  };

  const mine = (main) => {  // [answer, carried] in the round on screen: a revote carries the first round's answer
    const q = main.dataset.q, r = Number(main.dataset.r);
    if (votes.has(q + "." + r)) return [votes.get(q + "." + r), false];
    if (r === 2 && votes.has(q + ".1")) return [votes.get(q + ".1"), true];
    return [null, false];
  };

  const which = (main, option, carried, known) => {  // the same rule as screens.pick
    if (option === null || option < 0 || option >= (known.options || 0)) return "none";
    if (main.dataset.phase === "voting") return carried ? "carried" : "mine";
    if (known.right && main.dataset.phase === "revealed") return known.right.includes(option) ? "right" : "off";
    return "mine";
  };

  const apply = (main) => {  // write this student's answer into the page
    const known = facts(main);
    const [answer, carried] = mine(main);
    const option = answer ? answer.option : null;
    const when = which(main, option, carried, known);
    for (const said of main.querySelectorAll(".said[data-when]")) {
      said.hidden = said.dataset.when !== when;
      for (const place of said.querySelectorAll("[data-mine]")) {
        place.textContent = when === "none" ? "" : answer.say;
      }
    }
    for (const button of main.querySelectorAll("button.option")) {
      button.setAttribute("aria-pressed", String(Number(button.value) === option));
    }
    const box = main.querySelector("input[name=typed]");
    if (box && answer && answer.shown && document.activeElement !== box && !box.value) box.value = answer.shown;
    for (const field of main.querySelectorAll('input[name="csrf"]')) field.value = csrf;
  };

  const announce = (main, typing) => {  // a new question or phase: said to a screen reader; the focus moves to its
    const heading = main.querySelector("#question-heading");  // heading unless the student was typing
    const text = main.querySelector("#question-text");
    const live = document.getElementById("announce");
    if (live) live.textContent = [heading, text].filter(Boolean).map((node) => node.textContent.trim()).join(" ");
    if (heading && !typing) heading.focus({preventScroll: false});
  };

  const swap = (html) => {
    const before = current();
    const holder = document.createElement("template");
    holder.innerHTML = html.trim();
    const next = holder.content.firstElementChild;
    if (!next || next.id !== "phone") return;
    const moved = before.dataset.q !== next.dataset.q || before.dataset.r !== next.dataset.r ||
      before.dataset.phase !== next.dataset.phase;
    const typing = document.activeElement;
    const wasTyping = !!(typing && typing.tagName === "INPUT" && typing.type !== "hidden" && typing.value);
    const keep = typing && typing.name === "typed" && before.dataset.q === next.dataset.q &&
      before.dataset.r === next.dataset.r ? typing.value : null;
    seed(next);
    before.replaceWith(next);
    if (keep !== null) {
      const box = next.querySelector("input[name=typed]");
      if (box) box.value = keep;
    }
    apply(next);
    if (moved) announce(next, wasTyping);
  };

  const note = (text) => {
    const place = current().querySelector("[data-note]");
    if (place) place.textContent = text || "";
  };

  const fresh = async () => {  // this phone's own page now (the recap; after the page comes back from the cache)
    try {
      const answer = await fetch(withLang(base + "/now"), {cache: "no-store", headers: {Accept: "application/json"}});
      const told = await answer.json();
      if (told.reload) { location.reload(); return; }
      if (told.html) swap(told.html);
      else if (told.error) note(told.error);
    } catch (error) { /* the next wait tries again */ }
  };

  const follow = async () => {
    let failures = 0;
    for (;;) {
      const main = current();
      const since = main.dataset.stamp;
      const stop = new AbortController();
      waiting = stop;
      let told = null, status = 0;
      try {
        const answer = await fetch(withLang(base + "/wait?since=" + encodeURIComponent(since)),
          {cache: "no-store", signal: stop.signal, headers: {Accept: "application/json"}});
        status = answer.status;
        told = await answer.json();
      } catch (error) { told = null; }
      waiting = null;
      if (told && told.html) { failures = 0; swap(told.html); continue; }
      if (told && told.mine) { failures = 0; await fresh(); await pause(1000); continue; }
      if (told && told.stamp) { failures = 0; continue; }
      if (told && told.error) note(told.error);
      if (status === 404) { await pause(30000); continue; }  // the room is gone: ask now and then
      failures += 1;
      await pause(Math.min(1000 * failures, 5000));
    }
  };

  const listen = () => {  // follow the room on a stream; where that cannot be kept, on held requests (follow)
    if (!("EventSource" in window)) { follow(); return; }
    const since = current().dataset.stamp || "";
    const opened = new EventSource(withLang(base + "/events?since=" + encodeURIComponent(since)));
    stream = opened;
    opened.onmessage = async (event) => {  // a move: {stamp, html}, or {stamp, mine} at the end (the recap is ours)
      let told = null;
      try { told = JSON.parse(event.data); } catch (error) { return; }
      if (told.html) swap(told.html);
      else if (told.mine) await fresh();
    };
    opened.addEventListener("gone", (event) => {  // the room is gone, or its database: say so, then ask now and then
      let told = {};
      try { told = JSON.parse(event.data); } catch (error) { told = {}; }
      note(told.error || "");
      opened.close();
      if (stream === opened) { stream = null; follow(); }
    });
    opened.onerror = () => {  // a dropped stream is opened again by the browser; a refused one is not: fall back
      if (opened.readyState === EventSource.CLOSED && stream === opened) { stream = null; follow(); }
    };
  };

  const again = () => {  // back from a sleep or the cache: a stream that may have died silently is opened afresh
    if (stream) { stream.close(); stream = null; listen(); }
    else if (waiting) waiting.abort();
  };

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.classList || !form.classList.contains("vote")) return;
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form));
    const by = event.submitter;
    if (by && by.name) body.set(by.name, by.value);
    body.set("csrf", csrf);
    const main = current();
    form.setAttribute("aria-busy", "true");
    let told = null;
    try {
      const answer = await fetch(withLang(form.action), {method: "POST", body, cache: "no-store",
        headers: {Accept: "application/json"}});
      told = await answer.json();
    } catch (error) { told = {sent: false, note: main.dataset.offline || ""}; }
    form.removeAttribute("aria-busy");
    if (told && told.sent) {
      votes.set(told.q + "." + told.r, {option: told.option, say: told.say, shown: told.shown});
      const box = form.querySelector("input[name=typed]");
      if (box && told.shown) box.value = told.shown;
      apply(current());
      note(told.note || "");
      if (tabs) tabs.postMessage({code, q: told.q, r: told.r, option: told.option, say: told.say, shown: told.shown});
    } else {
      note(told && told.note ? told.note : "");
      if (told && told.key === "stale") setTimeout(() => location.reload(), 1500);
    }
  });

  if (tabs) {
    tabs.onmessage = (event) => {
      const said = event.data || {};
      if (said.code !== code || typeof said.option !== "number") return;
      votes.set(said.q + "." + said.r, {option: said.option, say: said.say, shown: said.shown});
      apply(current());
    };
  }
  window.addEventListener("pageshow", (event) => { if (event.persisted) { fresh(); again(); } });
  document.addEventListener("visibilitychange", () => {  // back from a sleep: ask again at once
    if (!document.hidden) again();
  });

  seed(page);
  apply(page);
  listen();
})();
