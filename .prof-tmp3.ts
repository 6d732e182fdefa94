import { ArenaEnv } from './src/env/gym';
import type { TaskName } from './src/env/types';
const task = (process.argv[2] ?? 'market_round') as TaskName;
let n = 0; const env = new ArenaEnv();
const t0 = performance.now();
for (let seed = 0; seed < 3000; seed++) { env.reset({ task, seed }); while (!env.done) { env.step({ action_type: 'wait' }); n++; } }
console.log(n / ((performance.now() - t0) / 1000));
