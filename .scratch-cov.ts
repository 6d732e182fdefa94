import fc from 'fast-check';
import { applyAction, closeRound, createMatch, labIdsFor, TASK_NAMES } from './src/env';
import { buildAction, step } from './test/env/arbitraries';
const counts: Record<string, number> = {};
for (const task of TASK_NAMES) {
  const samples = fc.sample(fc.tuple(fc.nat({max: 1000000}), fc.array(step, { minLength: 1, maxLength: 20 })), 3400);
  for (const [seed, steps] of samples) {
    const labs = labIdsFor(task, seed); let s = createMatch({ task, seed });
    for (const st of steps) {
      if (st.kind !== 'close') { const lab = labs[st.seat % labs.length]!; const out = applyAction(s, lab, st.kind === 'act' ? st.action : buildAction(s, lab, st.smart)); s = out.state; counts[out.result.code] = (counts[out.result.code] ?? 0) + 1; }
      else { const r = closeRound(s, {judge: null}); s = r.state; for (const c of r.report.coalitions) counts['close:'+c.status] = (counts['close:'+c.status]??0)+1; for (const x of r.report.settlements) counts['settle:'+x.outcome] = (counts['settle:'+x.outcome]??0) + 1; counts['shock'] = (counts['shock']??0) + r.report.shocks.length; }
    }
  }
}
console.log(Object.entries(counts).sort((a,b)=>b[1]-a[1]).map(([k,v])=>`${k}=${v}`).join(' '));
