import { createMatch, applyAction, closeRound, observe, labIdsFor } from './src/env';
import { getPolicy } from './src/env/policies';
function bench(name: string, f: () => void) { const t0 = performance.now(); let n = 0; while (performance.now() - t0 < 1500) { for (let i=0;i<100;i++) f(); n+=100; } console.log(name, (1e6*(performance.now()-t0)/1000/n).toFixed(2), 'us'); }
const task = 'coalition_market'; const seed = 3;
const s0 = createMatch({ task, seed });
bench('createMatch', () => createMatch({ task, seed }));
bench('applyAction wait', () => applyAction(s0, 'lab_0', { action_type: 'wait' }));
bench('applyAction send_offer', () => applyAction(s0, 'lab_0', { action_type: 'send_offer', target_lab_id: 'lab_1', block_ids: ['b_0_0'], payment: 3 }));
bench('applyAction bad json', () => applyAction(s0, 'lab_0', '{bad'));
bench('closeRound judge null', () => closeRound(s0, { judge: null }));
bench('closeRound rule judge', () => closeRound(s0));
bench('observe', () => observe(s0, 'lab_1'));
const obs = observe(s0, 'lab_1');
for (const p of ['cooperative','selfish','deadline_panicked','deceptive','retaliatory','rule_based_expert'] as const) bench('policy '+p, () => getPolicy(p)(obs, { rng: Math.random, holdout: false }));
let s = s0; let k = 0;
bench('gym step no scripted', () => { if (s.over) s = s0; s = applyAction(s, 'lab_0', { action_type: 'wait' }).state; s = closeRound(s, {judge: null}).state; });
