import { generateWorld, worldParams, shockScheduleFor } from './src/env/world';
import { parseConfig } from './src/env/config';
import { makeFeasible } from './src/env/feasibility';
function bench(name: string, f: () => void) { for (let i=0;i<2000;i++) f(); const t0 = performance.now(); let n = 0; while (performance.now() - t0 < 800) { for (let i=0;i<100;i++) f(); n+=100; } console.log(name, (1e3*(performance.now()-t0)/n).toFixed(2), 'us'); }
const p = worldParams('coalition_market', 3);
bench('parseConfig', () => parseConfig({ task: 'coalition_market', seed: 3 }));
bench('worldParams', () => worldParams('coalition_market', 3));
bench('generateWorld', () => generateWorld(p, 3));
const w = generateWorld(p, 3); const blocks = Object.values(w.blocks);
bench('feasible all', () => { for (const id in w.jobs) makeFeasible(w.jobs[id]!, blocks); });
bench('shocks', () => shockScheduleFor('coalition_market', p, 3));
