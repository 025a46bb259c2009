// The admin header's language switcher: submit the choice at once (the button is the
// fallback without script). No inline script: the admin's Content-Security-Policy.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("language-switcher");
  if (!form) return;
  const select = form.querySelector("select");
  form.querySelector(".language-switcher-submit").hidden = true;
  select.addEventListener("change", () => form.submit());
});
