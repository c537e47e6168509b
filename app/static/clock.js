// The round clock on the live page: counts a round's time down from the clock's state (GET
// …/rounds/{n}/clock when the page shows a round, then every clock.* event, which live.js hands
// to window.svizzeraClock). Times are the server's: a read's measured_at is the server's "now",
// from which this page counts with its own monotonic clock (performance.now), so a TV whose
// clock is wrong still shows the right time left. At 0 it shows 0:00 and says time is up; the
// round is not ended by it. Strings come from data-* attributes the server translated.
"use strict";

(() => {
  const TICK_MS = 200;
  let shown = null;   // the ClockRead applied last (of the round the page shows)
  let anchor = null;  // {server, local}: the server's time (ms) at a local performance.now()
  let url = "";       // the clock read for the round shown

  function element() {
    return document.getElementById("clock");
  }

  function serverNow() {
    return anchor ? anchor.server + (performance.now() - anchor.local) : Date.now();
  }

  function left(clock) {
    if (clock.remaining_ms === null) return null;
    if (clock.state !== "running") return clock.remaining_ms;
    const since = Math.max(serverNow() - Date.parse(clock.measured_at), 0);
    return Math.max(clock.remaining_ms - since, 0);
  }

  // 1:05:00, 25:00, 0:59, 0:00: whole seconds, rounded up (0:00 only when the time is up)
  function format(ms) {
    const all = Math.ceil(ms / 1000);
    const h = Math.floor(all / 3600);
    const m = Math.floor((all % 3600) / 60);
    const s = String(all % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  function draw() {
    const el = element();
    if (!el) {  // no round shown (the final phase, the end)
      document.body.classList.remove("clocked");
      return;
    }
    const clock = shown && shown.round === Number(el.dataset.round) ? shown : null;
    const visible = !!clock && clock.state !== "not_started" && clock.remaining_ms !== null;
    el.hidden = !visible;
    document.body.classList.toggle("clocked", visible);
    if (!visible) return;
    const ms = left(clock);
    const up = ms === 0 && clock.state !== "ended";
    const state = up ? "up" : clock.state;
    const time = format(ms);
    if (el.dataset.state !== state) {
      el.dataset.state = state;
      el.querySelector(".word").textContent = el.dataset[state] || "";
    }
    const digits = el.querySelector(".time");
    if (digits.textContent !== time) {
      digits.textContent = time;
      if (document.body.classList.contains("tv")) fitTopBar(el);
    }
  }

  // TV: the clock sits in the top bar's right corner; the bar keeps that much room free and
  // the clock takes the bar's height (CSS variables: the page allows no inline style).
  function fitTopBar(el) {
    const bar = document.querySelector(".top");
    const style = document.body.style;
    style.setProperty("--clock-width", `${el.offsetWidth}px`);
    if (bar) style.setProperty("--top-height", `${bar.offsetHeight}px`);
  }

  // Keep the newest measurement of the round shown: an event replayed after a read is older.
  function apply(clock) {
    if (shown && shown.round === clock.round &&
        Date.parse(clock.measured_at) < Date.parse(shown.measured_at)) return;
    shown = clock;
    draw();
  }

  async function read() {
    const el = element();
    if (!el) return;
    const wanted = el.dataset.clock;
    try {
      const response = await fetch(wanted, { cache: "no-store" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const clock = await response.json();
      if (wanted !== url) return;  // the page moved to another round meanwhile
      anchor = { server: Date.parse(clock.measured_at), local: performance.now() };
      apply(clock);
    } catch (error) {
      if (wanted === url) setTimeout(read, 5000);
    }
  }

  // After live.js redraws <main> the clock element is new: read the clock again when the
  // round changed (or the page first appears), else just show what is known.
  function watch() {
    const el = element();
    const wanted = el ? el.dataset.clock : "";
    if (wanted !== url) {
      url = wanted;
      shown = null;
      if (wanted) read();
    }
    draw();
  }

  // live.js calls this with a clock.* event's data; false: the page shows no clock to update.
  window.svizzeraClock = (data) => {
    const el = element();
    if (!el || !data || !data.clock) return false;
    if (data.clock.round === Number(el.dataset.round)) apply(data.clock);
    return true;
  };

  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(watch).observe(document.body, { childList: true });
    watch();
    setInterval(draw, TICK_MS);
  });
})();
