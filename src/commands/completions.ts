/**
 * Autocomplete (Discord) for id options: only ids the caller may see — its own blocks, jobs, offers and
 * coalitions, every lab, and (for `want`) other labs' live blocks, which are public. List options
 * (`give:b_0_1,b_0_`) complete their last element.
 */
import { labIdsFor, observe } from '../engine/index.js';
import type { Observation } from '../engine/views.js';
import { labName, seatLabel } from '../present/common.js';
import type { HostedMatch } from '../match/types.js';
import type { ArenaHost } from './context.js';
import { locateMatch } from './locate.js';
import type { Caller, OptionKind } from './types.js';

/** Discord shows at most 25 choices. */
export const MAX_COMPLETIONS = 25;

/** Optional context of a completion: which command and option is being typed. */
export interface CompletionContext {
  command?: string;
  option?: string;
}

type Candidate = { value: string; label: string };

function labCandidates(m: HostedMatch): Candidate[] {
  const labs = m.state?.labIds ?? labIdsFor(m.settings.task, m.settings.seed);
  return labs.map((l) => ({ value: l, label: `${l} — ${seatLabel(m, l)}` }));
}

function idCandidates(m: HostedMatch, obs: Observation, kind: OptionKind, where: CompletionContext): Candidate[] {
  const me = obs.self.id;
  switch (kind) {
    case 'block':
    case 'blocks': {
      if (where.option === 'want') {
        return obs.blocks
          .filter((b) => b.owner !== me && (b.status === 'available' || b.status === 'reserved'))
          .map((b) => ({
            value: b.id,
            label: `${b.id} (${labName(m, b.owner)}) ${b.gpuCount}×${b.duration} GPU-h rel ${b.reliability.toFixed(2)}`,
          }));
      }
      return obs.self.blocks
        .filter((b) => b.status !== 'used' && b.status !== 'failed')
        .map((b) => ({
          value: b.id,
          label: `${b.id} ${b.gpuCount}×${b.duration} = ${b.gpuHours} GPU-h rel ${b.reliability.toFixed(2)} ${b.status}`,
        }));
    }
    case 'job':
    case 'jobs':
      return obs.self.jobs
        .filter((j) => j.outcome === 'pending')
        .map((j) => ({
          value: j.id,
          label: `${j.id} ${j.allocatedHours}/${j.gpuHoursRequired} GPU-h, due end of round ${j.deadlineRound + 1}`,
        }));
    case 'offer':
      return obs.offers.map((o) => ({
        value: o.id,
        label: `${o.id} ${o.from === me ? `to ${labName(m, o.to)}` : `from ${labName(m, o.from)}`}`,
      }));
    case 'coalition':
      return obs.myCoalitions
        .filter((c) => c.status === 'proposed' || c.status === 'active')
        .map((c) => ({ value: c.id, label: `${c.id} ${c.status} (${c.members.length} members)` }));
    default:
      return [];
  }
}

/**
 * The ids the caller may use for an option of `kind` right now (what completions offer, without filtering):
 * every lab; the caller's own blocks/jobs/offers/coalitions (needs a seat in a started match); for `want`,
 * other labs' live blocks. Empty for non-id kinds.
 */
export function validIds(
  m: HostedMatch,
  lab: string | null,
  kind: OptionKind,
  where: CompletionContext = {},
): string[] {
  if (kind === 'lab') {
    // Options naming a counterpart (to, with, reply_to) never take the caller's own lab.
    const others = where.option === 'to' || where.option === 'with' || where.option === 'reply_to';
    return labCandidates(m)
      .map((c) => c.value)
      .filter((l) => !(others && l === lab));
  }
  if (!lab || !m.state) return [];
  return idCandidates(m, observe(m.state, lab), kind, where).map((c) => c.value);
}

/**
 * Suggestions for an option of `kind` given what the caller typed so far (`partial`). Returns
 * `{name, value}` pairs (name is the label shown), at most {@link MAX_COMPLETIONS}; empty when there is no
 * match in the channel or the kind has no ids.
 */
export async function completions(
  host: ArenaHost,
  channelId: string,
  caller: Caller,
  kind: OptionKind,
  partial: string,
  where: CompletionContext = {},
): Promise<{ name: string; value: string }[]> {
  const m = (await locateMatch(host, channelId, caller.userId)).match;
  if (!m) return [];
  const isList = kind === 'blocks' || kind === 'jobs' || (kind === 'lab' && where.option === 'with');
  const parts = isList ? partial.split(',') : [partial];
  const last = (parts.pop() ?? '').trim().toLowerCase();
  const chosen = parts.map((p) => p.trim()).filter((p) => p !== '');
  const prefix = chosen.length ? `${chosen.join(',')},` : '';
  let candidates: Candidate[];
  if (kind === 'lab') candidates = labCandidates(m);
  else {
    const lab = host.seatOf(m, caller.userId);
    if (!lab || !m.state) return [];
    candidates = idCandidates(m, observe(m.state, lab), kind, where);
  }
  return candidates
    .filter((c) => !chosen.includes(c.value) && (c.value.startsWith(last) || c.label.toLowerCase().includes(last)))
    .slice(0, MAX_COMPLETIONS)
    .map((c) => ({ name: (prefix + c.label).slice(0, 100), value: (prefix + c.value).slice(0, 100) }));
}
