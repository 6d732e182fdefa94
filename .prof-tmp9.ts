import { ArenaEnv } from './src/env/gym';
import { getPolicy } from './src/env/policies';
import { rng } from './src/env';
let shown = 0;
for (let seed = 0; seed < 200 && shown < 3; seed++) {
  const env = new ArenaEnv(); let obs = env.reset({ task: 'coalition_market', seed, actionsPerRound: 4 });
  const hist: string[] = [];
  while (!env.done) {
    const acts = getPolicy('rule_based_expert')(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false });
    let closed = false;
    for (const a of acts) { const r = env.step(a); obs = r.observation; hist.push(`r${obs.round} ${JSON.stringify(a).slice(0, 150)} -> ${r.info.code}`); if (r.breakdown.spam_penalty < 0) { shown++; console.log(`seed ${seed}`); console.log(hist.slice(-6).join('\n')); } if (r.info.closed || r.done) { closed = true; break; } }
    if (!closed && !env.done) { const r = env.endRound(); obs = r.observation; if (r.breakdown.spam_penalty < 0) console.log('close spam?'); }
  }
}
