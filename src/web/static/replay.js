/* global document */
// Replay scrubber (src/web/match-views.ts replayPage): shows the rounds up to the chosen one. Without
// script every round stays visible.
(() => {
  'use strict';
  const input = document.getElementById('scrub');
  const out = document.getElementById('scrub-out');
  if (!input) return;
  const show = () => {
    const upTo = Number(input.value);
    for (const s of document.querySelectorAll('.replay-round')) s.hidden = Number(s.dataset.round) > upTo;
    if (out) out.textContent = String(upTo);
  };
  input.addEventListener('input', show);
  show();
})();
