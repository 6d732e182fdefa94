import { createMatch, applyAction, closeRound, labIdsFor, observe } from './src/env';
import { getPolicy } from './src/env/policies';
import { ruleJudge } from './src/judge/rule-judge';
const arch = ['cooperative','selfish','deadline_panicked','deceptive','retaliatory'] as const;
const seed = 11; const task = 'coalition_market';
const labs = labIdsFor(task, seed); const scripted: any = {}; labs.forEach((l,i)=>scripted[l]=arch[i%5]);
let s = createMatch({task, seed, scripted});
for (let i = 0; i < 5; i++) s = closeRound(s).state;
console.log('offers', Object.keys(s.offers).length, 'coalitions', Object.keys(s.coalitions).length, 'messages', s.messages.length);
function bench(name: string, f: () => unknown) { for (let i=0;i<3000;i++) f(); const t0 = performance.now(); let n = 0; while (performance.now() - t0 < 700) { for (let i=0;i<100;i++) f(); n+=100; } console.log(name.padEnd(30), (1e3*(performance.now()-t0)/n).toFixed(2), 'us'); }
bench('observe', () => observe(s, 'lab_1'));
const o = observe(s, 'lab_1');
for (const p of arch) bench('policy '+p, () => getPolicy(p)(o, { rng: Math.random, holdout: false }));
bench('ruleJudge', () => ruleJudge.judge(s));
bench('closeRound(judge null) scripted', () => closeRound(s, {judge: null}));
bench('closeRound(rule) scripted', () => closeRound(s));
const s2 = createMatch({task, seed}); let t = s2; for (let i = 0; i < 5; i++) t = closeRound(t).state;
bench('closeRound no scripted', () => closeRound(t, {judge: null}));
bench('applyAction wait', () => applyAction(s, 'lab_0', {action_type:'wait'}));
