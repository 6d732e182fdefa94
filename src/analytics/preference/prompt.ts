/**
 * The prompts of exported rows. A preference row's prompt is the round's *public* context only (every
 * pitch of a pair answers the same prompt, so it cannot hold any seat's private view); a demonstration's
 * prompt is its own seat's observation (its author's view, nothing more).
 */
import { publicView } from '../../engine/index.js';
import type { MatchState } from '../../engine/types.js';
import type { Observation } from '../../engine/views.js';

const GAME =
  'GPU Arena is a negotiation game: fictional AI labs compete for scarce GPU capacity. Each round every lab may send the judge a public pitch; the judge checks its claims (job ids, GPU-hours, deadlines, reliability needs) against the true state: true, specific claims score, made-up ones cost.';

/**
 * The public state of the market when a round opened, from `publicView` without the seed (which would
 * let a reader rebuild every seat's private jobs), without player-written texts (messages, offer notes,
 * pitches: the pitches are the rows' completions) and without used or failed blocks.
 */
export function publicContext(s: MatchState): Record<string, unknown> {
  const v = publicView(s);
  const last = v.judgeHistory[v.judgeHistory.length - 1] ?? null;
  return {
    task: v.task,
    round: v.round,
    max_rounds: v.maxRounds,
    labs: v.labs.map((l) => ({
      id: l.id,
      name: l.publicName,
      reputation: l.reputation,
      budget_band: l.budgetBand,
      demand: l.demandLevel,
      finished: l.finished,
      cumulative_reward: l.cumulativeReward,
    })),
    blocks: v.blocks
      .filter((b) => b.status !== 'used' && b.status !== 'failed')
      .map((b) => ({
        id: b.id,
        owner: b.owner,
        gpu_count: b.gpuCount,
        duration: b.duration,
        gpu_hours: b.gpuHours,
        reliability: b.reliability,
        energy_cost: b.energyCost,
        status: b.status,
      })),
    offers: v.offers.map((o) => ({
      id: o.id,
      from: o.from,
      to: o.to,
      gives: o.offeredBlockIds,
      wants: o.requestedBlockIds,
      payment: o.payment,
      expires_round: o.expiresRound,
    })),
    coalitions: v.coalitions.map((c) => ({
      id: c.id,
      members: c.members,
      status: c.status,
      consented: c.consented,
      expires_round: c.expiresRound,
      committed_blocks: c.committedBlockIds,
    })),
    shocks: v.shockHistory.map((x) => ({ round: x.round, kind: x.kind, labs: x.affectedLabs, blocks: x.blockIds })),
    last_judge: last ? { round: last.round, winner: last.winner } : null,
  };
}

/** The user message of a preference row: game, task, round, public state, and the request to argue for priority. */
export function pitchPrompt(s: MatchState): string {
  return [
    GAME,
    `Task: ${s.config.task}. Round ${s.round} of ${s.params.maxRounds} (rounds are 0…${s.params.maxRounds - 1}).`,
    `Public state of the market (JSON): ${JSON.stringify(publicContext(s))}`,
    "Argue for priority: write your lab's pitch to the judge for this round (12–1200 characters).",
  ].join('\n\n');
}

/** System and user messages of a demonstration: the seat's own observation as JSON. */
export function turnPrompt(obs: Observation): { system: string; user: string } {
  return {
    system: `You play ${obs.self.publicName} (${obs.self.id}) in GPU Arena. ${GAME} Maximise your lab's reward.`,
    user: [
      `Round ${obs.round} of ${obs.maxRounds} (rounds are 0…${obs.maxRounds - 1}). Your observation (JSON): ${JSON.stringify(obs)}`,
      'Reply with your actions for this round: a JSON array of action objects (action_type plus its fields), applied in order.',
    ].join('\n\n'),
  };
}
