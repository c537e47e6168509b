// The season's live page: ask for the page again every data-poll seconds, conditional on its
// ETag (304: nothing changed, no table computed), and swap <main> when the table changed.
// The page carries its own ETag (data-etag), so the first ask is conditional too.
"use strict";
(function () {
  const seconds = Number(document.body.dataset.poll || "30");
  let etag = document.body.dataset.etag || null;

  async function refresh() {
    if (document.hidden) return;
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const answer = await fetch(location.href, { headers, cache: "no-store" });
      if (answer.status === 304 || !answer.ok) return;
      const fresh = answer.headers.get("ETag");
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const main = page.getElementById("season");
      if (main) document.getElementById("season").replaceWith(main);
      etag = fresh;
    } catch (_) {
      // offline for now: the next tick tries again
    }
  }

  refresh();
  setInterval(refresh, seconds * 1000);
  document.addEventListener("visibilitychange", refresh);
})();
