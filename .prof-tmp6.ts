import { createMatch, applyAction } from './src/env';
import { extractClaims, normalizePitch } from './src/judge/claims';
import { seatFacts } from './src/judge/facts';
import { ruleJudge } from './src/judge/rule-judge';
function us(label: string, n: number, fn: (i: number) => unknown) {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i);
  const t0 = performance.now(); for (let i = 0; i < n; i++) fn(i); const t = (performance.now() - t0) * 1000 / n;
  console.log(label.padEnd(60), t.toFixed(2), 'µs');
}
const text = 'Lab A needs 4 more GPU-hours for job j_0_0 (6 GPU-hours required), due by round 2, minimum reliability 0.80.';
us('normalizePitch', 100000, () => normalizePitch(text));
us('extractClaims', 50000, () => extractClaims(text));
const s0 = createMatch({ task: 'coalition_market', seed: 1 });
us('seatFacts coalition_market', 100000, () => seatFacts(s0, 'lab_0'));
const sp = applyAction(s0, 'lab_0', { action_type: 'make_pitch', message: text, job_ids: ['j_0_0'] }).state;
us('ruleJudge 1 pitch coalition', 50000, () => ruleJudge.judge(sp));
