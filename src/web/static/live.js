/* global document, window, EventSource */
// Live match view (src/web/routes-matches.ts): appends public feed items and swaps the state panels from
// the match's server-sent event stream; the browser resumes with Last-Event-ID after a drop. The demo view
// (data-follow) also moves to a newer live match by itself. No inline script: CSP default-src 'self'.
(() => {
  'use strict';
  const root = document.querySelector('[data-stream]');
  const follow = document.querySelector('[data-follow]');
  // The match shown: a live one (it has a stream) or, in the demo view, the last one played.
  const shown = document.querySelector('[data-match]');
  const current = shown ? shown.dataset.match : null;

  const checkNewer = () => {
    fetch('/api/live', { headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((j) => {
        if (j && j.matchId && j.matchId !== current && (j.live || !current)) window.location.reload();
      })
      .catch(() => {});
  };
  if (follow) setInterval(checkNewer, 10000);
  if (!root) return;

  const feed = document.getElementById('feed');
  const state = document.getElementById('state');
  const conn = root.querySelector('.conn');
  const status = (text) => {
    if (conn) conn.textContent = text;
  };

  const tick = () => {
    for (const t of document.querySelectorAll('.timer[data-deadline]')) {
      const left = Math.max(0, Math.round((Date.parse(t.dataset.deadline) - Date.now()) / 1000));
      t.textContent =
        left > 0 ? `closes in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'closing…';
    }
  };
  setInterval(tick, 1000);
  tick();

  const es = new EventSource(`${root.dataset.stream}?after=${encodeURIComponent(root.dataset.lastSeq || '0')}`);
  es.addEventListener('open', () => status('● live'));
  es.addEventListener('error', () => status('reconnecting…'));
  es.addEventListener('feed', (e) => {
    feed.insertAdjacentHTML('beforeend', e.data);
    root.dataset.lastSeq = e.lastEventId;
    if (follow && feed.lastElementChild) feed.lastElementChild.scrollIntoView({ block: 'end', behavior: 'smooth' });
  });
  es.addEventListener('state', (e) => {
    state.innerHTML = e.data;
    tick();
  });
  es.addEventListener('over', () => {
    status('finished');
    es.close();
    if (follow) checkNewer();
  });
})();
