import { createMatch, applyAction, closeRound, observe, ActionSchema } from './src/env';
import { ruleJudge } from './src/judge/rule-judge';
function us(label: string, n: number, fn: (i: number) => unknown) {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i);
  const t0 = performance.now(); for (let i = 0; i < n; i++) fn(i); const t = (performance.now() - t0) * 1000 / n;
  console.log(label.padEnd(60), t.toFixed(2), 'µs');
}
const s0 = createMatch({ task: 'market_round', seed: 1 });
const sh = createMatch({ task: 'coalition_market', seed: 1 });
us('createMatch market_round', 20000, (i) => createMatch({ task: 'market_round', seed: i }));
us('createMatch coalition_market', 20000, (i) => createMatch({ task: 'coalition_market', seed: i }));
us('ActionSchema.safeParse wait', 200000, () => ActionSchema.safeParse({ action_type: 'wait' }));
const offer = { action_type: 'send_offer', target_lab_id: 'lab_1', requested_block_ids: ['b_1_0'], payment: 12.5, message: 'Offering 12.50 credits for b_1_0' };
us('ActionSchema.safeParse send_offer', 200000, () => ActionSchema.safeParse(offer));
us('applyAction wait', 100000, () => applyAction(s0, 'lab_0', { action_type: 'wait' }));
us('applyAction send_offer', 100000, () => applyAction(s0, 'lab_0', offer));
const pitch = { action_type: 'make_pitch', message: 'Lab A needs 4 more GPU-hours for job j_0_0 (6 GPU-hours required), due by round 2, minimum reliability 0.80.', job_ids: ['j_0_0'] };
us('applyAction make_pitch', 100000, () => applyAction(s0, 'lab_0', pitch));
const sp = applyAction(s0, 'lab_0', pitch).state;
us('ruleJudge.judge (1 pitch)', 50000, () => ruleJudge.judge(sp));
us('closeRound market_round (no scripted, no pitch)', 50000, () => closeRound(s0));
us('closeRound market_round (no scripted, 1 pitch)', 50000, () => closeRound(sp));
us('observe market_round', 200000, () => observe(s0, 'lab_0'));
us('observe coalition_market', 200000, () => observe(sh, 'lab_0'));
