"""A real browser on another origin: Chromium's own preflight, then the write, then the headers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from tests.browser.pages import page_server
from tests.chromium import chromium, run_chromium
from tests.server import serve

# Creating with a JSON body and generating with `Authorization` are both preflighted by the
# browser; the page reports what it could see of each answer.
PAGE = """<!doctype html><meta charset="utf-8"><title>front end</title><body>running</body>
<script>
(async () => {
  const api = new URL(location).searchParams.get("api");
  const seen = {};
  try {
    const players = ["Rossi", "Bianchi", "Verdi", "Neri"].map((name) => ({name}));
    const created = await fetch(api + "/v1/tournaments", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({name: "From the browser", players}),
    });
    const body = await created.json();
    seen.created = created.status;
    seen.location = created.headers.get("Location");
    seen.etag = created.headers.get("ETag");
    const round = await fetch(api + "/v1/tournaments/" + body.id + "/rounds", {
      method: "POST",
      headers: {"Authorization": "Bearer " + body.organizer_token},
    });
    seen.round = round.status;
    seen.round_etag = round.headers.get("ETag");
    seen.matches = (await round.json()).matches.length;
  } catch (error) {
    seen.error = String(error);
  }
  document.body.textContent = "RESULT" + JSON.stringify(seen) + "END";
})();
</script>
"""


def open_page(binary: str, origin: str, api: str, profile: Path) -> dict[str, Any]:
    page = f"{origin}/page.html?api={api}"
    dom = run_chromium(binary, page, profile, "--virtual-time-budget=20000", "--dump-dom")
    found = re.search(r"RESULT(.*)END", dom)
    assert found is not None, dom[-2000:]
    result: dict[str, Any] = json.loads(found.group(1))
    return result


def test_a_page_on_a_listed_origin_writes_and_one_elsewhere_is_stopped(
    tmp_path: Path, sqlite_url: str
) -> None:
    binary = chromium()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "page.html").write_text(PAGE, encoding="utf-8")
    url = sqlite_url
    with (
        page_server(tmp_path / "site") as front_end,
        page_server(tmp_path / "site") as elsewhere,
        serve(url, cors_origins=front_end) as api,
    ):
        allowed = open_page(binary, front_end, api, tmp_path / "p1")
        stopped = open_page(binary, elsewhere, api, tmp_path / "p2")
        created = httpx.get(f"{api}/v1/tournaments").json()["items"]

    assert allowed["created"] == 201, allowed
    assert allowed["location"].startswith("/v1/tournaments/")
    assert allowed["etag"] == '"1"'
    assert (allowed["round"], allowed["matches"], allowed["round_etag"]) == (201, 2, '"2"')
    assert stopped == {"error": "TypeError: Failed to fetch"}
    # The refused preflight kept the write from being sent at all.
    assert [t["name"] for t in created] == ["From the browser"]


# A "simple" request: POST with `Content-Type: text/plain` is sent without a preflight, so only
# the server can keep it from creating a tournament (and the page from reading its token).
SIMPLE_PAGE = """<!doctype html><meta charset="utf-8"><title>elsewhere</title><body>running</body>
<script>
(async () => {
  const api = new URL(location).searchParams.get("api");
  const seen = {};
  try {
    const trf = "012 From elsewhere\\rXXR 3\\r" + [1, 2, 3, 4].map(
      (n) => "001 " + String(n).padStart(4) + "      " + ("Player " + n).padEnd(33) + " 1500\\r"
    ).join("");
    const created = await fetch(api + "/v1/tournaments", {
      method: "POST", headers: {"Content-Type": "text/plain"}, body: trf,
    });
    seen.status = created.status;
    const body = await created.json();
    seen.code = body.code;
    seen.token = body.organizer_token || null;
  } catch (error) {
    seen.error = String(error);
  }
  document.body.textContent = "RESULT" + JSON.stringify(seen) + "END";
})();
</script>
"""


def test_with_star_a_page_elsewhere_reads_but_cannot_create_by_a_simple_request(
    tmp_path: Path, sqlite_url: str
) -> None:
    binary = chromium()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "page.html").write_text(SIMPLE_PAGE, encoding="utf-8")
    url = sqlite_url
    with page_server(tmp_path / "site") as elsewhere, serve(url, cors_origins="*") as api:
        seen = open_page(binary, elsewhere, api, tmp_path / "p")
        created = httpx.get(f"{api}/v1/tournaments").json()["items"]
    # `*` lets the page read the answer: the refusal, which holds no token.
    assert seen == {"status": 403, "code": "cross_origin_write", "token": None}, seen
    assert created == []
