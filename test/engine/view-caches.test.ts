/**
 * The views' shortcuts give exactly what the plain forms give: a seat's coalition view (computed once per
 * version of the coalitions record, coalition-views.ts) and the public coalition list (kept objects,
 * public.ts) equal a fresh computation at every state of played matches, in the order states are seen;
 * seatReport equals `{ ...report, … }` key for key for every report shape; a frozen scripted record
 * checked once (config.ts) gives the config the schema gives.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArenaEnv, seatReport } from '../../src/engine/gym.js';
import { applyAction, closeRound, createMatch, observe, publicCoalition, rng } from '../../src/engine/index.js';
import { MatchConfigSchema, parseConfig } from '../../src/engine/config.js';
import { visiblePitchBonus } from '../../src/engine/pitch-bonus.js';
import { getPolicy } from '../../src/engine/policies/index.js';
import type { LabId, MatchState } from '../../src/engine/types.js';
import type { Observation, RoundReport } from '../../src/engine/views.js';

/** Every state a scripted seat observes, and the round reports, of a few coalition and market matches. */
function played(): { states: { s: MatchState; lab: LabId }[]; reports: RoundReport[] } {
  const states: { s: MatchState; lab: LabId }[] = [];
  const reports: RoundReport[] = [];
  const expert = getPolicy('rule_based_expert');
  for (const task of ['market_round', 'coalition_market'] as const) {
    for (let seed = 0; seed < 6; seed++) {
      let s = createMatch({ task, seed, scripted: scriptedFor(task, seed) });
      while (!s.over) {
        for (const lab of s.labIds) states.push({ s, lab });
        const a = expert(observe(s, 'lab_0'), { rng: rng(seed, s.round, 'policy:lab_0'), holdout: false })[0] ?? {
          action_type: 'wait',
        };
        s = applyAction(s, 'lab_0', a).state;
        const out = closeRound(s);
        reports.push(out.report);
        s = out.state;
      }
      for (const lab of s.labIds) states.push({ s, lab });
    }
  }
  return { states, reports };
}

function scriptedFor(
  task: 'market_round' | 'coalition_market',
  seed: number,
): Record<LabId, 'cooperative' | 'deceptive' | 'retaliatory' | 'selfish'> {
  const n = createMatch({ task, seed }).labIds.length;
  const names = ['cooperative', 'deceptive', 'retaliatory', 'selfish'] as const;
  const out: Record<LabId, (typeof names)[number]> = {};
  for (let k = 1; k < n; k++) out[`lab_${k}`] = names[(k + seed) % names.length]!;
  return out;
}

/** The coalition parts of an observation as observe computed them before the caches. */
function plainCoalitions(
  s: MatchState,
  lab: LabId,
): Pick<Observation, 'myCoalitions' | 'coalitions'> & { escrow: number } {
  const myCoalitions: Observation['myCoalitions'] = [];
  const coalitions: Observation['coalitions'] = [];
  let escrow = 0;
  for (const id in s.coalitions) {
    const c = s.coalitions[id]!;
    const cm = c.commitments[lab];
    escrow += cm?.escrow ?? 0;
    if (cm === undefined) {
      coalitions.push(publicCoalition(s, c));
      continue;
    }
    const hidden = c.members.some((m) => m !== lab && (c.commitments[m]?.escrow ?? 0) !== 0);
    const commitments: typeof c.commitments = {};
    for (const m of c.members) {
      const x = c.commitments[m]!;
      commitments[m] =
        m === lab ? x : { consented: x.consented, blockIds: x.blockIds, escrow: 0, standing: x.standing };
    }
    myCoalitions.push(hidden ? { ...c, commitments } : c);
  }
  return { myCoalitions, coalitions, escrow: Math.round(escrow * 100) / 100 };
}

