import { createMatch, applyAction, closeRound, labIdsFor } from './src/env';
const arch = ['cooperative','selfish','deadline_panicked','deceptive','retaliatory'] as const;
const task = 'coalition_market';
let steps = 0; const t0 = performance.now(); let seed = 0; let s = null as any;
while (performance.now() - t0 < 6000) {
  if (!s || s.over) { seed++; const labs = labIdsFor(task, seed); const scripted: any = {}; labs.slice(1).forEach((l,i)=>scripted[l]=arch[i%5]); s = createMatch({task, seed, scripted}); }
  s = applyAction(s, 'lab_0', { action_type: 'wait' }).state;
  s = closeRound(s).state;
  steps++;
}
console.log(task, Math.round(steps / ((performance.now()-t0)/1000)), 'steps/s');
