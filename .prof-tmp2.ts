import { createMatch, applyAction, closeRound, observe } from './src/env';
import { ArenaEnv } from './src/env/gym';
import type { TaskName } from './src/env/types';
function time(label: string, fn: () => number) {
  fn();
  const t0 = performance.now(); const steps = fn(); const s = (performance.now() - t0) / 1000;
  console.log(label.padEnd(50), Math.round(steps / s), 'steps/s');
}
for (const task of ['single_trade', 'market_round', 'coalition_market'] as TaskName[]) {
  time(`${task} engine only: wait + close, no scripted`, () => { let n = 0; for (let seed = 0; seed < 2000; seed++) { let s = createMatch({ task, seed }); while (!s.over) { s = applyAction(s, 'lab_0', { action_type: 'wait' }).state; s = closeRound(s).state; n++; } } return n; });
  time(`${task} engine: wait+close+observe, no scripted`, () => { let n = 0; for (let seed = 0; seed < 2000; seed++) { let s = createMatch({ task, seed }); while (!s.over) { s = applyAction(s, 'lab_0', { action_type: 'wait' }).state; s = closeRound(s).state; observe(s, 'lab_0'); n++; } } return n; });
  time(`${task} createMatch only (per episode)`, () => { let n = 0; for (let seed = 0; seed < 2000; seed++) { createMatch({ task, seed }); n++; } return n; });
  time(`${task} gym wait vs archetypes`, () => { let n = 0; const env = new ArenaEnv(); for (let seed = 0; seed < 1000; seed++) { env.reset({ task, seed }); while (!env.done) { env.step({ action_type: 'wait' }); n++; } } return n; });
}
