import { ArenaEnv } from './src/env/gym';
import type { TaskName } from './src/env/types';
import { getPolicy } from './src/env/policies';
import { rng, observe } from './src/env';
let shown = 0;
for (const task of ['market_round', 'coalition_market'] as TaskName[]) for (let seed = 0; seed < 300 && shown < 2; seed++) {
  const env = new ArenaEnv(); let obs = env.reset({ task, seed, actionsPerRound: 4 });
  while (!env.done && shown < 2) {
    const before = env.state;
    const acts = getPolicy('rule_based_expert')(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false });
    let r; let closed = false;
    for (const a of acts) { r = env.step(a); obs = r.observation; if (r.info.closed || r.done) { closed = true; break; } }
    const mid = env.state;
    if (!closed && !env.done) { r = env.endRound(); obs = r.observation; }
    const bad = (r!.info.report?.scriptedActions ?? []).find((x) => x.code === 'invalid_requested_block');
    if (bad) {
      shown++;
      console.log(task, seed, 'round', mid.round, bad);
      console.log(r!.info.report!.scriptedActions.map((x) => `${x.lab} ${x.action_type} ${x.code} ${x.message}`).join('\n'));
      for (const o of Object.values(mid.offers).filter((o) => o.status === 'active')) console.log(JSON.stringify(o));
      for (const b of Object.values(mid.blocks)) console.log(b.id, b.owner, b.status);
    }
  }
}
