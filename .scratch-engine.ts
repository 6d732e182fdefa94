import { createMatch, applyAction, closeRound, observe, publicView, labIdsFor } from './src/env';
for (const task of ['single_trade','market_round','coalition_market'] as const) {
  const seed = 7;
  const labs = labIdsFor(task, seed);
  const scripted: Record<string, any> = {};
  const arch = ['cooperative','selfish','deadline_panicked','deceptive','retaliatory'];
  labs.slice(1).forEach((l, i) => scripted[l] = arch[i % 5]);
  let s = createMatch({ task, seed, scripted });
  console.log(task, labs.length, s.params.maxRounds, JSON.stringify(s.shockSchedule));
  while (!s.over) {
    const o = observe(s, 'lab_0');
    const r = applyAction(s, 'lab_0', { action_type: 'wait' });
    s = r.state;
    const c = closeRound(s);
    s = c.state;
    console.log(' round', c.report.round, c.report.scriptedActions.map(a => `${a.lab}:${a.action_type}:${a.code}`).join(' '), '| judge', c.report.judge?.winner, '| shocks', c.report.shocks.map(x=>x.text).join(';'), '| settle', c.report.settlements.map(x=>x.jobId+':'+x.outcome).join(','));
  }
  console.log(' final', c2(s));
}
function c2(s: any) { return s.labIds.map((l: string) => `${l}=${s.seats[l].cumulativeReward}`).join(' '); }
