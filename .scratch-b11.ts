import { createMatch, closeRound, labIdsFor } from './src/env';
const arch = ['cooperative','selfish','deadline_panicked','deceptive','retaliatory'] as const;
const seed = 11; const task = 'coalition_market';
const labs = labIdsFor(task, seed); const scripted: any = {}; labs.forEach((l,i)=>scripted[l]=arch[i%5]);
let s = createMatch({task, seed, scripted});
for (let i = 0; i < 5; i++) s = closeRound(s).state;
const t0 = performance.now(); let n = 0;
while (performance.now() - t0 < 5000) { closeRound(s, {judge: null}); n++; }
console.log((1e3*(performance.now()-t0)/n).toFixed(1), 'us');
