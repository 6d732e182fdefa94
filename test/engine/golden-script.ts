/**
 * A fixed scripted player for golden episodes (test/engine/golden.test.ts) and the stored v3 matches
 * (test/match/fixtures): the actions one seat submits in a round, computed from its observation at the
 * round's start only, so the same world always gets the same inputs. It touches every part of the rules
 * it can: an auction bid, accepting, countering and rejecting offers, committing to coalitions, a pitch
 * for its most urgent job, allocation, offers that sell for credits and buy with credits, a coalition
 * proposal, public and direct messages, reserve and release, and two refused actions (an unknown seat,
 * malformed JSON). Changing this file changes the pinned hashes: re-pin them (UPDATE_GOLDEN=1).
 */
import type { Block, Observation, PublicBlock } from '../../src/engine/index.js';

/** Raw inputs (objects, or text as a person might type it) of one seat for one round. */
export function roundScript(obs: Observation): unknown[] {
  const me = obs.self;
  const r = obs.round;
  const out: unknown[] = [];
  const spare: Block[] = me.blocks.filter((b) => b.status === 'available');
  const take = (pred: (b: Block) => boolean): Block | undefined => {
    const i = spare.findIndex(pred);
    return i < 0 ? undefined : spare.splice(i, 1)[0];
  };
  const others = obs.labs.filter((l) => !l.finished);
  const target = others.length > 0 ? others[r % others.length]! : undefined;

  if (obs.auction && obs.auction.myBid == null)
    out.push({ action_type: 'bid', amount: Math.min(me.budget, obs.auction.reserve + 1 + (r % 3)) });

  const incoming = obs.offers.filter((o) => o.to === me.id && o.status === 'active');
  incoming.forEach((o, i) => {
    if (i === 0) out.push({ action_type: 'accept_offer', offer_id: o.id });
    else if (i === 1 && r % 2 === 1)
      out.push({
        action_type: 'counter_offer',
        offer_id: o.id,
        requested_block_ids: o.offeredBlockIds,
        payment: 1,
        message: 'Half the price and it is yours.',
      });
    else out.push({ action_type: 'reject_offer', offer_id: o.id });
  });

  for (const c of obs.myCoalitions) {
    if (c.status !== 'proposed' || c.commitments[me.id]?.consented) continue;
    const b = spare.length > 1 ? spare.pop() : undefined;
    out.push({
      action_type: 'commit_to_coalition',
      coalition_id: c.id,
      block_ids: b ? [b.id] : [],
      payment: b ? 0 : 1,
    });
  }

  const pending = me.jobs
    .filter((j) => j.outcome === 'pending')
    .sort((a, b) => a.deadlineRound - b.deadlineRound || a.id.localeCompare(b.id));
  const job = pending[0];
  if (job) {
    const held = me.blocks.reduce((s, b) => s + (b.status === 'available' ? b.gpuHours : 0), 0);
    out.push({
      action_type: 'make_pitch',
      message: `We need ${job.gpuHoursRequired} GPU-hours for ${job.id} before round ${job.deadlineRound + 1}; we hold ${held} GPU-hours.`,
      job_ids: [job.id],
    });
    const need = job.gpuHoursRequired - job.allocatedHours;
    const use: string[] = [];
    let got = 0;
    while (got < need) {
      const b = take((x) => x.reliability >= job.minReliability);
      if (!b) break;
      use.push(b.id);
      got += b.gpuHours;
    }
    if (use.length > 0) out.push({ action_type: 'allocate_to_job', job_id: job.id, block_ids: use });
  }

  if (target) {
    if (r % 2 === 0) {
      const b = spare.shift();
      if (b)
        out.push({
          action_type: 'send_offer',
          target_lab_id: target.id,
          block_ids: [b.id],
          ask: b.gpuHours * 2,
          message: `${b.gpuHours} GPU-hours for sale.`,
        });
    } else {
      const theirs: PublicBlock | undefined = obs.blocks.find((b) => b.owner === target.id && b.status === 'available');
      if (theirs)
        out.push({
          action_type: 'send_offer',
          target_lab_id: target.id,
          requested_block_ids: [theirs.id],
          payment: Math.min(me.budget, theirs.gpuHours * 1.5),
          expires_in: 1,
        });
    }
    out.push(
      r % 2 === 0
        ? { action_type: 'send_message', message: `Round ${r + 1}: we trade fairly.` }
        : { action_type: 'send_message', target_lab_id: target.id, message: 'Can we help each other this round?' },
    );
  }

  if (r === 0 && obs.task !== 'single_trade' && others.length >= 2) {
    out.push({
      action_type: 'form_coalition',
      target_lab_ids: others.slice(0, 2).map((l) => l.id),
      message: 'Pool capacity until round 4.',
      duration: 3,
    });
  }
  if (r === 1) {
    const b = spare.shift();
    if (b) out.push({ action_type: 'reserve_capacity', block_ids: [b.id], job_id: null });
    out.push({ action_type: 'send_offer', target_lab_id: 'lab_99', payment: 1 });
    out.push('{"action_type":"send_offer"');
  }
  if (r === 2) {
    const reserved = me.blocks.filter((b) => b.status === 'reserved').map((b) => b.id);
    if (reserved.length > 0) out.push({ action_type: 'release_capacity', block_ids: reserved });
  }
  out.push({ action_type: 'wait' });
  return out;
}
