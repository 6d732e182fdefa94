/**
 * The offer builder: a form built from the caller's own observation, so an offer (or a counter) is made by
 * picking labs and blocks instead of typing ids. `offer` with no options at all (the "Make an offer" button)
 * and `counter offer:<id>` with no terms (the Counter button) attach an {@link OfferForm} to their reply;
 * Discord renders it as a modal of string selects, Slack as a modal of static selects and number inputs. A
 * submitted form becomes the catalogue's own `offer` / `counter` options ({@link formCommand}), so it goes
 * through the same validation, errors and log entry as the typed command. The form lists only blocks that
 * exist and could be traded now (own: available or reserved; wanted: another live lab's, same statuses),
 * at most {@link FORM_MENU_MAX} per menu (Discord's limit); the rest are named in `truncated`.
 */
import type { Offer } from '../engine/types.js';
import type { Observation, PublicBlock } from '../engine/views.js';
import { FORM_MENU_MAX, type FormChoice, type OfferDraft, type OfferForm } from '../chat/types.js';
import type { HostedMatch } from '../match/types.js';
import { labName } from '../present/common.js';
import { LIVE } from './validate.js';

/** A choice's label: "b_1_0 · 4×2 = 8 GPU-h · rel 0.91" (≤ 75 characters: Slack's option text limit, under Discord's 100). */
function blockChoice(b: PublicBlock, owner?: string): FormChoice {
  const label = `${b.id} · ${b.gpuCount}×${b.duration} = ${b.gpuHours} GPU-h · rel ${b.reliability.toFixed(2)}`;
  return {
    value: b.id,
    label: label.slice(0, 75),
    detail: `${owner ? `${owner}, ` : ''}energy ${b.energyCost.toFixed(2)}, ${b.status}`.slice(0, 75),
  };
}

/** At most FORM_MENU_MAX choices; the ids left out go to `cut`. */
function capped(choices: FormChoice[], cut: string[]): FormChoice[] {
  cut.push(...choices.slice(FORM_MENU_MAX).map((c) => c.value));
  return choices.slice(0, FORM_MENU_MAX);
}

/**
 * The builder for `obs`'s seat in `m`: a new offer, or (`original`) a counter to an offer made to it,
 * pre-filled with that offer mirrored (its requested blocks offered back, its offered blocks wanted).
 */
export function offerForm(m: HostedMatch, obs: Observation, original?: Offer): OfferForm {
  const truncated: string[] = [];
  const live = (b: PublicBlock) => LIVE.includes(b.status);
  const open = obs.labs.filter((l) => !l.finished && l.id !== obs.self.id && (!original || l.id === original.from));
  const targets = capped(
    open.map((l) => ({ value: l.id, label: `${labName(m, l.id)} (${l.id})`.slice(0, 75) })),
    truncated,
  );
  const give = capped(
    obs.self.blocks.filter(live).map((b) => blockChoice(b)),
    truncated,
  );
  const want: Record<string, FormChoice[]> = {};
  for (const t of targets)
    want[t.value] = obs.blocks
      .filter((b) => b.owner === t.value && live(b))
      .map((b) => blockChoice(b, labName(m, t.value)));
  const draft: OfferDraft = original
    ? {
        to: original.from,
        give: original.requestedBlockIds.filter((id) => give.some((g) => g.value === id)),
        want: original.offeredBlockIds.filter((id) => want[original.from]?.some((w) => w.value === id)),
      }
    : { give: [], want: [] };
  return {
    kind: original ? 'counter' : 'offer',
    matchId: m.id,
    ...(original ? { offerId: original.id } : {}),
    title: original ? `Counter ${original.id}` : 'Make an offer',
    targets,
    give,
    want,
    ...(truncated.length > 0 ? { truncated } : {}),
    draft,
    budget: obs.self.budget,
  };
}

/** Every wanted block of the form in one menu (a modal cannot change a menu when the target changes), capped. */
export function wantMenu(form: OfferForm): FormChoice[] {
  const all = form.targets.flatMap((t) =>
    (form.want[t.value] ?? []).map((c) =>
      form.kind === 'offer' ? { ...c, label: `${t.value} · ${c.label}`.slice(0, 75) } : c,
    ),
  );
  return all.slice(0, FORM_MENU_MAX);
}

/** What a person picked and typed in a submitted builder (each platform reads its own payload into this). */
export interface FormSubmission {
  to?: string;
  give: string[];
  want: string[];
  /** One credits field (Discord: "8" or "pay 8" pays, "ask 12" asks). */
  credits?: string;
  /** Separate number fields (Slack). */
  pay?: string;
  ask?: string;
  msg?: string;
}

/** `credits` text → pay/ask options; anything else goes on as `pay`, for the catalogue's own error. */
function creditOptions(text: string): Record<string, string> {
  const t = text.trim().toLowerCase();
  if (t === '') return {};
  const m = /^(pay|ask)?\s*:?\s*([0-9]+(?:\.[0-9]+)?)$/.exec(t);
  if (!m) return { pay: text.trim() };
  return { [m[1] ?? 'pay']: m[2]! };
}

/**
 * The catalogue command a submitted builder runs: `offer` (to, give, want, pay/ask, msg) or `counter`
 * (offer, give, want, pay/ask, msg). Empty fields are left out, so the command's own defaults and errors apply.
 */
export function formCommand(
  kind: OfferForm['kind'],
  offerId: string | undefined,
  sub: FormSubmission,
): { name: 'offer' | 'counter'; options: Record<string, string> } {
  const options: Record<string, string> = {};
  if (kind === 'counter' && offerId) options['offer'] = offerId;
  if (kind === 'offer' && sub.to) options['to'] = sub.to;
  if (sub.give.length > 0) options['give'] = sub.give.join(',');
  if (sub.want.length > 0) options['want'] = sub.want.join(',');
  Object.assign(options, creditOptions(sub.credits ?? ''));
  if (sub.pay?.trim()) options['pay'] = sub.pay.trim();
  if (sub.ask?.trim()) options['ask'] = sub.ask.trim();
  if (sub.msg?.trim()) options['msg'] = sub.msg.trim();
  return { name: kind, options };
}
