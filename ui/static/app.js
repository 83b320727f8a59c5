// lading ui: the few things a page does without a round trip. Every page
// works without it: a task's page reloads, a form's buttons submit.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // A task's progress, as the job counts it, from its server-sent events.
  const task = document.querySelector("[data-events]");
  if (task && window.EventSource) {
    const bar = task.querySelector("progress");
    const text = task.querySelector(".text");
    const eta = task.querySelector(".eta");
    const events = new EventSource(task.dataset.events);
    let leaving = false;
    // Stopping leaves the page by its form: the stream is closed first, so
    // that its last event does not lead elsewhere meanwhile.
    for (const form of document.querySelectorAll("form")) {
      form.addEventListener("submit", () => { leaving = true; events.close(); });
    }
    events.addEventListener("progress", (e) => {
      const p = JSON.parse(e.data);
      if (p.total > 0) { bar.value = p.percent; bar.textContent = p.percent + "%"; } else { bar.removeAttribute("value"); }
      text.textContent = p.text;
      eta.textContent = p.eta;
    });
    events.addEventListener("done", (e) => {
      events.close();
      if (!leaving) {
        leaving = true;
        window.location.replace(JSON.parse(e.data).next);
      }
    });
  }
  // Choosing what to export with the mouse shows its attributes and
  // layouts at once. From the keyboard, where the arrows change the choice
  // as they go, the page stays until its button is pressed (WCAG 3.2.2).
  for (const sel of document.querySelectorAll("select[data-autosubmit]")) {
    let pointer = false;
    sel.addEventListener("pointerdown", () => { pointer = true; });
    sel.addEventListener("keydown", () => { pointer = false; });
    sel.addEventListener("change", () => { if (pointer) sel.form.submit(); });
  }
});
