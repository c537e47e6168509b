// The live page: follow the tournament's event stream; show a Swiss result's board from its
// event and read the standings again (conditional GET), redraw <main> from the server on any
// other event. Plain script, no build step. Strings shown
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
    // A round's clock event carries the whole clock: clock.js shows it, nothing is redrawn.
    if (event.type.startsWith("clock.") && window.svizzeraClock &&
        window.svizzeraClock(JSON.parse(event.data).data)) {
      document.getElementById("live").dataset.lastEventId = String(lastEventId);
      return;
    }
    // A Swiss result carries its match, not the standings (they grow with the field): the board
    // is updated in place and the standings are read again. Anything else is redrawn.
    const data = event.type.startsWith("result.") ? JSON.parse(event.data).data : null;
    if (fetching || !data || !patchBoard(data)) {
      refresh();
    } else if (!(data.version <= standingsVersion)) {
      wanted = data.version;
      readStandings();
    }
  }

  // -- a Swiss result: its board in place --------------------------------------------------
  function points(value) {
    const whole = Math.trunc(value);
    const half = Math.abs(value - whole) === 0.5 ? "½" : "";
    return whole === 0 && half ? (value < 0 ? "-½" : "½") : `${whole}${half}`;
  }

  function patchBoard(data) {
    const main = document.getElementById("live");
    const match = data.match;
    const cell = main.querySelector(`td.score[data-match="${match.id}"]`);
    if (match.stage !== "swiss" || data.status !== main.dataset.status || !cell) return false;
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
    main.dataset.lastEventId = String(lastEventId);
    return true;
  }

  // -- the standings, read again -------------------------------------------------------------
  // The version of the standings shown: a result's event with a version not above it is in them.
  let standingsVersion = Number(document.getElementById("live").dataset.version) || 0;
  const etags = new Map();  // URL -> ETag of the copy last applied: 304 while nothing changed
  // One read at a time; results arriving meanwhile (a bulk request's burst, a backlog after a
  // reconnect) are folded into one more read once it is done, none if that read included them.
  // A room of screens gets each event at the same moment: each waits a random part of
  // READ_SPREAD_MS first, so their reads do not all arrive at once, and reads start at least
  // READ_GAP_MS apart, so results coming one after another cost a page one read per gap.
  const READ_SPREAD_MS = 1000;
  const READ_GAP_MS = 3000;
  let lastReadAt = -Infinity;
  let reading = false;
  let readAgain = false;
  let wanted = 0;  // the version of the latest result seen (undefined: an event without one)

  function versionOf(etag) {
    return Number((etag || "").replace(/^W\//, "").replaceAll('"', "")) || 0;
  }

  async function readStandings() {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        const pause = Math.max(Math.random() * READ_SPREAD_MS, lastReadAt + READ_GAP_MS - performance.now());
        await new Promise((resolve) => setTimeout(resolve, pause));
        if (wanted <= standingsVersion) break;  // a redraw meanwhile showed them
        lastReadAt = performance.now();
        const tables = document.querySelectorAll("#standings table.table");
        for (const group of [...tables].map((table) => table.dataset.group)) {
          const url = body.dataset.standings + (group ? `?group=${group}` : "");
          const etag = etags.get(url);
          const response = await fetch(url, {
            cache: "no-store", headers: etag ? { "If-None-Match": etag } : {},
          });
          if (response.status === 304) continue;
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const standings = await response.json();
          const tag = response.headers.get("ETag");
          // The page may have been redrawn meanwhile, from a later state than this read.
          if (versionOf(tag) < standingsVersion) continue;
          const selector = group ? `table.table[data-group="${group}"]` : "table.table";
          const table = document.querySelector(`#standings ${selector}`);
          if (!table || !applyRows(table, standings.rows)) {
            refresh();  // not what the page shows (a player added meanwhile): redraw instead
            return;
          }
          etags.set(url, tag);
          standingsVersion = Math.max(standingsVersion, versionOf(tag));
        }
      } while (readAgain && !(wanted <= standingsVersion));
      arrange();
    } catch (error) {
      show("offline");
      setTimeout(readStandings, retryMs);
    } finally {
      reading = false;
    }
  }

  // The rows of a standings read into the table: figures, the qualifying mark, the order.
  // False when the table's players are not the read's.
  function applyRows(table, rows) {
    const main = document.getElementById("live");
    const tbody = table.tBodies[0];
    const lines = rows.map((row) => [tbody.querySelector(`tr[data-player="${row.player_id}"]`), row]);
    if (lines.some(([tr]) => !tr) || lines.length !== tbody.rows.length) return false;
    for (const [tr, row] of lines) {
      const figures = {
        rank: row.rank, played: row.played, wins: row.wins, draws: row.draws,
        losses: row.losses, points: points(row.points), buchholz: points(row.buchholz),
        goal_difference: row.goal_difference > 0 ? `+${row.goal_difference}` : `${row.goal_difference}`,
      };
      let changed = false;
      for (const td of tr.querySelectorAll("td[data-col]")) {
        const text = String(figures[td.dataset.col]);
        if (td.textContent !== text) {
          td.textContent = text;
          changed = true;
        }
      }
      changed = tr.classList.contains("qualified") !== row.qualified || changed;
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
      if (changed) flash(tr);
    }
    lines.forEach(([tr]) => tbody.append(tr));  // the read's order: by rank
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
    standingsVersion = Math.max(standingsVersion, Number(fresh.dataset.version) || 0);
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
      items.forEach((item) => item.classList.remove("off"));
      const even = evenly(view, items, pages);
      even.forEach((rows, index) => slides.push({ view, rows, index, count: even.length }));
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

  // The same number of pages, their rows shared out evenly (40 players: 10 and 10 boards, not
  // 19 and 1), kept only if each of those pages fits; else the pages as filled.
  function evenly(view, items, pages) {
    if (pages.length < 2) return pages;
    const size = Math.ceil(items.length / pages.length);
    const even = [];
    for (let at = 0; at < items.length; at += size) even.push(items.slice(at, at + size));
    const fit = even.length === pages.length && even.every((rows) => {
      const keep = new Set(rows);
      items.forEach((item) => item.classList.toggle("off", !keep.has(item)));
      return fits();
    });
    items.forEach((item) => item.classList.remove("off"));
    return fit ? even : pages;
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
    const heading = slide.view.querySelector("h2");
    if (heading) heading.dataset.page = slide.count > 1 ? `${slide.index + 1}/${slide.count}` : "";
    if (slide.count > 1) {
      const keep = new Set(slide.rows);
      slide.view.querySelectorAll("[data-item]").forEach((el) => {
        if (!keep.has(el)) el.classList.add("off");
      });
    }
  }

  // -- why this pairing: a board tapped shows its explanation ---------------------------------
  // The round's explanation (GET …/rounds/{n}/explanation in the page's language) is read once
  // per round and kept; a redraw for a new round points to another URL.
  const why = document.getElementById("why");
  const explanations = new Map();  // URL -> the explanation read (a promise)

  function explanationOf(url) {
    if (!explanations.has(url)) {
      explanations.set(url, fetch(url).then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json();
      }));
      explanations.get(url).catch(() => explanations.delete(url));
    }
    return explanations.get(url);
  }

  async function explain(target) {
    const main = document.getElementById("live");
    const url = main.dataset.explanation;
    if (!url) return;
    const board = target.dataset.board;
    const title = why.querySelector(".who");
    const list = why.querySelector(".steps");
    title.textContent = board === "bye" ? why.dataset.bye : `${why.dataset.boardWord} ${board}`;
    list.replaceChildren(item(why.dataset.loading));
    why.hidden = false;
    why.dataset.for = board;
    for (const row of main.querySelectorAll("[data-board].picked")) row.classList.remove("picked");
    target.classList.add("picked");
    try {
      const explanation = await explanationOf(url);
      if (why.dataset.for !== board) return;  // another board was tapped meanwhile
      const wanted = board === "bye" ? null : Number(board);
      const placements = explanation.placements.filter((p) => p.board === wanted);
      const steps = placements.flatMap((p) => p.steps);
      if (placements.length) {
        title.textContent += ": " + placements.map((p) => p.players.map((x) => x.name).join(" – ")).join(", ");
      }
      const shown = steps.length ? steps : explanation.steps;  // not explained: the round's word
      list.replaceChildren(...shown.map((step) => item(step.text, step.rule)));
    } catch (error) {
      list.replaceChildren(item(why.dataset.failed));
    }
  }

  function item(text, rule) {
    const li = document.createElement("li");
    li.textContent = text;
    if (rule) li.dataset.rule = rule;
    return li;
  }

  function closeWhy() {
    why.hidden = true;
    delete why.dataset.for;
    for (const row of document.querySelectorAll("[data-board].picked")) row.classList.remove("picked");
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest("#round [data-board]");
    if (target) explain(target);
    else if (event.target.closest("#why .close")) closeWhy();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeWhy();
    const target = event.target.closest && event.target.closest("#round [data-board]");
    if (target && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      explain(target);
    }
  });

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
