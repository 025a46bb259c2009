// The asset change page: the ingestion's progress bar, polled from the API with the session
// (GET /api/v1/assets/{id}) while the asset is UPLOADED or PROCESSING. No inline script: the
// admin's Content-Security-Policy allows only the site's own files.
"use strict";

(function () {
  const WAITING = ["UPLOADED", "PROCESSING"];

  function describe(body) {
    const progress = body.progress;
    if (body.status === "FAILED") return "Failed" + (body.error ? ": " + body.error.message : "");
    if (!progress) return body.status === "UPLOADED" ? "Waiting for a worker" : body.status;
    let text = `${progress.stage}: ${progress.chunksDone}`;
    if (progress.chunksTotal !== null) text += ` of ${progress.chunksTotal}`;
    text += " chunks";
    if (progress.percent !== null) text += ` (${progress.percent} %)`;
    if (progress.etaSeconds !== null && body.status === "PROCESSING") {
      text += `, about ${progress.etaSeconds} s left`;
    }
    return text;
  }

  function render(panel, body) {
    const bar = panel.querySelector("progress");
    const label = panel.querySelector(".asset-progress-label");
    const percent = body.progress ? body.progress.percent : null;
    if (percent === null) bar.removeAttribute("value");
    else bar.value = percent;
    label.textContent = describe(body);
    panel.dataset.status = body.status;
  }

  function poll(panel) {
    const interval = Number(panel.dataset.pollMs) || 1000;
    const timer = window.setInterval(async () => {
      let body;
      try {
        const response = await fetch(panel.dataset.url, {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
        });
        if (!response.ok) return;
        body = await response.json();
      } catch (error) {
        return; // a network hiccup: try again at the next tick
      }
      render(panel, body);
      if (!WAITING.includes(body.status)) window.clearInterval(timer);
    }, interval);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const panel = document.getElementById("asset-progress");
    if (panel && WAITING.includes(panel.dataset.status)) poll(panel);
  });
})();
