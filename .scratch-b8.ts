import { createMatch } from './src/env';
function bench(name: string, f: () => unknown) { for (let i=0;i<2000;i++) f(); const t0 = performance.now(); let n = 0; let x: unknown; while (performance.now() - t0 < 500) { for (let i=0;i<100;i++) x = f(); n+=100; } console.log(name, (1e3*(performance.now()-t0)/n).toFixed(3), 'us', !!x); }
const s = createMatch({ task: 'coalition_market', seed: 3 });
const b = s.blocks['b_0_0']!; const j = s.jobs['j_0_0']!; const seat = s.seats['lab_0']!;
bench('spread block', () => ({ ...b }));
bench('spread job', () => ({ ...j }));
bench('spread seat', () => ({ ...seat }));
bench('spread blocks map', () => ({ ...s.blocks }));
bench('spread state', () => ({ ...s }));
bench('spread jobs map', () => ({ ...s.jobs }));
bench('Object.assign block', () => Object.assign({}, b));
const f = { id: 'j', owner: 'l', gpuHoursRequired: 2, deadlineRound: 3, baseValue: 3, urgencyMultiplier: 1, minReliability: 0.8, partialCreditAllowed: false, surge: false };
bench('spread+extra', () => ({ ...f, a: 0, b: [], c: 0, d: 'p', e: null, g: false }));
bench('spread only', () => ({ ...f }));
bench('spread+overwrite', () => ({ ...f, id: 'x', surge: true }));
bench('spread then assign', () => { const o: Record<string, unknown> = { ...f }; o.a = 0; o.b = []; return o; });
bench('spread then assign existing', () => { const o = { ...f }; o.id = 'x'; return o; });
