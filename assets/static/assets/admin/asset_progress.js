// The asset change page: the ingestion's progress bar, polled from the API with the session
// (GET /api/v1/assets/{id}) while the asset is UPLOADED or PROCESSING. No inline script: the
// admin's Content-Security-Policy allows only the site's own files.
"use strict";

(function () {
  const WAITING = ["UPLOADED", "PROCESSING"];

  // Texts through Django's JavaScript catalog (/i18n/catalog.js, loaded before this file).
  const STATUS_LABELS = {
    UPLOADED: gettext("Uploaded"),
    PROCESSING: gettext("Processing"),
    COMPLETED: gettext("Completed"),
    FAILED: gettext("Failed"),
  };
  const STAGE_LABELS = {
    extracting: gettext("extracting"),
    chunking: gettext("chunking"),
    embedding: gettext("embedding"),
    indexing: gettext("indexing"),
  };

  function format(text, values) {
    return interpolate(text, values, true);
  }

  function describe(body) {
    const progress = body.progress;
    if (body.status === "FAILED") {
      // The reason is the API's message (English, as the API's contract says).
      return body.error ? format(gettext("Failed: %(reason)s"), { reason: body.error.message }) : STATUS_LABELS.FAILED;
    }
    if (!progress) return body.status === "UPLOADED" ? gettext("Waiting for a worker") : STATUS_LABELS[body.status] || body.status;
    const values = {
      stage: STAGE_LABELS[progress.stage] || progress.stage,
      done: progress.chunksDone,
      total: progress.chunksTotal,
    };
    let text = progress.chunksTotal !== null
      ? format(gettext("%(stage)s: %(done)s of %(total)s chunks"), values)
      : format(gettext("%(stage)s: %(done)s chunks"), values);
    if (progress.percent !== null) text += ` (${progress.percent} %)`;
    if (progress.etaSeconds !== null && body.status === "PROCESSING") {
      text += format(gettext(", about %(seconds)s s left"), { seconds: progress.etaSeconds });
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
