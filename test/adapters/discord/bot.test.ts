/**
 * The Discord adapter against the local emulator with a fake command backend: how replies travel
 * (callback types, flags, webhooks), deferral, buttons, the pitch modal, autocomplete, channel posts,
 * admin detection and logs. The real catalogue and host are covered by match.test.ts.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Caller, Reply } from '../../../src/commands/types.js';
import { DEADLINE_FIELD } from '../../../src/present/common.js';
import type { CommandBackend, RawOptions } from '../../../src/adapters/discord/backend.js';
import { startDiscordBot, type DiscordBot } from '../../../src/adapters/discord/bot.js';
import { INBOX_BUTTON_ID } from '../../../src/adapters/discord/deliver.js';
import { MemoryInbox, type PrivateInbox } from '../../../src/adapters/discord/inbox.js';
import { DiscordEmulator, type EmulatorUser, type RecordedRequest } from '../../emulators/discord.js';

const TOKEN = 'fake.bot.token-SECRET-123';
const alice: EmulatorUser = { id: '300000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '300000000000000002', username: 'bob', roles: ['400000000000000009'] };
const mod: EmulatorUser = { id: '300000000000000003', username: 'mod', permissions: '32' }; // ManageGuild = 1 << 5

interface Call {
  kind: 'run' | 'text';
  name: string;
  caller: Caller;
  options?: RawOptions;
  match?: string;
}

class FakeBackend implements CommandBackend {
  readonly commands = [
    { name: 'status', description: 'Show', help: '', options: [], access: 'anyone' as const },
    { name: 'me', description: 'Me', help: '', options: [], access: 'seat' as const },
    { name: 'done', description: 'Done', help: '', options: [], access: 'seat' as const },
    {
      name: 'pitch',
      description: 'Pitch',
      help: '',
      options: [
        { name: 'text', description: 't', kind: 'text' as const, required: true },
        { name: 'job', description: 'j', kind: 'jobs' as const, required: false },
      ],
      access: 'seat' as const,
    },
    {
      name: 'allocate',
      description: 'Alloc',
      help: '',
      options: [{ name: 'blocks', description: 'b', kind: 'blocks' as const, required: true }],
      access: 'seat' as const,
    },
  ];
  calls: Call[] = [];
  /** When set, `status` waits for this promise (to test the soft deadline). */
  gate: Promise<void> | null = null;

  async run(_channelId: string, caller: Caller, name: string, options: RawOptions): Promise<Reply> {
    this.calls.push({ kind: 'run', name, caller, options });
    return this.reply(name, caller);
  }
  async runText(_channelId: string, caller: Caller, text: string, opts: { match?: string } = {}): Promise<Reply> {
    this.calls.push({ kind: 'text', name: text, caller, ...(opts.match !== undefined ? { match: opts.match } : {}) });
    return this.reply(text.split(' ')[0]!, caller);
  }
  completeCalls: { kind: string; typed: string; where: { command: string; option: string } }[] = [];
  async complete(_c: string, _caller: Caller, kind: string, typed: string, where: { command: string; option: string }) {
    this.completeCalls.push({ kind, typed, where });
    return [
      { name: 'b_0_0,b_0_1 (4 GPU)', value: 'b_0_0,b_0_1' },
      { name: 'too long', value: 'x'.repeat(101) },
    ];
  }
  async context() {
    return { matchId: 'm_1', seat: 'lab_0', phase: 'running' as const, round: 1 };
  }
  private async reply(name: string, caller: Caller): Promise<Reply> {
    if ((name === 'status' || name === 'me') && this.gate) await this.gate;
    if (name === 'me')
      return { public: [], private: [{ userId: caller.userId, title: 'Your seat', text: 'budget 101.5' }] };
    if (name === 'done') {
      return {
        public: [
          {
            title: 'Round 1 closed',
            text: 'trades: none',
            buttons: [{ id: 'arena:status', label: 'Status', command: 'status', style: 'secondary', matchId: 'm_1' }],
          },
        ],
        private: [
          { userId: caller.userId, text: 'your reward 0.1' },
          { userId: `discord:${bob.id}`, text: 'bob reward 0.2' },
        ],
      };
    }
    return {
      public: [
        {
          title: name,
          text: `ran ${name}`,
          fields: [{ name: DEADLINE_FIELD, value: new Date(1_900_000_000_000).toISOString() }],
          buttons: [
            { id: 'x', label: 'Accept o_1', command: 'accept offer:o_1', style: 'success', matchId: 'm_1' },
            { id: 'y', label: 'Long', command: `message text:"${'x'.repeat(120)}"`, style: 'primary', matchId: 'm_1' },
          ],
        },
      ],
      private: [],
    };
  }
}

