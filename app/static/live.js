// The live page: follow the tournament's event stream; apply a Swiss result from its event,
// redraw <main> from the server on any other event. Plain script, no build step. Strings shown
// to people come from data-* attributes that the server translated; nothing here is worded.
"use strict";

(() => {
  const body = document.body;
  const status = document.getElementById("connection");
  // Every type the stream may carry, from the server's catalogue (app/services/events.py).
  const EVENT_TYPES = body.dataset.eventTypes.split(" ");
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
    if (id <= lastEventId) return;
    lastEventId = id;
    // A Swiss result carries the match and the standings rows it changed: applied in place
    // (a room of pages costs no request). Anything else is redrawn from the server.
    if (fetching || !event.type.startsWith("result.") || !patch(JSON.parse(event.data).data)) {
      refresh();
    }
  }

  // -- a Swiss result, applied in place --------------------------------------------------------
  function points(value) {
    const whole = Math.trunc(value);
    const half = Math.abs(value - whole) === 0.5 ? "½" : "";
    return whole === 0 && half ? (value < 0 ? "-½" : "½") : `${whole}${half}`;
  }

  function patch(data) {
    const main = document.getElementById("live");
    const match = data.match;
    const cell = main.querySelector(`td.score[data-match="${match.id}"]`);
    if (match.stage !== "swiss" || data.status !== main.dataset.status || !cell) return false;
    const tables = data.group_standings
      ? Object.entries(data.group_standings)
      : [[null, data.standings]];
    const updates = [];
    for (const [group, rows] of tables) {
      const table = main.querySelector(group ? `table.table[data-group="${group}"]` : "table.table");
      for (const row of rows) {
        const tr = table && table.querySelector(`tr[data-player="${row.player_id}"]`);
        if (!tr) return false;  // not what the page shows: redraw instead
        updates.push([table, tr, row]);
      }
    }
    const result = match.result;
    const board = cell.parentElement;
    cell.textContent = !result ? "" : result.forfeit ? main.dataset.forfeit : `${result.home}–${result.away}`;
    board.classList.toggle("open", !result);
    board.classList.toggle("done", !!result);
    for (const side of ["home", "away"]) {
      const td = board.querySelector(`td.${side}`);
      td.classList.toggle("won", !!result && result.winner === side);
      td.classList.toggle("absent", !!result && (result.forfeit === side || result.forfeit === "both"));
    }
    flash(board);
    for (const [, tr, row] of updates) {
      const figures = {
        rank: row.rank, played: row.played, wins: row.wins, draws: row.draws,
        losses: row.losses, points: points(row.points), buchholz: points(row.buchholz),
        goal_difference: row.goal_difference > 0 ? `+${row.goal_difference}` : `${row.goal_difference}`,
      };
      for (const td of tr.querySelectorAll("td[data-col]")) td.textContent = figures[td.dataset.col];
      tr.classList.toggle("qualified", row.qualified);
      const badge = tr.querySelector(".badge.q");
      if (row.qualified && !badge) {
        const mark = document.createElement("span");
        mark.className = "badge q";
        mark.title = main.dataset.qualified;
        mark.textContent = main.dataset.q;
        tr.querySelector(".nm").after(mark);
      } else if (!row.qualified && badge) {
        badge.remove();
      }
      flash(tr);
    }
    for (const table of new Set(updates.map(([t]) => t))) {
      const body = table.tBodies[0];
      const rank = (tr) => Number(tr.querySelector('td[data-col="rank"]').textContent);
      [...body.rows].sort((a, b) => rank(a) - rank(b)).forEach((tr) => body.append(tr));
    }
    main.dataset.lastEventId = String(lastEventId);
    arrange();
    return true;
  }

  function flash(element) {
    element.classList.remove("changed");
    void element.offsetWidth;  // restart the animation
    element.classList.add("changed");
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
    const was = slides[slideAt];  // stays on screen through a redraw: same view, same page
    main.classList.remove("rotating");
    main.querySelectorAll(".shown, .off").forEach((el) => el.classList.remove("shown", "off"));
    slides = [];
    slideAt = 0;
    if (fits()) {
      clearInterval(rotateTimer);
      rotateTimer = 0;
      return;
    }
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
    const same = (slide) => was && slide.view.dataset.view === was.view.dataset.view;
    const keep = slides.findIndex((slide) => same(slide) && slide.index === was.index);
    showSlide(Math.max(keep >= 0 ? keep : slides.findIndex(same), 0));
    // One timer for as long as the page rotates: redraws do not hold the rotation back.
    if (!rotateTimer) {
      rotateTimer = setInterval(() => showSlide((slideAt + 1) % slides.length),
        Number(body.dataset.rotate) * 1000);
    }
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
