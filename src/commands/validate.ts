/**
 * Id checks against the caller's own observation, before anything reaches the engine. Errors name the
 * option, say what was expected and list the valid ids the caller may use — only ids the caller can see:
 * its own blocks, jobs, offers and coalitions, and public facts (labs, other labs' blocks). Another seat's
 * job ids are never listed (they are private, docs/RULES.md §1).
 *
 * Codes: `unknown_lab`, `self_trade`, `unknown_block`, `unowned_block`, `unavailable_block`,
 * `target_does_not_own_block`, `duplicate_block`, `unknown_job`, `unknown_offer`, `not_offer_recipient`,
 * `unknown_coalition`, `budget_overspend` — the engine's names (src/engine/codes.ts) for the same faults.
 */
import type { BlockStatus, LabId, Offer } from '../engine/types.js';
import type { Observation } from '../engine/views.js';
import type { CommandError } from './types.js';

type Check = CommandError | null;

/** Statuses of a block that is still tradeable or usable (docs/RULES.md §3 "live"). */
export const LIVE: readonly BlockStatus[] = ['available', 'reserved'];

function fail(code: string, option: string, message: string, expected: string, validValues: string[]): CommandError {
  return { code, option, message, expected, validValues };
}

/** Every lab id of the match, in seat order. */
export function labIds(obs: Observation): LabId[] {
  const ids = new Set<LabId>([obs.self.id, ...obs.labs.map((l) => l.id)]);
  return [...ids].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** A lab id; `notSelf` rejects the caller's own lab (trades, messages). */
export function checkLab(option: string, lab: string, obs: Observation, notSelf: boolean): Check {
  const all = labIds(obs);
  const valid = notSelf ? all.filter((l) => l !== obs.self.id) : all;
  if (notSelf && lab === obs.self.id)
    return fail('self_trade', option, `\`${option}:${lab}\` is your own lab.`, 'another lab', valid);
  if (!all.includes(lab)) return fail('unknown_lab', option, `\`${option}:${lab}\`: no such lab.`, 'a lab id', valid);
  return null;
}

/** No id twice in one list (docs/RULES.md §3; §A.2 D2). */
export function checkUnique(option: string, ids: readonly string[]): Check {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id))
      return { code: 'duplicate_block', option, message: `\`${option}\` lists ${id} twice.`, expected: 'each id once' };
    seen.add(id);
  }
  return null;
}

/** The caller's own blocks, each in one of `statuses`. */
export function checkOwnBlocks(
  option: string,
  ids: readonly string[],
  obs: Observation,
  statuses: readonly BlockStatus[],
  what = statuses.join(' or '),
): Check {
  const dup = checkUnique(option, ids);
  if (dup) return dup;
  const valid = obs.self.blocks.filter((b) => statuses.includes(b.status)).map((b) => b.id);
  const expected = `your ${what} block ids`;
  for (const id of ids) {
    const own = obs.self.blocks.find((b) => b.id === id);
    if (!own) {
      const known = obs.blocks.find((b) => b.id === id);
      return known
        ? fail('unowned_block', option, `\`${option}\`: ${id} belongs to ${known.owner}, not to you.`, expected, valid)
        : fail('unknown_block', option, `\`${option}\`: no block ${id}.`, expected, valid);
    }
    if (!statuses.includes(own.status))
      return fail('unavailable_block', option, `\`${option}\`: your block ${id} is ${own.status}.`, expected, valid);
  }
  return null;
}

/** Live blocks of `target` (what an offer may request). */
export function checkTargetBlocks(option: string, ids: readonly string[], obs: Observation, target: LabId): Check {
  const dup = checkUnique(option, ids);
  if (dup) return dup;
  const valid = obs.blocks.filter((b) => b.owner === target && LIVE.includes(b.status)).map((b) => b.id);
  const expected = `live block ids of ${target}`;
  for (const id of ids) {
    const b = obs.blocks.find((x) => x.id === id);
    if (!b) return fail('unknown_block', option, `\`${option}\`: no block ${id}.`, expected, valid);
    if (b.owner !== target)
      return fail(
        'target_does_not_own_block',
        option,
        `\`${option}\`: ${id} belongs to ${b.owner}, not ${target}.`,
        expected,
        valid,
      );
    if (!LIVE.includes(b.status))
      return fail('unavailable_block', option, `\`${option}\`: ${id} is ${b.status}.`, expected, valid);
  }
  return null;
}

