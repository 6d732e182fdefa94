/**
 * The offer builder (src/commands/builder.ts) as a Discord modal: string selects in Label components (the
 * lab, your blocks, the blocks you want; components/reference#string-select, in a modal since Label,
 * type 18) and text inputs for the credits and the note. Its custom_id is `arena-offer:@<match> offer` or
 * `arena-offer:@<match> counter <offer id>`, so a submit runs only in the match it was built for. Limits held
 * here (checked by test/emulators/discord-limits.ts): title ≤ 45, ≤ 5 components, label ≤ 45, ≤ 25 options
 * of ≤ 100 characters per select.
 */
import {
  ComponentType,
  TextInputStyle,
  type APIModalInteractionResponseCallbackData,
  type APISelectMenuOption,
} from 'discord.js';
import { boundCommand, unboundCommand } from '../../chat/reply.js';
import type { FormChoice, OfferForm } from '../../chat/types.js';
import { formCommand, wantMenu, type FormSubmission } from '../../commands/builder.js';
import { MESSAGE_MAX } from '../../engine/actions.js';

/** custom_id prefix of the builder's modal. */
export const OFFER_MODAL_PREFIX = 'arena-offer:';

const option = (c: FormChoice, picked: readonly string[]): APISelectMenuOption => ({
  value: c.value,
  label: c.label.slice(0, 100),
  ...(c.detail ? { description: c.detail.slice(0, 100) } : {}),
  ...(picked.includes(c.value) ? { default: true } : {}),
});

function select(label: string, id: string, choices: readonly FormChoice[], picked: readonly string[], multi: boolean) {
  return {
    type: ComponentType.Label as const,
    label: label.slice(0, 45),
    component: {
      type: ComponentType.StringSelect as const,
      custom_id: id,
      options: choices.map((c) => option(c, picked)),
      min_values: multi ? 0 : 1,
      max_values: multi ? choices.length : 1,
      required: !multi,
    },
  };
}

function text(label: string, id: string, opts: { long: boolean; max: number; placeholder?: string }) {
  return {
    type: ComponentType.Label as const,
    label: label.slice(0, 45),
    component: {
      type: ComponentType.TextInput as const,
      custom_id: id,
      style: opts.long ? TextInputStyle.Paragraph : TextInputStyle.Short,
      required: false,
      max_length: opts.max,
      ...(opts.placeholder ? { placeholder: opts.placeholder.slice(0, 100) } : {}),
    },
  };
}

/** The Discord modal of a builder (at most 5 components: a menu left without choices is left out). */
export function offerModalJson(form: OfferForm): APIModalInteractionResponseCallbackData {
  const command = form.kind === 'counter' ? `counter ${form.offerId ?? ''}` : 'offer';
  const want = wantMenu(form);
  const components = [
    ...(form.kind === 'offer' && form.targets.length > 0
      ? [select('Lab to offer to', 'to', form.targets, form.draft.to ? [form.draft.to] : [], false)]
      : []),
    ...(form.give.length > 0 ? [select('Your blocks to give', 'give', form.give, form.draft.give, true)] : []),
    ...(want.length > 0
      ? [
          select(
            form.kind === 'offer' ? "Blocks you want (that lab's only)" : 'Their blocks you want',
            'want',
            want,
            form.draft.want,
            true,
          ),
        ]
      : []),
    text('Credits: 8 pays 8, "ask 8" asks 8', 'credits', {
      long: false,
      max: 20,
      placeholder: `Your budget: ${form.budget.toFixed(2)} credits`,
    }),
    text('Note (public, optional)', 'msg', { long: true, max: MESSAGE_MAX }),
  ];
  return {
    custom_id: `${OFFER_MODAL_PREFIX}${boundCommand({ matchId: form.matchId, command })}`.slice(0, 100),
    title: form.title.slice(0, 45),
    components,
  } as APIModalInteractionResponseCallbackData;
}

/** A submitted builder's fields, as discord.js reads them: a text input's `value`, a select's `values`. */
export type SubmittedFields = Iterable<[string, { value?: unknown; values?: unknown }]>;

/** The catalogue command of a submitted builder modal, and the match it runs in; null for another custom_id. */
export function offerModalCommand(
  customId: string,
  fields: SubmittedFields,
): { matchId: string; name: string; options: Record<string, string> } | null {
  if (!customId.startsWith(OFFER_MODAL_PREFIX)) return null;
  const bound = unboundCommand(customId.slice(OFFER_MODAL_PREFIX.length));
  if (!bound) return null;
  const [kind, offerId] = bound.command.split(/\s+/);
  if (kind !== 'offer' && kind !== 'counter') return null;
  const sub: FormSubmission = { give: [], want: [] };
  for (const [id, f] of fields) {
    const values = Array.isArray(f.values) ? f.values.filter((v): v is string => typeof v === 'string') : null;
    const value = typeof f.value === 'string' ? f.value : null;
    if (id === 'to' && values?.[0]) sub.to = values[0];
    else if ((id === 'give' || id === 'want') && values) sub[id] = values;
    else if ((id === 'credits' || id === 'msg') && value !== null) sub[id] = value;
  }
  const { name, options } = formCommand(kind, offerId, sub);
  return { matchId: bound.matchId, name, options };
}
