/**
 * The offer builder on Discord, end to end (discord.js against the emulator): alice opens her private view,
 * presses "Make an offer", gets a modal of string selects built from her own view (the lab, her blocks, the
 * blocks she may want) and text inputs, picks bob's block and types 5 credits: no id is typed. The submit
 * runs the catalogue's `offer`; bob accepts with his Accept button and the trade executes. bob's Counter
 * button opens the same builder pre-filled with the offer mirrored. Every request the bot made is checked
 * against Discord's documented limits by the emulator (emu.refused stays empty). Then the limits test: the
 * builder of every seat of 40 coalition_market worlds (the largest task) fits Discord's modal limits.
 * `DUMP_BUILDER=1` prints the modal and the submit (docs/CHAT.md quotes them).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMatch, labIdsFor, observe } from '../../../src/engine/index.js';
import { FakeClock, type HostedMatch } from '../../../src/host/index.js';
import { offerForm } from '../../../src/commands/builder.js';
import { offerModalJson } from '../../../src/adapters/discord/builder.js';
import { modalErrors, type EmulatorUser } from '../../emulators/discord.js';
import { answerOf, buttonIds, click, isEphemeral, slash, discordSession } from './helpers.js';

type Json = Record<string, unknown>;
const alice: EmulatorUser = { id: '360000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '360000000000000002', username: 'bob' };

/** The selects and text inputs of a modal, by custom_id. */
function modalParts(data: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const c of data.components as Json[]) {
    const inner = c.component as Json;
    out.set(inner.custom_id as string, { ...inner, label: c.label });
  }
  return out;
}

describe('discord: the offer builder', () => {
  const session = discordSession({ hostOptions: { clock: new FakeClock(), autoDone: false } });
  const emu = session.emu;

  test('a trade made only with menus and buttons, accepted with a button', async () => {
    const { bot, host } = session.rt;
    await slash(emu, bot, alice, 'new', { task: 'market_round', seed: 7, round_seconds: 0 });
    await slash(emu, bot, alice, 'join');
    await slash(emu, bot, bob, 'join');
    await slash(emu, bot, alice, 'start');
    let m = (await host.current(emu.channelId))!;
    const [labA, labB] = [host.seatOf(m, `discord:${alice.id}`)!, host.seatOf(m, `discord:${bob.id}`)!];

    // alice's private view carries "Make an offer"; pressing it opens the builder (callback type 9).
    const view = await slash(emu, bot, alice, 'me');
    const mine = view.messages.find((x) => buttonIds(x.body).some((id) => id === `arena:@${m.id} offer`));
    assert.ok(mine && isEphemeral(mine.body), 'the private view has the Make an offer button');
    const opened = await click(emu, bot, alice, `arena:@${m.id} offer`, mine.body);
    assert.equal(opened.callbacks.length, 1);
    assert.equal(opened.callbacks[0]!.type, 9, 'the button answers with a modal');
    const modal = opened.callbacks[0]!.data!;
    const parts = modalParts(modal);
    assert.deepEqual([...parts.keys()], ['to', 'give', 'want', 'credits', 'msg']);
    const obs = observe(m.state!, labA);
    assert.deepEqual(
      (parts.get('to')!.options as Json[]).map((o) => o.value).sort(),
      obs.labs
        .filter((l) => !l.finished)
        .map((l) => l.id)
        .sort(),
      'the labs alice can trade with',
    );
    assert.deepEqual(
      (parts.get('give')!.options as Json[]).map((o) => o.value),
      obs.self.blocks.filter((b) => b.status === 'available' || b.status === 'reserved').map((b) => b.id),
      'her own tradable blocks',
    );
    const wantable = (parts.get('want')!.options as Json[]).map((o) => o.value as string);
    assert.ok(
      wantable.length > 0 && wantable.every((id) => m.state!.blocks[id]!.owner !== labA),
      "only other labs' blocks are wanted",
    );

    // Submit: bob's lab, one of his blocks, 5 credits, a note. No id typed: every value is an option picked.
    const bobBlock = observe(m.state!, labB).self.blocks.find((b) => b.status === 'available')!.id;
    assert.ok(wantable.includes(bobBlock));
    const submit = emu.dispatchModal(
      alice,
      modal.custom_id as string,
      { to: [labB], give: [], want: [bobBlock], credits: '5', msg: 'five credits for one block' },
      undefined,
      mine.body,
    );
    await bot.handled(submit.id);
    const sent = answerOf(emu, submit);
    assert.ok(
      sent.messages.some((x) => !isEphemeral(x.body) && /makes an offer/.test(JSON.stringify(x.body))),
      'the offer is announced',
    );
    m = (await host.current(emu.channelId))!;
    const made = Object.values(m.state!.offers).find((o) => o.from === labA && o.to === labB)!;
    assert.ok(made, 'the offer exists');
    assert.deepEqual(
      [made.requestedBlockIds, made.offeredBlockIds, made.payment, made.message],
      [[bobBlock], [], 5, 'five credits for one block'],
    );

    // bob's Counter opens the builder pre-filled with the offer mirrored; then he accepts with his Accept button.
    const inbox = await click(emu, bot, bob, 'arena-inbox');
    const bobPost = inbox.messages.find((x) => buttonIds(x.body).includes(`arena:@${m.id} accept offer:${made.id}`))!;
    assert.ok(bobPost, "bob's private copy of the offer has its buttons");
    const counter = await click(emu, bot, bob, `arena:@${m.id} counter offer:${made.id}`, bobPost.body);
    assert.equal(counter.callbacks[0]!.type, 9);
    const cparts = modalParts(counter.callbacks[0]!.data!);
    assert.ok(!cparts.has('to'), 'a counter goes back to the sender: no lab to pick');
    assert.deepEqual(
      (cparts.get('give')!.options as Json[]).filter((o) => o.default).map((o) => o.value),
      [bobBlock],
      'pre-filled: the block alice asked for',
    );
    const accepted = await click(emu, bot, bob, `arena:@${m.id} accept offer:${made.id}`, bobPost.body);
    assert.ok(accepted.callbacks.length >= 1);
    m = (await host.current(emu.channelId))!;
    assert.equal(m.state!.blocks[bobBlock]!.owner, labA, 'the trade executed');
    assert.deepEqual(emu.refused, [], 'no request broke a documented Discord limit');
    if (process.env.DUMP_BUILDER)
      console.log(
        JSON.stringify(
          {
            modal,
            submitted: { custom_id: modal.custom_id, to: [labB], give: [], want: [bobBlock], credits: '5' },
            announced: sent.messages.map((x) => x.body),
          },
          null,
          2,
        ),
      );
  });

  test('limits: the builder of every seat of 40 coalition_market worlds fits a Discord modal', () => {
    let worst = { options: 0, labs: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const state = createMatch({ task: 'coalition_market', seed });
      const m = { id: 'm_0123456789ab', state } as HostedMatch;
      for (const lab of labIdsFor('coalition_market', seed)) {
        const form = offerForm(m, observe(state, lab));
        const modal = offerModalJson(form) as unknown as Json;
        assert.deepEqual(modalErrors(modal), [], `seed ${seed} ${lab}`);
        const counts = (modal.components as Json[]).map(
          (c) => (((c.component as Json).options as unknown[] | undefined) ?? []).length,
        );
        worst = { options: Math.max(worst.options, ...counts), labs: Math.max(worst.labs, form.targets.length + 1) };
      }
    }
    assert.ok(worst.options <= 25 && worst.labs >= 5, JSON.stringify(worst));
    if (process.env.DUMP_BUILDER) console.log('largest coalition_market builder:', worst);
  });
});
