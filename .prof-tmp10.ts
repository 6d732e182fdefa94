import { ArenaEnv } from './src/env/gym';
import { getPolicy } from './src/env/policies';
import { rng } from './src/env';
import type { TaskName } from './src/env/types';
for (const task of ['single_trade', 'market_round', 'coalition_market'] as TaskName[]) {
  const texts = new Map<string, number>(); let total = 0; let rounds = 0; let judged = 0;
  for (let seed = 0; seed < 500; seed++) {
    const env = new ArenaEnv(); let obs = env.reset({ task, seed });
    while (!env.done) { const a = getPolicy('rule_based_expert')(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false })[0] ?? { action_type: 'wait' }; const r = env.step(a); obs = r.observation; rounds++; if (r.info.report?.judge) judged++; }
    for (const m of env.state.messages) if (m.kind === 'pitch') { total++; texts.set(m.text, (texts.get(m.text) ?? 0) + 1); }
  }
  console.log(task, 'rounds', rounds, 'judged rounds', judged, 'pitches', total, 'distinct texts', texts.size);
}
