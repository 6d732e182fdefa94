import { observe } from './src/env';
import { ArenaEnv } from './src/env/gym';
import { getPolicy, POLICIES } from './src/env/policies';
import type { Observation } from './src/env/views';
import type { TaskName } from './src/env/types';
import seedrandom from 'seedrandom';
// collect observations of all seats from real matches
const obs: Observation[] = [];
for (const task of ['market_round', 'coalition_market'] as TaskName[]) for (let seed = 0; seed < 200; seed++) {
  const env = new ArenaEnv(); env.reset({ task, seed });
  while (!env.done) { for (const l of env.state.labIds) obs.push(observe(env.state, l)); env.step({ action_type: 'wait' }); }
}
console.log('observations', obs.length);
for (const info of POLICIES) {
  const ctx = { rng: seedrandom('x'), holdout: false };
  for (const o of obs) info.policy(o, ctx);
  const t0 = performance.now();
  for (let k = 0; k < 5; k++) for (const o of obs) info.policy(o, ctx);
  console.log(info.name.padEnd(26), ((performance.now() - t0) * 1000 / (5 * obs.length)).toFixed(2), 'µs/call');
}
