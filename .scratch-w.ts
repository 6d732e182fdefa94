import { createMatch } from './src/env';
for (const [t, seed] of [['single_trade', 1], ['market_round', 1], ['coalition_market', 1]] as const) {
const s = createMatch({ task: t, seed });
console.log(t, s.labIds, s.params.maxRounds, JSON.stringify(s.shockSchedule));
for (const b of Object.values(s.blocks)) console.log(' ', b.id, b.owner, b.gpuHours, b.reliability, b.energyCost);
for (const j of Object.values(s.jobs)) console.log(' ', j.id, j.gpuHoursRequired, 'dl', j.deadlineRound, 'v', j.baseValue, j.urgencyMultiplier, 'minrel', j.minReliability, j.partialCreditAllowed);
for (const l of Object.values(s.labs)) console.log(' ', l.id, l.budget, l.reputation);
}
