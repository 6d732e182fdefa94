import { createMatch, applyAction, closeRound } from './src/env';
const s0 = createMatch({ task: 'coalition_market', seed: 3 });
let s = s0;
const perRound = new Array(12).fill(0), cnt = new Array(12).fill(0); let ta = 0, n = 0;
const t0 = performance.now();
while (performance.now() - t0 < 4000) { for (let i=0;i<100;i++) { if (s.over) s = s0; const a = performance.now(); s = applyAction(s, 'lab_0', { action_type: 'wait' }).state; const b = performance.now(); const r = s.round; s = closeRound(s, {judge: null}).state; const c = performance.now(); ta += b - a; perRound[r] += c - b; cnt[r]++; n++; } }
console.log('apply', (1e3*ta/n).toFixed(2), 'us; close per round:', perRound.map((t, i) => cnt[i] ? (1e3*t/cnt[i]).toFixed(2) : '-').join(' '), 'total', (1e3*(performance.now()-t0)/n).toFixed(2));
console.log(JSON.stringify(s0.shockSchedule), s0.params.maxRounds);
