/**
 * The offer builder on Slack, end to end (Bolt against the emulator, the real catalogue and host): alice
 * presses "Make an offer" on her private view; the bot opens a modal (views.open) of a static_select (the
 * lab), multi_static_selects (her blocks, the blocks she may want) and number inputs, built from her own
 * view. Her view_submission picks bob's lab and one of his blocks and pays 5 credits: no id typed. The
 * submit runs the catalogue's `offer`; bob accepts with his Accept button; the trade executes. Then the
 * limits test: the builder of every seat of 40 coalition_market worlds (the largest task) fits Slack's
 * Block Kit limits. `DUMP_BUILDER=1` prints the view and the submission (docs/CHAT.md quotes them).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { offerForm } from '../../../src/commands/builder.js';
import { offerView, OFFER_CALLBACK_ID } from '../../../src/adapters/slack/builder.js';
import { createMatch, labIdsFor, observe } from '../../../src/engine/index.js';
import type { HostedMatch } from '../../../src/host/index.js';
import { sendSigned, type SlackEmulator, type SlackUser } from '../../emulators/slack.js';
import { alice, bob, slackSession } from './helpers.js';

const CHANNEL = 'C0BUILDER';
type Json = Record<string, unknown>;
type Element = { action_id: string; value: string };

/** Errors of a modal view by Slack's documented limits (api.slack.com/reference/block-kit: views, blocks, select menus, composition objects). */
function viewErrors(view: Json): string[] {
  const errors: string[] = [];
  const len = (where: string, v: unknown, max: number) =>
    typeof v === 'string' && [...v].length > max && errors.push(`${where}: ${[...v].length} > ${max}`);
  len('title', (view.title as Json).text, 24);
  len('submit', (view.submit as Json | undefined)?.text, 24);
  len('callback_id', view.callback_id, 255);
  len('private_metadata', view.private_metadata, 3000);
  const blocks = view.blocks as Json[];
  if (blocks.length > 100) errors.push(`blocks: ${blocks.length} > 100`);
  blocks.forEach((b, k) => {
    len(`blocks[${k}].block_id`, b.block_id, 255);
    len(`blocks[${k}].label`, (b.label as Json | undefined)?.text, 2000);
    const el = (b.element ?? {}) as Json;
    const options = (el.options as Json[] | undefined) ?? [];
    if (/select$/.test(String(el.type))) {
      if (options.length < 1 || options.length > 100)
        errors.push(`blocks[${k}].options: ${options.length} not in 1..100`);
      options.forEach((o, j) => {
        len(`blocks[${k}].options[${j}].text`, (o.text as Json).text, 75);
        len(`blocks[${k}].options[${j}].value`, o.value, 150);
        len(`blocks[${k}].options[${j}].description`, (o.description as Json | undefined)?.text, 75);
      });
    }
  });
  return errors;
}