const callbacks = (reqs: RecordedRequest[]) =>
  reqs
    .filter((r) => r.path.endsWith('/callback'))
    .map((r) => r.body as { type: number; data?: Record<string, unknown> });

describe('discord bot against the emulator (fake backend)', () => {
  const emu = new DiscordEmulator({ roleIds: ['400000000000000009'] });
  const backend = new FakeBackend();
  const logLines: string[] = [];
  let bot: DiscordBot;

  before(async () => {
    await emu.start();
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (c: Buffer, _e, cb) => (logLines.push(String(c)), cb()) }),
    );
    bot = await startDiscordBot({
      backend,
      token: TOKEN,
      logger,
      restApi: emu.restApi,
      adminRoleId: '400000000000000009',
      softDeadlineMs: 60_000,
    });
  });
  after(async () => {
    await bot.stop();
    await emu.close();
  });

  test('identifies with only the Guilds intent', () => {
    assert.equal(emu.identifies.length, 1);
    assert.equal(emu.identifies[0]!.intents, 1);
  });

  test('a public command is answered with a type 4 callback, buttons as arena:@<match> <text> custom ids, timer as <t:..:R>', async () => {
    const d = emu.dispatchSlash(alice, 'arena', 'status');
    await bot.handled(d.id);
    const cbs = callbacks(emu.forInteraction(d));
    assert.equal(cbs.length, 1);
    assert.equal(cbs[0]!.type, 4);
    assert.equal(cbs[0]!.data!.flags ?? 0, 0);
    const rows = cbs[0]!.data!.components as { components: { custom_id: string }[] }[];
    const ids = rows.flatMap((r) => r.components.map((c) => c.custom_id));
    assert.equal(ids[0], 'arena:@m_1 accept offer:o_1');
    assert.match(ids[1]!, /^arena#/);
    assert.ok(ids.every((i) => i.length <= 100));
    const embed = (cbs[0]!.data!.embeds as { fields?: { value: string }[] }[])[0]!;
    assert.deepEqual(
      embed.fields!.map((f) => f.value),
      ['<t:1900000000:R> (<t:1900000000:T>)'],
    );
    assert.deepEqual(cbs[0]!.data!.allowed_mentions, { parse: [] });
    assert.equal(backend.calls.at(-1)!.caller.userId, `discord:${alice.id}`);
  });

  test('a private-only reply is ephemeral (flags 64, never `ephemeral`)', async () => {
    const d = emu.dispatchSlash(alice, 'arena', 'me');
    await bot.handled(d.id);
    const cbs = callbacks(emu.forInteraction(d));
    assert.equal(cbs[0]!.type, 4);
    assert.equal(cbs[0]!.data!.flags, 64);
    assert.equal('ephemeral' in cbs[0]!.data!, false);
  });

  test('a slow command is deferred (type 5) and edited (PATCH @original); others’ private posts wait in their inbox', async () => {
    const d = emu.dispatchSlash(alice, 'arena', 'done');
    await bot.handled(d.id);
    const reqs = emu.forInteraction(d);
    assert.equal(callbacks(reqs)[0]!.type, 5);
    const edit = reqs.find((r) => r.method === 'PATCH' && r.path.endsWith('/messages/@original'));
    assert.ok(edit, 'deferred reply edited');
    assert.match(JSON.stringify(edit.body), /Round 1 closed/);
    assert.match(
      JSON.stringify(edit.body),
      /"custom_id":"arena-inbox"/,
      'held private posts are announced by a button',
    );
    const follow = reqs.filter((r) => r.method === 'POST' && r.path.includes('/webhooks/'));
    assert.equal(follow.length, 1);
    assert.equal((follow[0]!.body as { flags: number }).flags, 64);
    assert.match(JSON.stringify(follow[0]!.body), /your reward/);
    assert.doesNotMatch(JSON.stringify(reqs.map((r) => r.body)), /bob reward/);
    // Bob's private post arrives, ephemeral, with his next interaction.
    const b = emu.dispatchSlash(bob, 'arena', 'me');
    await bot.handled(b.id);
    const bobReqs = emu.forInteraction(b);
    const bobPosts = [
      ...callbacks(bobReqs).map((c) => c.data),
      ...bobReqs.filter((r) => r.path.includes('/webhooks/')).map((r) => r.body as Record<string, unknown>),
    ];
    assert.ok(bobPosts.some((p) => JSON.stringify(p).includes('bob reward') && p!.flags === 64));
  });

  test('a command still running after the soft deadline is deferred, then edited (or replaced by an ephemeral follow-up)', async () => {
    let open!: () => void;
    backend.gate = new Promise((r) => (open = r));
    const slowBot = await startDiscordBot({
      backend,
      token: TOKEN,
      logger: pino({ level: 'silent' }),
      restApi: emu.restApi,
      softDeadlineMs: 1,
    });
    try {
      const d = emu.dispatchSlash(alice, 'arena', 'status');
      // Both bots receive the dispatch; wait for the deferral of either, then let the command finish.
      await emu.waitFor(
        (r) => r.path.startsWith(`/api/v10/interactions/${d.id}/`) && (r.body as { type: number }).type === 5,
      );
      open();
      await Promise.all([bot.handled(d.id), slowBot.handled(d.id)]);
      assert.ok(emu.forInteraction(d).some((r) => r.method === 'PATCH' && r.path.endsWith('/@original')));
      // A private-only answer to a late (publicly deferred) command: the placeholder goes, an ephemeral follow-up comes.
      let open2!: () => void;
      backend.gate = new Promise((r) => (open2 = r));
      const p = emu.dispatchSlash(alice, 'arena', 'me');
      await emu.waitFor(
        (r) => r.path.startsWith(`/api/v10/interactions/${p.id}/`) && (r.body as { type: number }).type === 5,
      );
      open2();
      await Promise.all([bot.handled(p.id), slowBot.handled(p.id)]);
      const reqs = emu.forInteraction(p);
      assert.ok(reqs.some((r) => r.method === 'DELETE' && r.path.endsWith('/messages/@original')));
      assert.ok(
        reqs.some(
          (r) => r.method === 'POST' && r.path.includes('/webhooks/') && (r.body as { flags?: number }).flags === 64,
        ),
      );
    } finally {
      backend.gate = null;
      await slowBot.stop();
    }
  });

  test('the "My private update" button is deferred (ephemeral) while a slow store takes the inbox, then answered', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const held = new MemoryInbox();
    await held.add(emu.channelId, [
      { userId: `discord:${alice.id}`, text: 'held for you while the database was slow' },
    ]);
    const slowInbox: PrivateInbox = {
      add: (c, p) => held.add(c, p),
      take: async (u, c) => (await gate, held.take(u, c)),
    };
    const slowBot = await startDiscordBot({
      backend,
      token: TOKEN,
      logger: pino({ level: 'silent' }),
      restApi: emu.restApi,
      softDeadlineMs: 1,
      inbox: slowInbox,
    });
    try {
      const d = emu.dispatchButton(alice, INBOX_BUTTON_ID);
      const deferral = await emu.waitFor(
        (r) => r.path.startsWith(`/api/v10/interactions/${d.id}/`) && (r.body as { type: number }).type === 5,
      );
      assert.equal(
        (deferral.body as { data?: { flags?: number } }).data?.flags,
        64,
        'deferred ephemerally: the answer is private',
      );
      open();
      await Promise.all([bot.handled(d.id), slowBot.handled(d.id)]);
      const answered = emu
        .forInteraction(d)
        .some(
          (r) =>
            r.method === 'POST' &&
            r.path.includes('/webhooks/') &&
            JSON.stringify(r.body).includes('held for you while the database was slow'),
        );
      assert.ok(answered, 'the held post arrives as a follow-up');
    } finally {
      await slowBot.stop();
    }
  });

  test('a button runs its command text in its match; a long text is resolved through the hash map; an unbound one is refused', async () => {
    const d = emu.dispatchButton(alice, 'arena:@m_1 accept offer:o_1');
    await bot.handled(d.id);
    assert.equal(backend.calls.at(-1)!.kind, 'text');
    assert.equal(backend.calls.at(-1)!.name, 'accept offer:o_1');
    assert.equal(backend.calls.at(-1)!.match, 'm_1', 'the match the button was made for goes with it');
    // A button without its match (as made before buttons named one) could act on any match: refused, nothing run.
    const before = backend.calls.length;
    const old = emu.dispatchButton(alice, 'arena:accept offer:o_1');
    await bot.handled(old.id);
    assert.equal(backend.calls.length, before);
    const refused = callbacks(emu.forInteraction(old))[0]!;
    assert.equal(refused.data!.flags, 64);
    assert.match(String(refused.data!.content), /expired\. Nothing was changed/);
    const s = emu.dispatchSlash(alice, 'arena', 'status');
    await bot.handled(s.id);
    const rows = callbacks(emu.forInteraction(s))[0]!.data!.components as { components: { custom_id: string }[] }[];
    const longId = rows[0]!.components[1]!.custom_id;
    const l = emu.dispatchButton(alice, longId);
    await bot.handled(l.id);
    assert.equal(backend.calls.at(-1)!.name, `message text:"${'x'.repeat(120)}"`);
    const unknown = emu.dispatchButton(alice, 'arena#nonexistent');
    await bot.handled(unknown.id);
    const cb = callbacks(emu.forInteraction(unknown))[0]!;
    assert.equal(cb.data!.flags, 64);
  });

  test('/arena pitch without text opens the modal (type 9); its submit runs pitch with the fields', async () => {
    const before = backend.calls.length;
    const d = emu.dispatchSlash(alice, 'arena', 'pitch');
    await bot.handled(d.id);
    const cb = callbacks(emu.forInteraction(d))[0]!;
    assert.equal(cb.type, 9);
    assert.equal(backend.calls.length, before, 'no command ran yet');
    const modal = cb.data as { custom_id: string; components: { type: number; component: { custom_id: string } }[] };
    assert.deepEqual(
      modal.components.map((c) => [c.type, c.component.custom_id]),
      [
        [18, 'text'],
        [18, 'job'],
      ],
    );
    const m = emu.dispatchModal(alice, modal.custom_id, { text: 'I need j_0_1 done by round 2', job: 'j_0_1' });
    await bot.handled(m.id);
    assert.deepEqual(backend.calls.at(-1)!.options, { text: 'I need j_0_1 done by round 2', job: 'j_0_1' });
    assert.equal(callbacks(emu.forInteraction(m))[0]!.type, 4);
  });

  test('a button running just `pitch` opens the form too', async () => {
    const d = emu.dispatchButton(alice, 'arena:@m_1 pitch');
    await bot.handled(d.id);
    const cb = callbacks(emu.forInteraction(d))[0]!;
    assert.equal(cb.type, 9);
    assert.equal((cb.data as { custom_id: string }).custom_id, 'arena-modal:pitch');
  });

  test('autocomplete passes kind, typed text and option to the backend and answers with type 8 choices ≤ 100 chars', async () => {
    const d = emu.dispatchAutocomplete(alice, 'arena', 'allocate', [
      { name: 'blocks', type: 3, value: 'b_0_0,b_0_', focused: true },
    ]);
    await bot.handled(d.id);
    assert.deepEqual(backend.completeCalls.at(-1), {
      kind: 'blocks',
      typed: 'b_0_0,b_0_',
      where: { command: 'allocate', option: 'blocks' },
    });
    const cb = callbacks(emu.forInteraction(d))[0]!;
    assert.equal(cb.type, 8);
    assert.deepEqual((cb.data as { choices: unknown[] }).choices, [
      { name: 'b_0_0,b_0_1 (4 GPU)', value: 'b_0_0,b_0_1' },
    ]);
  });

  test('admins: Manage Server permission or the configured role; others not', async () => {
    for (const [u, admin] of [
      [alice, false],
      [bob, true],
      [mod, true],
    ] as const) {
      const d = emu.dispatchSlash(u, 'arena', 'status');
      await bot.handled(d.id);
      assert.equal(backend.calls.at(-1)!.caller.isAdmin, admin, u.username);
    }
  });

  test('publish posts public posts to the channel with the bot token, and holds private ones', async () => {
    const n = emu.requests.length;
    await bot.publish(emu.channelId, {
      public: [{ title: 'Round 2 closed (timer)', text: 'no trades' }],
      private: [{ userId: `discord:${alice.id}`, text: 'alice close reward' }],
    });
    const posts = emu.requests
      .slice(n)
      .filter((r) => r.method === 'POST' && r.path === `/api/v10/channels/${emu.channelId}/messages`);
    assert.equal(posts.length, 1);
    assert.equal(posts[0]!.authorization, `Bot ${TOKEN}`);
    assert.doesNotMatch(JSON.stringify(posts[0]!.body), /alice close reward/);
    assert.match(JSON.stringify(posts[0]!.body), /"custom_id":"arena-inbox"/);
    const me = emu.dispatchButton(alice, 'arena-inbox');
    await bot.handled(me.id);
    const got = emu.forInteraction(me).map((r) => r.body as { data?: { flags?: number }; flags?: number });
    assert.ok(got.some((b) => JSON.stringify(b).includes('alice close reward') && (b.data?.flags ?? b.flags) === 64));
  });

  test('logs carry match id, seat and command, and never the token', () => {
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const answered = lines.filter((l) => l.msg === 'discord: command answered');
    assert.ok(answered.length > 0);
    assert.ok(answered.every((l) => l.matchId === 'm_1' && l.seat === 'lab_0' && typeof l.command === 'string'));
    assert.ok(!logLines.join('').includes(TOKEN));
  });
});
