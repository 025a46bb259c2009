// The legal document change page: conditional questions and a live status line.
// Texts through Django's JavaScript catalog (`gettext`, `interpolate`: /i18n/catalog.js).
"use strict";

(function () {
  // --- conditional questions: shown while the answer they depend on holds ----------------------
  function currentValues(questionId) {
    const row = document.querySelector(`.question-row[data-question="${questionId}"]`);
    if (!row || row.hidden) return [];
    const fields = row.querySelectorAll("select, input, textarea");
    const values = [];
    fields.forEach((field) => {
      if (field.type === "checkbox" || field.type === "radio") {
        if (field.checked) values.push(field.value);
      } else if (field.value !== "") {
        values.push(field.value);
      }
    });
    return values;
  }

  function applyConditions() {
    // In questionnaire order: a question depends only on earlier ones.
    document.querySelectorAll(".question-row").forEach((row) => {
      const dependsOn = row.dataset.conditionQuestion;
      if (!dependsOn) return;
      row.hidden = !currentValues(dependsOn).includes(row.dataset.conditionValue);
    });
  }

  // --- status: poll the JSON view while the document is processing ----------------------------
  function pollStatus(panel) {
    const line = document.getElementById("document-status");
    if (!line || line.dataset.status !== "processing") return;
    const url = panel.dataset.statusUrl;
    const interval = Number(panel.dataset.pollMs) || 1500;
    const timer = window.setInterval(async () => {
      let payload;
      try {
        const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!response.ok) return;
        payload = await response.json();
      } catch (error) {
        return; // a missed poll is retried at the next tick
      }
      line.querySelector(".status-value").textContent = payload.statusLabel;
      line.querySelector(".stage-value").textContent = payload.stageLabel;
      line.querySelector(".version-value").textContent = payload.version;
      line.querySelector(".error-value").textContent = payload.errorCode
        ? `· ${payload.errorCode}: ${payload.errorMessage}`
        : "";
      line.className = `status-${payload.status}`;
      line.dataset.status = payload.status;
      if (payload.status !== "processing") {
        window.clearInterval(timer);
        const reload = document.getElementById("status-reload");
        reload.hidden = false;
        const done = gettext("Done: version %(version)s is %(status)s.");
        reload.firstChild.textContent = `${interpolate(done, { version: payload.version, status: payload.statusLabel }, true)} `;
        reload.querySelector(".reload-link").hidden = false;
      }
    }, interval);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById("questionnaire-form");
    if (form) {
      form.addEventListener("change", applyConditions);
      applyConditions();
    }
    const panel = document.getElementById("document-flow");
    if (panel) pollStatus(panel);
  });
})();
