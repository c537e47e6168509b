// The live page: listen to the tournament's event stream and redraw <main> from the server.
// Plain script, no build step. Strings shown to people come from data-* attributes that the
// server translated; nothing here is worded.
"use strict";

(() => {
  const body = document.body;
  const status = document.getElementById("connection");
  const EVENT_TYPES = [
    "tournament.created", "player.added", "player.withdrawn", "round.generated",
    "result.recorded", "result.corrected", "result.cleared", "final_phase.started",
    "tournament.finished",
  ];
  const RETRY_FIRST_MS = 1000;
  const RETRY_MAX_MS = 30000;

  let lastEventId = Number(document.getElementById("live").dataset.lastEventId) || 0;
  let source = null;
  let retryMs = RETRY_FIRST_MS;
  let reopenTimer = 0;

  function show(state) {
    status.hidden = false;
    status.dataset.state = state;
    status.textContent = status.dataset[state];
  }

  // -- the event stream ----------------------------------------------------------------------
  // EventSource reconnects by itself after a dropped connection, sending Last-Event-ID. When it
  // gives up (an error answer, e.g. a proxy's 502 while the server restarts), open a new one
  // after the last event seen, with a growing pause.
  function open() {
    clearTimeout(reopenTimer);
    source = new EventSource(`${body.dataset.events}?after=${lastEventId}`);
    source.onopen = () => {
      retryMs = RETRY_FIRST_MS;
      if (status.dataset.state === "offline") refresh();  // whatever changed meanwhile
      show("live");
    };
    source.onerror = () => {
      show("offline");
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        reopenTimer = setTimeout(open, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
  }

  function onEvent(event) {
    const id = Number(event.lastEventId);
    if (id > lastEventId) lastEventId = id;
    refresh();
  }

  // -- redrawing -----------------------------------------------------------------------------
  // One fetch at a time; events arriving meanwhile (a burst, a backlog after a reconnect) are
  // folded into one more fetch once it is done.
  let fetching = false;
  let again = false;

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        const response = await fetch(location.href, { cache: "no-store" });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = page.getElementById("live");
        if (fresh) swap(document.getElementById("live"), document.adoptNode(fresh));
      } while (again);
      if (source && source.readyState === EventSource.OPEN) show("live");
    } catch (error) {
      show("offline");
      setTimeout(refresh, retryMs);
    } finally {
      fetching = false;
    }
  }

  // Replace <main> and mark the rows whose text changed, so a new result catches the eye.
  function swap(old, fresh) {
    const before = new Map();
    for (const row of old.querySelectorAll("[data-key]")) before.set(row.dataset.key, row.textContent);
    for (const row of fresh.querySelectorAll("[data-key]")) {
      const text = before.get(row.dataset.key);
      if (text !== undefined && text !== row.textContent) row.classList.add("changed");
    }
    old.replaceWith(fresh);
    arrange();
  }

  // -- TV mode: rotate the views when they do not all fit -------------------------------------
  // Each slide shows one view; a view taller than the screen is cut into pages of whole rows.
  let slides = [];
  let slideAt = 0;
  let rotateTimer = 0;

  function fits() {
    return document.documentElement.scrollHeight <= window.innerHeight + 1;
  }

  function arrange() {
    if (!body.classList.contains("tv")) return;
    const main = document.getElementById("live");
    const current = slides[slideAt] ? slides[slideAt].view.dataset.view : null;
    clearInterval(rotateTimer);
    main.classList.remove("rotating");
    main.querySelectorAll(".shown, .off").forEach((el) => el.classList.remove("shown", "off"));
    slides = [];
    slideAt = 0;
    if (fits()) return;
    main.classList.add("rotating");
    for (const view of main.querySelectorAll(".view")) {
      view.classList.add("shown");
      const items = [...view.querySelectorAll("[data-item]")];
      let page = [];
      const pages = [page];
      if (!fits()) {
        items.forEach((item) => item.classList.add("off"));
        for (const item of items) {
          item.classList.remove("off");
          if (!fits() && page.length) {
            page.forEach((done) => done.classList.add("off"));
            page = [];
            pages.push(page);
          }
          page.push(item);
        }
      }
      pages.forEach((rows, index) => slides.push({ view, rows, index, count: pages.length }));
      items.forEach((item) => item.classList.remove("off"));
      view.classList.remove("shown");
    }
    const keep = slides.findIndex((slide) => slide.view.dataset.view === current);
    showSlide(Math.max(keep, 0));
    rotateTimer = setInterval(() => showSlide((slideAt + 1) % slides.length),
      Number(body.dataset.rotate) * 1000);
  }

  function showSlide(index) {
    const previous = slides[slideAt];
    if (previous) {
      previous.view.classList.remove("shown");
      previous.view.querySelectorAll("[data-item]").forEach((el) => el.classList.remove("off"));
    }
    slideAt = index;
    const slide = slides[index];
    slide.view.classList.add("shown");
    slide.view.dataset.page = slide.count > 1 ? `${slide.index + 1}/${slide.count}` : "";
    if (slide.count > 1) {
      const keep = new Set(slide.rows);
      slide.view.querySelectorAll("[data-item]").forEach((el) => {
        if (!keep.has(el)) el.classList.add("off");
      });
    }
  }

  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(arrange, 200);
  });
  window.addEventListener("offline", () => show("offline"));

  show("connecting");
  arrange();
  open();
})();
