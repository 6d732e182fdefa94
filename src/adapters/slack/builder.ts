/**
 * The offer builder (src/commands/builder.ts) as a Slack modal (views.open): input blocks with a
 * static_select (the lab), multi_static_selects (your blocks, the blocks you want), number_inputs (pay, ask)
 * and a text input (the note). Its view_submission runs the catalogue's `offer` / `counter` in the match it
 * was built for, like a button. The channel, match, kind and offer travel in `private_metadata` (a
 * view_submission carries no channel). Slack limits held (api.slack.com/reference/block-kit): title ≤ 24,
 * option text ≤ 75, ≤ 100 options per select, ≤ 100 blocks, private_metadata ≤ 3000.
 */
import { z } from 'zod';
import type { types } from '@slack/bolt';
import type { FormChoice, OfferForm } from '../../chat/types.js';
import { formCommand, wantMenu, type FormSubmission } from '../../commands/builder.js';
import { MESSAGE_MAX } from '../../engine/actions.js';

/** callback_id of the builder modal. */
export const OFFER_CALLBACK_ID = 'arena_offer';
/** action_id of every element in the modal (its block_id is the field). */
const ACTION = 'v';

const plain = (text: string, max: number) => ({
  type: 'plain_text' as const,
  text: text.length <= max ? text : `${text.slice(0, max - 1)}…`,
});
const option = (c: FormChoice) => ({
  text: plain(c.label, 75),
  value: c.value,
  ...(c.detail ? { description: plain(c.detail, 75) } : {}),
});

function select(
  block: string,
  label: string,
  choices: readonly FormChoice[],
  picked: readonly string[],
  multi: boolean,
): types.InputBlock {
  const initial = choices.filter((c) => picked.includes(c.value)).map(option);
  const element = multi
    ? {
        type: 'multi_static_select' as const,
        action_id: ACTION,
        options: choices.map(option),
        ...(initial.length > 0 ? { initial_options: initial } : {}),
      }
    : {
        type: 'static_select' as const,
        action_id: ACTION,
        options: choices.map(option),
        ...(initial[0] ? { initial_option: initial[0] } : {}),
      };
  return { type: 'input', block_id: block, optional: multi, label: plain(label, 2000), element } as types.InputBlock;
}

function numberInput(block: string, label: string, hint: string): types.InputBlock {
  return {
    type: 'input',
    block_id: block,
    optional: true,
    label: plain(label, 2000),
    hint: plain(hint, 2000),
    element: { type: 'number_input', action_id: ACTION, is_decimal_allowed: true, min_value: '0' },
  } as types.InputBlock;
}

/** The builder's modal for views.open. */
export function offerView(form: OfferForm, channelId: string): types.ModalView {
  const want = wantMenu(form);
  const blocks: types.InputBlock[] = [
    ...(form.kind === 'offer' && form.targets.length > 0
      ? [select('to', 'Lab to offer to', form.targets, form.draft.to ? [form.draft.to] : [], false)]
      : []),
    ...(form.give.length > 0 ? [select('give', 'Your blocks to give', form.give, form.draft.give, true)] : []),
    ...(want.length > 0
      ? [
          select(
            'want',
            form.kind === 'offer' ? "Blocks you want (that lab's only)" : 'Their blocks you want',
            want,
            form.draft.want,
            true,
          ),
        ]
      : []),
    numberInput('pay', 'Credits you pay', `Your budget: ${form.budget.toFixed(2)} credits. Pay or ask, not both.`),
    numberInput('ask', 'Credits you ask', 'Your price, paid by the other lab when it accepts.'),
    {
      type: 'input',
      block_id: 'msg',
      optional: true,
      label: plain('Note (public)', 2000),
      element: { type: 'plain_text_input', action_id: ACTION, multiline: true, max_length: MESSAGE_MAX },
    },
  ];
  return {
    type: 'modal',
    callback_id: OFFER_CALLBACK_ID,
    private_metadata: JSON.stringify({
      channelId,
      matchId: form.matchId,
      kind: form.kind,
      ...(form.offerId ? { offerId: form.offerId } : {}),
    }),
    title: plain(form.title, 24),
    submit: plain(form.kind === 'counter' ? 'Send counter' : 'Send offer', 24),
    close: plain('Cancel', 24),
    blocks,
  };
}

const Meta = z.object({
  channelId: z.string().min(1),
  matchId: z.string().min(1),
  kind: z.enum(['offer', 'counter']),
  offerId: z.string().optional(),
});
const Element = z
  .object({
    value: z.string().nullish(),
    selected_option: z.object({ value: z.string() }).nullish(),
    selected_options: z.array(z.object({ value: z.string() })).nullish(),
  })
  .loose();
const Submission = z.object({
  callback_id: z.literal(OFFER_CALLBACK_ID),
  private_metadata: z.string().transform((s, ctx) => {
    const r = Meta.safeParse(
      (() => {
        try {
          return JSON.parse(s) as unknown;
        } catch (_e) {
          return null;
        }
      })(),
    );
    if (!r.success) {
      ctx.addIssue({ code: 'custom', message: 'private_metadata is not an offer builder' });
      return z.NEVER;
    }
    return r.data;
  }),
  state: z.object({ values: z.record(z.string(), z.record(z.string(), Element)) }),
});

/** A submitted builder: the channel, the match it runs in, and the catalogue command with its options. */
export interface OfferSubmission {
  channelId: string;
  matchId: string;
  name: string;
  options: Record<string, string>;
}

/** Parses a builder's view_submission `view`; `{ error: 'bad_submission' }` when it is not one of ours. */
export function parseOfferSubmission(view: unknown): OfferSubmission | { error: 'bad_submission' } {
  const r = Submission.safeParse(view);
  if (!r.success) return { error: 'bad_submission' };
  const v = (block: string) => r.data.state.values[block]?.[ACTION];
  const many = (block: string) => (v(block)?.selected_options ?? []).map((o) => o.value);
  const sub: FormSubmission = { give: many('give'), want: many('want') };
  const to = v('to')?.selected_option?.value;
  if (to) sub.to = to;
  for (const k of ['pay', 'ask', 'msg'] as const) {
    const text = v(k)?.value;
    if (text) sub[k] = text;
  }
  const meta = r.data.private_metadata;
  const { name, options } = formCommand(meta.kind, meta.offerId, sub);
  return { channelId: meta.channelId, matchId: meta.matchId, name, options };
}