describe('slack: the offer builder', () => {
  const session = slackSession(false);
  const emu = session.emu;

  async function send(req: ReturnType<SlackEmulator['slashCommand']>): Promise<void> {
    assert.equal((await sendSigned(session.target, req)).status, 200);
    await session.slack.bot.idle();
  }
  const slash = (user: SlackUser, text: string) => send(emu.slashCommand(user, CHANNEL, text));
  /** The buttons of every message a person was sent (response_url and ephemerals), newest last. */
  const buttonsOf = (user: SlackUser): Element[] =>
    emu.requests
      .filter((r) => r.method === 'response_url' || (r.method === 'chat.postEphemeral' && r.body['user'] === user.id))
      .flatMap((r) =>
        ((r.body['blocks'] as Json[] | undefined) ?? []).flatMap((b) => (b['elements'] as Element[] | undefined) ?? []),
      );

  test('a trade made only with menus and buttons, accepted with a button', async () => {
    await slash(alice, 'new task:market_round seed:7 round_seconds:0');
    await slash(alice, 'join');
    await slash(bob, 'join');
    await slash(alice, 'start');
    let m = (await session.slack.host.current(CHANNEL))!;
    const [labA, labB] = [
      session.slack.host.seatOf(m, `slack:${alice.id}`)!,
      session.slack.host.seatOf(m, `slack:${bob.id}`)!,
    ];

    await slash(alice, 'me');
    const make = buttonsOf(alice).find((e) => e.value === `@${m.id} offer`);
    assert.ok(make, "alice's private view has the Make an offer button");
    await send(emu.blockAction(alice, CHANNEL, make));
    const opened = emu.calls('views.open');
    assert.equal(opened.length, 1, 'the button opens the builder');
    const view = opened[0]!.body['view'] as Json;
    assert.equal(view.callback_id, OFFER_CALLBACK_ID);
    assert.deepEqual(viewErrors(view), []);
    const blocks = view.blocks as Json[];
    assert.deepEqual(
      blocks.map((b) => b.block_id),
      ['to', 'give', 'want', 'pay', 'ask', 'msg'],
    );
    const optionsOf = (id: string) =>
      ((blocks.find((b) => b.block_id === id)!.element as Json).options as Json[]).map((o) => o.value as string);
    assert.deepEqual(
      optionsOf('to').sort(),
      observe(m.state!, labA)
        .labs.filter((l) => !l.finished)
        .map((l) => l.id)
        .sort(),
    );
    const bobBlock = observe(m.state!, labB).self.blocks.find((b) => b.status === 'available')!.id;
    assert.ok(optionsOf('want').includes(bobBlock));
    assert.ok(optionsOf('want').every((id) => m.state!.blocks[id]!.owner !== labA));

    // The submission as Slack sends it: each block's element state under its action_id.
    const pick = (value: string) => ({ value, text: { type: 'plain_text', text: value } });
    const submission = emu.viewSubmission(alice, {
      callback_id: OFFER_CALLBACK_ID,
      private_metadata: String(view.private_metadata),
      actionId: 'v',
      values: {
        to: { type: 'static_select', selected_option: pick(labB) },
        give: { type: 'multi_static_select', selected_options: [] },
        want: { type: 'multi_static_select', selected_options: [pick(bobBlock)] },
        pay: { type: 'number_input', value: '5' },
        ask: { type: 'number_input', value: null },
        msg: { type: 'plain_text_input', value: 'five credits for one block' },
      },
    });
    await send(submission);
    m = (await session.slack.host.current(CHANNEL))!;
    const made = Object.values(m.state!.offers).find((o) => o.from === labA && o.to === labB)!;
    assert.ok(made, 'the offer exists');
    assert.deepEqual([made.requestedBlockIds, made.offeredBlockIds, made.payment], [[bobBlock], [], 5]);
    assert.ok(
      emu.calls('chat.postMessage').some((r) => /makes an offer/.test(JSON.stringify(r.body))),
      'announced in the channel',
    );

    const accept = buttonsOf(bob).find((e) => e.value === `@${m.id} accept offer:${made.id}`);
    assert.ok(accept, "bob's private copy has the Accept button");
    await send(emu.blockAction(bob, CHANNEL, accept));
    m = (await session.slack.host.current(CHANNEL))!;
    assert.equal(m.state!.blocks[bobBlock]!.owner, labA, 'the trade executed');
    if (process.env.DUMP_BUILDER)
      console.log(JSON.stringify({ view, submitted: (submission.payload['view'] as Json)['state'] }, null, 2));
  });

  test("limits: the builder of every seat of 40 coalition_market worlds fits Slack's Block Kit limits", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const state = createMatch({ task: 'coalition_market', seed });
      const m = { id: 'm_0123456789ab', state } as HostedMatch;
      for (const lab of labIdsFor('coalition_market', seed)) {
        const view = offerView(offerForm(m, observe(state, lab)), 'C0123456789/1700000000.000100') as unknown as Json;
        assert.deepEqual(viewErrors(view), [], `seed ${seed} ${lab}`);
      }
    }
  });
});
