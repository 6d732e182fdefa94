/**
 * The Slack App Home, end to end (Bolt against the emulator, the real catalogue and host): alice holds a seat
 * in two matches, one in the thread of its card in one channel and one flat in another. When she opens the
 * app's Home tab (`app_home_opened`), the bot publishes (views.publish) a `home` view for her alone: both
 * matches, each with a link to its channel and her private view of it (her budget and jobs), and nothing
 * of bob's seat. bob, in one of them, gets his own. `DUMP_HOME=1` prints alice's view (docs/CHAT.md).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { observe } from '../../../src/engine/index.js';
import { sendSigned, type SlackUser } from '../../emulators/slack.js';
import { alice, bob, slackSession } from './helpers.js';

type Json = Record<string, unknown>;
const textOf = (view: Json): string =>
  ((view['blocks'] as Json[]) ?? [])
    .flatMap((b) => [
      ((b['text'] as Json | undefined)?.['text'] as string | undefined) ?? '',
      ...(((b['fields'] ?? b['elements']) as Json[] | undefined) ?? []).map((f) => String(f['text'] ?? '')),
    ])
    .join('\n');

describe('slack: the App Home of a person in two matches', () => {
  const session = slackSession(true);
  const emu = session.emu;

  async function slash(user: SlackUser, channel: string, text: string): Promise<void> {
    assert.equal((await sendSigned(session.target, emu.slashCommand(user, channel, text))).status, 200);
    await session.slack.bot.idle();
  }

  test('views.publish: both matches, links to their channels, her private view of each, her record', async () => {
    // A counted match first (no seed chosen by the host: practice matches are not rated): alice plays it out.
    await slash(alice, 'C0HOMEC', 'new task:single_trade round_seconds:0');
    await slash(alice, 'C0HOMEC', 'join');
    await slash(alice, 'C0HOMEC', 'start');
    for (let i = 0; i < 3; i++) await slash(alice, 'C0HOMEC', 'done');
    assert.equal((await session.slack.host.matchesOf(`slack:${alice.id}`, 'slack')).length, 0, 'that match is over');
    await slash(alice, 'C0HOMEA', 'new task:single_trade seed:7 round_seconds:0');
    await slash(alice, 'C0HOMEA', 'join');
    await slash(bob, 'C0HOMEA', 'join');
    await slash(alice, 'C0HOMEA', 'start');
    await slash(alice, 'C0HOMEB', 'new task:market_round seed:9 round_seconds:0 thread:off');
    await slash(alice, 'C0HOMEB', 'join');
    const mine = await session.slack.host.matchesOf(`slack:${alice.id}`, 'slack');
    assert.equal(mine.length, 2);

    const res = await sendSigned(session.target, emu.appHomeOpened(alice));
    assert.equal(res.status, 200);
    await session.slack.bot.idle();
    const published = emu.calls('views.publish');
    assert.equal(published.length, 1);
    assert.equal(published[0]!.body['user_id'], alice.id, 'published for alice alone');
    const view = published[0]!.body['view'] as Json;
    assert.equal(view['type'], 'home');
    const text = textOf(view);
    assert.match(text, /2 open matches/);
    const [threaded, flat] = mine as [(typeof mine)[number], (typeof mine)[number]];
    assert.match(text, new RegExp(`Match \`${threaded.id}\` in the thread under its card in <#C0HOMEA>`));
    assert.match(text, new RegExp(`Match \`${flat.id}\` in <#C0HOMEB>`));
    // Her private view of the running match: her budget and jobs; nothing of bob's seat.
    const labA = session.slack.host.seatOf(threaded, `slack:${alice.id}`)!;
    const labB = session.slack.host.seatOf(threaded, `slack:${bob.id}`)!;
    const own = observe(threaded.state!, labA).self;
    assert.ok(text.includes(own.budget.toFixed(2)), 'her budget');
    for (const j of own.jobs) assert.ok(text.includes(j.id), `her job ${j.id}`);
    for (const j of observe(threaded.state!, labB).self.jobs) assert.ok(!text.includes(j.id), `not bob's job ${j.id}`);
    assert.ok((view['blocks'] as unknown[]).length <= 100);
    // Her record: a rating from the one counted match, that match among her latest, the data notice.
    assert.match(text, /Leaderboard: \d+\. alice \(person\) \*\d+\* \[\d+, \d+\].*\nRating: Bradley–Terry/);
    assert.match(
      text,
      /Latest counted matches \(1 in all\)\*?\nsingle_trade, \d{4}-\d\d-\d\d: rank [12] of 2, reward [+-]\d\.\d{3}/,
    );
    assert.match(
      text,
      /Your data\*?\nnot asked yet: nothing of yours is exported\. `privacy` shows what is stored about you/,
    );

    await sendSigned(session.target, emu.appHomeOpened(bob));
    await session.slack.bot.idle();
    const bobs = emu.calls('views.publish')[1]!;
    assert.equal(bobs.body['user_id'], bob.id);
    assert.match(textOf(bobs.body['view'] as Json), /1 open match\./);
    assert.match(textOf(bobs.body['view'] as Json), /Not rated yet/);
    if (process.env.DUMP_HOME) console.log(JSON.stringify(view, null, 2));
  });
});
