/**
 * The pitch modal: `/arena pitch` without `text` (or a reply asking for a form) opens it with
 * views.open; its view_submission runs the catalogue's `pitch` command with the fields as options.
 * The channel travels in `private_metadata`, because a view_submission carries no channel.
 */
import { z } from 'zod';
import type { types } from '@slack/bolt';
import type { Reply } from '../../commands/types.js';
import { PITCH_MAX, PITCH_MIN } from '../../engine/actions.js';

/** callback_id of the pitch modal. */
export const PITCH_CALLBACK_ID = 'arena_pitch';
/** action_id of every text input in the modal (its block_id is the option name). */
const INPUT_ACTION_ID = 'value';

/** The form of a pitch modal (the catalogue's {@link Reply.modal} shape). */
export type ModalForm = NonNullable<Reply['modal']>;

/** The form shown for `/arena pitch` without text; field ids are the pitch command's option names. */
export const PITCH_FORM: ModalForm = {
  command: 'pitch',
  title: 'Your pitch to the judge',
  fields: [
    { id: 'text', label: `Pitch (public, ${PITCH_MIN}–${PITCH_MAX} characters)`, long: true, required: true },
    { id: 'job', label: 'Your job ids it argues for (comma-separated)', long: false, required: false },
  ],
};

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** The modal view for views.open (Slack limits: title 24 chars, label 2000, block_id 255). */
export function pitchView(form: ModalForm, channelId: string): types.ModalView {
  return {
    type: 'modal',
    callback_id: PITCH_CALLBACK_ID,
    private_metadata: JSON.stringify({ channelId }),
    title: { type: 'plain_text', text: cut(form.title, 24) },
    submit: { type: 'plain_text', text: 'Submit' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: form.fields.slice(0, 10).map((f) => ({
      type: 'input' as const,
      block_id: f.id,
      optional: !f.required,
      label: { type: 'plain_text' as const, text: cut(f.label, 2000) },
      element: {
        type: 'plain_text_input' as const,
        action_id: INPUT_ACTION_ID,
        multiline: f.long,
        ...(f.id === 'text' ? { min_length: PITCH_MIN, max_length: PITCH_MAX } : { max_length: 200 }),
      },
    })),
  };
}

const SubmissionSchema = z.object({
  callback_id: z.literal(PITCH_CALLBACK_ID),
  private_metadata: z.string().transform((s, ctx) => {
    try {
      return z.object({ channelId: z.string().min(1) }).parse(JSON.parse(s));
    } catch (_e) {
      ctx.addIssue({ code: 'custom', message: 'private_metadata is not {channelId}' });
      return z.NEVER;
    }
  }),
  state: z.object({
    values: z.record(z.string(), z.record(z.string(), z.object({ value: z.string().nullish() }).loose())),
  }),
});

/** A parsed pitch submission: the channel and the pitch options (blank fields left out). */
export interface PitchSubmission {
  channelId: string;
  options: Record<string, string>;
}

/**
 * Parses a view_submission's `view`.
 * @returns the submission, or `{ error: 'bad_submission' }` when the view is not a pitch modal of ours.
 */
export function parsePitchSubmission(view: unknown): PitchSubmission | { error: 'bad_submission' } {
  const r = SubmissionSchema.safeParse(view);
  if (!r.success) return { error: 'bad_submission' };
  const options: Record<string, string> = {};
  for (const [blockId, inputs] of Object.entries(r.data.state.values)) {
    const v = inputs[INPUT_ACTION_ID]?.value?.trim();
    if (v) options[blockId] = v;
  }
  return { channelId: r.data.private_metadata.channelId, options };
}

/**
 * Errors to show in the modal at once (view_submission `response_action: 'errors'`), keyed by block_id;
 * null when the fields look right. Only cheap local checks: the command itself runs after the ack.
 */
export function pitchFieldErrors(options: Record<string, string>): Record<string, string> | null {
  const text = options['text'] ?? '';
  if (text.length < PITCH_MIN) return { text: `Write at least ${PITCH_MIN} characters.` };
  if (text.length > PITCH_MAX) return { text: `At most ${PITCH_MAX} characters.` };
  return null;
}