/** Blocks the caller may allocate: its own live blocks (its committed ones must be released first), and partners' blocks committed to an active coalition it is in. */
export function checkAllocatable(option: string, ids: readonly string[], obs: Observation): Check {
  const dup = checkUnique(option, ids);
  if (dup) return dup;
  const own = obs.self.blocks.filter((b) => b.status === 'available' || b.status === 'reserved').map((b) => b.id);
  const pooled = obs.myCoalitions
    .filter((c) => c.status === 'active')
    .flatMap((c) =>
      Object.entries(c.commitments)
        .filter(([lab]) => lab !== obs.self.id)
        .flatMap(([, m]) => m.blockIds),
    );
  const usable = new Set(pooled.filter((id) => obs.blocks.find((b) => b.id === id)?.status === 'committed'));
  const valid = [...own, ...usable];
  for (const id of ids) {
    if (valid.includes(id)) continue;
    const b = obs.blocks.find((x) => x.id === id) ?? obs.self.blocks.find((x) => x.id === id);
    if (!b)
      return fail('unknown_block', option, `\`${option}\`: no block ${id}.`, 'block ids you can run jobs on', valid);
    if (b.owner === obs.self.id && b.status === 'committed') {
      // The engine's rule (docs/RULES.md §3.9): a committed block serves the partners, not its owner.
      return fail(
        'unavailable_block',
        option,
        `\`${option}\`: your block ${id} is committed to a coalition: only your partners may run jobs on it (releasing it from an active coalition is a breach).`,
        "your available or reserved blocks, or partners' committed blocks",
        valid,
      );
    }
    if (b.owner === obs.self.id)
      return fail(
        b.status === 'used' ? 'block_used' : 'failed_block',
        option,
        `\`${option}\`: your block ${id} is ${b.status}.`,
        "your available or reserved blocks, or partners' committed blocks",
        valid,
      );
    return fail(
      'unowned_block',
      option,
      `\`${option}\`: ${id} belongs to ${b.owner} and is not committed to a coalition of yours.`,
      'your blocks or pooled coalition blocks',
      valid,
    );
  }
  return null;
}

/** The caller's own pending jobs. Never lists anyone else's jobs. */
export function checkOwnJobs(option: string, ids: readonly string[], obs: Observation): Check {
  const valid = obs.self.jobs.filter((j) => j.outcome === 'pending').map((j) => j.id);
  for (const id of ids) {
    if (valid.includes(id)) continue;
    const mine = obs.self.jobs.find((j) => j.id === id);
    const message = mine
      ? `\`${option}\`: your job ${id} has already settled (${mine.outcome}).`
      : `\`${option}\`: ${id} is not one of your jobs.`;
    return fail('unknown_job', option, message, 'your pending job ids', valid);
  }
  if (new Set(ids).size !== ids.length)
    return { code: 'duplicate_job', option, message: `\`${option}\` lists a job twice.`, expected: 'each id once' };
  return null;
}

/**
 * An active offer the caller received (`recipient`) or is a party to (`party`: received or sent). `all`
 * (the match's offers, any status) lets a party hear what became of an offer that is no longer active
 * ("o_3 is accepted": e.g. a second press of Accept), instead of "not an active offer of yours".
 */
export function checkOffer(
  option: string,
  id: string,
  obs: Observation,
  role: 'recipient' | 'party',
  all?: Readonly<Record<string, Offer>>,
): Check {
  const me = obs.self.id;
  const active = obs.offers.filter(
    (o) => o.status === 'active' && (o.to === me || (role === 'party' && o.from === me)),
  );
  const valid = active.map((o) => o.id);
  const expected = role === 'recipient' ? 'an active offer made to you' : 'an active offer you made or received';
  const known = all?.[id];
  const seen =
    obs.offers.find((o) => o.id === id) ?? (known && (known.to === me || known.from === me) ? known : undefined);
  if (!seen)
    return fail('unknown_offer', option, `\`${option}:${id}\` is not an active offer of yours.`, expected, valid);
  if (seen.status !== 'active')
    return fail('inactive_offer', option, `\`${option}:${id}\` is ${seen.status}.`, expected, valid);
  if (!valid.includes(id))
    return fail('not_offer_recipient', option, `\`${option}:${id}\` was made by you, not to you.`, expected, valid);
  return null;
}

/** A proposed or active coalition the caller is a member of. */
export function checkCoalition(option: string, id: string, obs: Observation): Check {
  const mine = obs.myCoalitions.filter((c) => c.status === 'proposed' || c.status === 'active');
  const valid = mine.map((c) => c.id);
  const expected = 'a proposed or active coalition you belong to';
  if (valid.includes(id)) return null;
  const pub = obs.coalitions.find((c) => c.id === id) ?? obs.myCoalitions.find((c) => c.id === id);
  if (!pub) return fail('unknown_coalition', option, `\`${option}:${id}\`: no such coalition.`, expected, valid);
  if (!pub.members.includes(obs.self.id))
    return fail('not_coalition_member', option, `\`${option}:${id}\`: you are not a member.`, expected, valid);
  return fail('coalition_closed', option, `\`${option}:${id}\` is ${pub.status}.`, expected, valid);
}

/**
 * Credits the caller pays (an offer's `pay`, a coalition escrow): at most its budget, as the engine rules
 * (docs/RULES.md §3.1, §3.9; payments are kept to 2 decimals) — said with both numbers, which the engine's
 * own message does not give.
 */
export function checkPay(option: string, pay: number | undefined, obs: Observation): Check {
  if (pay === undefined || Math.round(pay * 100) / 100 <= obs.self.budget) return null;
  const budget = obs.self.budget.toFixed(2);
  return {
    code: 'budget_overspend',
    option,
    message: `\`${option}\` ${pay} is more than your budget ${budget} credits.`,
  };
}

/** The first error of several checks. */
export function firstError(...checks: Check[]): Check {
  return checks.find((c) => c !== null) ?? null;
}
