/**
 * Doomed means doomed (docs/RULES.md §4): on every task, a job is announced as lost only when no legal
 * allocation can earn anything more for it; a partial-credit job the market can no longer complete still
 * earns for every hour it gets, stays something its owner can decide, and its notice says how much it can
 * still earn — numbers the settlement then pays.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeRound, createMatch, jobValue, TASK_NAMES } from '../../src/engine/index.js';
import type { MatchState, TaskName } from '../../src/engine/index.js';
import { doomedJobs } from '../../src/match/doomed.js';
import { openDecisions } from '../../src/match/idle.js';
import { doomedNotice } from '../../src/present/render.js';

/** `s` with lab_0's first job set to `partial` and every live block that could serve it used, but `leave` GPU-hours of them. */
function starve(task: TaskName, partial: boolean, leave: 'none' | 'some'): { s: MatchState; job: string } {
  const s = structuredClone(createMatch({ task, seed: 3 }));
  const job = Object.values(s.jobs).find((j) => j.owner === 'lab_0')!;
  job.partialCreditAllowed = partial;
  for (const b of Object.values(s.blocks)) if (b.reliability >= job.minReliability) b.status = 'used';
  if (leave === 'some') {
    // One 1-GPU-hour block of another lab that could serve it stays live (a trade could still bring it).
    const b = Object.values(s.blocks).find((x) => x.owner !== 'lab_0')!;
    Object.assign(b, {
      status: 'available',
      gpuCount: 1,
      duration: 1,
      gpuHours: 1,
      reliability: Math.max(b.reliability, job.minReliability),
    });
  }
  return { s, job: job.id };
}

describe('doomed jobs, on every task', () => {
  for (const task of TASK_NAMES) {
    test(`${task}: no partial credit → lost; partial credit with capacity left → still earning; partial with none left → lost, keeping its credit`, () => {
      // 1. All or nothing, and the market can no longer complete it: lost, and not a decision any more.
      const a = starve(task, false, 'some');
      const lostA = doomedJobs(a.s).find((x) => x.jobId === a.job)!;
      assert.ok(lostA.lost, 'no partial credit: nothing more can earn');
      assert.ok(!openDecisions(a.s, 'lab_0').includes(`job ${a.job}`));
      assert.match(
        doomedNotice(lostA).text,
        /It has no partial credit, so it will settle as missed at its deadline and earns nothing\./,
      );

      // 2. Partial credit with some capacity left: not lost; it stays a decision; the notice gives what it can earn.
      const b = starve(task, true, 'some');
      const d = doomedJobs(b.s).find((x) => x.jobId === b.job)!;
      assert.ok(d && d.left > 0 && d.left < d.missing, 'the world leaves some capacity, not enough');
      {
        assert.equal(d.lost, false, 'it can still earn');
        assert.ok(openDecisions(b.s, 'lab_0').includes(`job ${b.job}`), 'still something to decide');
        const j = b.s.jobs[b.job]!;
        const reach = Math.round(((jobValue(j) * (j.allocatedHours + d.left)) / j.gpuHoursRequired) * 100) / 100;
        assert.equal(d.reachable, reach);
        assert.match(
          doomedNotice(d).text,
          new RegExp(
            `brings it to ${j.allocatedHours + d.left} of ${j.gpuHoursRequired} GPU-h, up to ${reach.toFixed(2).replace('.', '\\.')} credits of its value`,
          ),
        );
        assert.equal(doomedNotice(d).title, `${b.job} can no longer be completed in full`);
      }

      // 3. Partial credit, some hours allocated, none left anywhere: lost, and the notice gives what settlement pays.
      const c = starve(task, true, 'none');
      const j = c.s.jobs[c.job]!;
      j.allocatedHours = 1;
      j.energyCost = 2.5;
      const lostC = doomedJobs(c.s).find((x) => x.jobId === c.job)!;
      assert.ok(lostC.lost);
      assert.ok(!openDecisions(c.s, 'lab_0').includes(`job ${c.job}`));
      const notice = doomedNotice(lostC).text;
      const pays = /so it realises ([\d.]+) credits at its deadline/.exec(notice)?.[1];
      let s = c.s;
      while (!s.over && s.jobs[c.job]!.outcome === 'pending') s = closeRound(s, { judge: null }).state;
      assert.equal(s.jobs[c.job]!.realisedValue?.toFixed(2), pays, 'the notice says what the settlement realised');
    });
  }
});
