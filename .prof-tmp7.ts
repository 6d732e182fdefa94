import { ArenaEnv } from './src/env/gym';
import type { TaskName, PolicyName } from './src/env/types';
const counts: Record<string, number> = {};
const ctrl = (process.argv[2] ?? 'rule_based_expert') as PolicyName;
import { getPolicy } from './src/env/policies';
import { rng } from './src/env';
for (const task of ['single_trade', 'market_round', 'coalition_market'] as TaskName[]) for (let seed = 0; seed < 300; seed++) {
  const env = new ArenaEnv(); let obs = env.reset({ task, seed, actionsPerRound: 4 });
  const pol = env.state.config.scripted;
  while (!env.done) {
    const acts = getPolicy(ctrl)(obs, { rng: rng(seed, obs.round, 'policy:lab_0'), holdout: false });
    let r; let closed = false;
    for (const a of acts) { r = env.step(a); obs = r.observation; if (!r.info.ok) counts[`CTRL ${a.action_type}:${r.info.code}`] = (counts[`CTRL ${a.action_type}:${r.info.code}`] ?? 0) + 1; if (r.info.closed || r.done) { closed = true; break; } }
    if (!closed && !env.done) { r = env.endRound(); obs = r.observation; }
    for (const x of r!.info.report?.scriptedActions ?? []) { const k = `${pol[x.lab]} ${x.action_type}:${x.code}`; counts[k] = (counts[k] ?? 0) + 1; }
  }
}
for (const [k, v] of Object.entries(counts).sort()) console.log(String(v).padStart(6), k);