describe('view caches', () => {
  const { states, reports } = played();

  test('coalition views and public coalitions equal a fresh computation, state after state', () => {
    let withCoalitions = 0;
    for (const { s, lab } of states) {
      const o = observe(s, lab);
      const plain = plainCoalitions(s, lab);
      assert.equal(JSON.stringify(o.myCoalitions), JSON.stringify(plain.myCoalitions));
      assert.equal(JSON.stringify(o.coalitions), JSON.stringify(plain.coalitions));
      assert.equal(o.self.escrow, plain.escrow);
      if (o.myCoalitions.length + o.coalitions.length > 0) withCoalitions += 1;
    }
    assert.ok(withCoalitions > 50, `${withCoalitions} observations with coalitions`);
  });

  test("an observation's coalition lists are its own arrays", () => {
    const { s, lab } = states.find((x) => observe(x.s, x.lab).myCoalitions.length > 0)!;
    const a = observe(s, lab);
    const b = observe(s, lab);
    assert.notEqual(a.myCoalitions, b.myCoalitions);
    assert.notEqual(a.coalitions, b.coalitions);
    a.myCoalitions.length = 0;
    assert.ok(observe(s, lab).myCoalitions.length > 0);
  });

  test('seatReport equals the spread form for every report shape, keys in order', () => {
    // The seat's own steps are shown as before (ownStep); this compares everything around them.
    const spread = (r: RoundReport, lab: LabId): RoundReport => {
      const own = r.rewards[lab];
      return {
        ...r,
        scriptedActions: seatReport(r, lab).scriptedActions,
        rewards: own ? { [lab]: own } : {},
        ...(r.entries ? { entries: r.entries.filter((e) => e.lab === lab) } : {}),
        ...(r.pitchBonus ? { pitchBonus: visiblePitchBonus(r.pitchBonus, lab) } : {}),
      };
    };
    const shapes = new Set<string>();
    const base = reports.find((r) => r.entries!.length > 0 && r.pitchBonus!.length > 0) ?? reports[0]!;
    const arrivals = reports.find((r) => r.arrivals !== undefined)!.arrivals!;
    const deadOffers = reports.find((r) => r.deadOffers !== undefined)?.deadOffers ?? [];
    // The round close's four shapes (arrivals, deadOffers optional), a match already over, and others.
    const { pitchBonus, entries, arrivals: _a, deadOffers: _d, ...head } = base;
    const made: RoundReport[] = [
      { ...head, pitchBonus, entries },
      { ...head, pitchBonus, entries, deadOffers },
      { ...head, pitchBonus, arrivals, entries },
      { ...head, pitchBonus, arrivals, entries, deadOffers },
      head,
      { ...base, extra: 1 } as RoundReport,
      { ...head, entries, pitchBonus },
      { ...head, pitchBonus: undefined, entries: undefined },
    ];
    for (const r of [...reports, ...made]) {
      shapes.add(Object.keys(r).join());
      for (const lab of ['lab_1', 'lab_2'])
        assert.equal(JSON.stringify(seatReport(r, lab)), JSON.stringify(spread(r, lab)));
    }
    assert.ok(shapes.size >= 7, `${shapes.size} report shapes`);
  });

  test('a frozen scripted record gives the config the schema gives, at every reset', () => {
    const env = new ArenaEnv();
    for (const task of ['single_trade', 'market_round', 'coalition_market'] as const) {
      for (let seed = 0; seed < 12; seed++) {
        env.reset({ task, seed });
        const cfg = env.state.config;
        const schema = MatchConfigSchema.parse({
          task,
          seed,
          scripted: { ...cfg.scripted },
          maxActionsPerRound: cfg.maxActionsPerRound,
        });
        assert.deepEqual({ ...cfg, scripted: { ...cfg.scripted } }, { ...schema, scripted: { ...schema.scripted } });
        assert.deepEqual(
          Object.keys(cfg.scripted),
          env.state.labIds.filter((l) => l !== 'lab_0'),
        );
      }
    }
    // Checked for one seat count, a frozen record is checked again for another (lab_4 exists only in 5-seat matches).
    const five = Object.freeze({ lab_4: 'selfish' as const });
    const seeds = [0, 1, 2, 3, 4, 5, 6, 7].map((seed) => ({
      seed,
      n: createMatch({ task: 'coalition_market', seed }).labIds.length,
    }));
    const with5 = seeds.find((x) => x.n === 5)!;
    const with4 = seeds.find((x) => x.n === 4)!;
    assert.deepEqual(parseConfig({ task: 'coalition_market', seed: with5.seed, scripted: five }).scripted, {
      lab_4: 'selfish',
    });
    assert.throws(() => parseConfig({ task: 'coalition_market', seed: with4.seed, scripted: five }));
    assert.deepEqual(parseConfig({ task: 'coalition_market', seed: with5.seed, scripted: five }).scripted, {
      lab_4: 'selfish',
    });
  });
});
