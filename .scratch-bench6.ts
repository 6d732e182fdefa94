import { newJob, drawBlock } from './src/env/world';
import { rng } from './src/env/rng';
function bench(name: string, f: () => void) { for (let i=0;i<2000;i++) f(); const t0 = performance.now(); let n = 0; while (performance.now() - t0 < 800) { for (let i=0;i<100;i++) f(); n+=100; } console.log(name, (1e3*(performance.now()-t0)/n).toFixed(3), 'us'); }
bench('newJob', () => newJob({ id: 'j', owner: 'l', gpuHoursRequired: 2, deadlineRound: 3, baseValue: 3, urgencyMultiplier: 1, minReliability: 0.8, partialCreditAllowed: false, surge: false }));
const r = rng(1, 0, 'x');
bench('drawBlock', () => drawBlock(r, 'b', 'l'));
bench('rng create+draw', () => rng(1, 0, 'x')());
