// A board's result form: send the claim as JSON to …/claims and say what it did, with the
// messages the server translated (data-* attributes of the form). Plain script, no build step.
"use strict";

(() => {
  const form = document.getElementById("claim");
  const outcome = document.getElementById("outcome");
  if (!form) return;

  // data-wrong-board-code for the problem code wrong_board_code
  function message(code) {
    const key = code.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    return form.dataset[key];
  }

  function say(text, kind) {
    outcome.hidden = false;
    outcome.className = `outcome ${kind}`;
    outcome.textContent = text;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const body = {
      code: fields.get("code"),
      side: fields.get("side"),
      home: Number(fields.get("home")),
      away: Number(fields.get("away")),
    };
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const response = await fetch(form.getAttribute("action"), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (response.ok) {
        // null: the same claim again, nothing changed; it still waits or is still disputed
        const step = answer.step || (answer.state === "disputed" ? "disputed" : "claimed");
        say(message(step), step === "confirmed" ? "done" : step === "disputed" ? "refused" : "");
        outcome.dataset.step = step;
        if (step === "confirmed") form.hidden = true;
      } else {
        const text = message(answer.code || "") || form.dataset.failed.replace("{code}", answer.code || response.status);
        say(text, "refused");
        outcome.dataset.step = "";
        outcome.dataset.code = answer.code || "";
      }
    } catch (error) {
      say(form.dataset.offline, "refused");
    } finally {
      button.disabled = false;
    }
  });
})();
