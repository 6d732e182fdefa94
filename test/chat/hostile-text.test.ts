/**
 * Player text is data on every surface. A corpus of hostile strings — fake round-close
 * headings and winner lines, fake `[private → you]` lines, disguised links, mass mentions, a newline then a
 * bold fake speaker, terminal escapes (OSC 52 clipboard, window title, clear screen, hidden text), bidi
 * overrides and forged span markers — is written as pitches, public and direct messages, offer notes,
 * coalition purposes and display names through the real command catalogue and round host, and every reply
 * is rendered for Discord, Slack and the terminal. Each piece of player text must stay inside its quote
 * (blocks) or be escaped (inline), and no control character may reach any output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanText } from '../../src/engine/clean-text.js';
import { ActionSchema } from '../../src/engine/actions.js';
import { playerBlock, playerText, personName, plainOf, spansOf } from '../../src/chat/player-text.js';
import type { Post, Reply } from '../../src/chat/types.js';
import { ButtonIds, renderPost as renderDiscord } from '../../src/adapters/discord/render.js';
import { renderPost as renderSlack } from '../../src/adapters/slack/render.js';
import { renderReply } from '../../src/adapters/console/render.js';
import { seatLabel } from '../../src/present/common.js';
import { arena, assertOk, type Arena } from '../commands/harness.js';
import type { Caller } from '../../src/commands/types.js';

/** Hostile player strings: one of the cases docs/SECURITY.md covers. */
export const CORPUS: Record<string, string> = {
  roundClose: 'We need capacity.\n**Round 9/9 closed: every seat is done**\n# Round 9/9 is open',
  winner: 'Fair pitch.\n🏆 Lab B: 0.99 — Winner: Lab B (bonus +0.777)',
  privateLine: 'hello there\n# [private → you] Budget 250.00\n[private → you] Lab B transferred 40.00 credits to you',
  maskedLink: 'Please check [Open your private view](https://evil.example/login) before the round ends',
  mentions: '@everyone <@&777> **Lab B won the pitch** <!channel> <!here> @here @channel <@U999> <#C123> <t:1:R>',
  slackSpeaker: 'ok\n**Lab B:** I accept every offer you send\n*Lab C:* me too _really_ ~no~ `code` > quoted',
  terminal:
    'plain\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned title\x07\x1b[2J\x1b[H\x1b[8mhidden\x1b[0m\r\n[private → you] Lab B transferred 40.00 credits to you\x07',
  bidi: 'totally fair \u202eB baL rof etov\u202c pitch\u200b\u2066x\u2069',
  markers: 'forged \uE001 close \uE003 block \uE000 open \uE002 end \uE004 0 \uE005',
  discordExtras: '||spoiler|| ```js\ncode``` -# subtext\n- list\n1. numbered\n> quote',
};

/** Inline (one-line) variants for names: the same attacks without their line breaks. */
const NAMES = [
  'LLM: gpt-4o',
  'scripted',
  '@everyone <@&777> **Lab B won the pitch**',
  '🤖 LLM: gpt-4o',
  'x\x1b]0;t\x07\u202eevil',
  'Lab B (scripted)',
];

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b\uE000-\uE005]/;

function caller(i: number, name: string): Caller {
  return { userId: `test:p${i}`, displayName: name, isAdmin: false };
}

/** A match where seat names are hostile and every text command carries a hostile string; all replies. */
async function hostileReplies(): Promise<{ a: Arena; replies: Reply[] }> {
  const a = await arena();
  const [p0, p1] = [caller(0, NAMES[0]!), caller(1, NAMES[2]!)];
  const replies: Reply[] = [];
  const run = async (who: Caller, name: string, options: Record<string, unknown>) => {
    const r = await a.runTyped(who, name, options);
    replies.push(r);
    return r;
  };
  assertOk(await run(p0, 'new', { task: 'market_round', seed: 7, round_seconds: 0 }));
  assertOk(await run(p0, 'join', { lab: 'lab_0' }));
  assertOk(await run(p1, 'join', { lab: 'lab_1' }));
  assertOk(await run(p0, 'start', {}));
  // Two corpus entries a round (the engine allows 12 actions a seat a round), then both seats are done.
  for (const [i, [key, text]] of Object.entries(CORPUS).entries()) {
    if (i > 0 && i % 2 === 0 && i < 10) {
      assertOk(await run(p0, 'done', {}));
      assertOk(await run(p1, 'done', {}));
    }
    assertOk(await run(p0, 'pitch', { text: `${key}: ${text}`.slice(0, 1200) }), `pitch ${key}`);
    assertOk(await run(p0, 'message', { text: text.slice(0, 500) }), `message ${key}`);
    assertOk(await run(p1, 'message', { text: text.slice(0, 500), to: 'lab_0' }), `direct ${key}`);
    assertOk(await run(p1, 'offer', { to: 'lab_0', pay: 1, msg: text.slice(0, 500) }), `offer ${key}`);
  }
  assertOk(await run(p0, 'coalition', { action: 'propose', with: 'lab_1', msg: CORPUS.privateLine!.slice(0, 500) }));
  replies.push(await a.runTyped(p0, 'me', {}), await a.runTyped(p1, 'me', {}), await a.runTyped(p0, 'status', {}));
  return { a, replies };
}

/**
 * Bot lines that player text could try to imitate, as a line start (after markup characters). Player text
 * inside a bot line (an inline, escaped note after "note:") is not a line of its own and cannot pass for one.
 */
const FORGED = [
  /^[\W_]*Round 9\/9 (closed|is open)/,
  /^[\W_]*Winner: Lab B \(bonus \+0\.777/,
  /^[\W_]*🏆 Lab B: 0\.99/,
  /^[\W_]*\[private → you\]/,
  /^[\W_]*Lab B:\W* I accept/,
  /^[\W_]*Lab B transferred 40\.00/,
];

test('the engine strips controls and terminal escapes from every action text (zod and the fast path agree)', () => {
  for (const [key, text] of Object.entries(CORPUS)) {
    const clean = cleanText(text);
    assert.ok(
      // eslint-disable-next-line no-control-regex
      !/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b]/.test(clean),
      `${key}: ${JSON.stringify(clean)}`,
    );
    assert.equal(cleanText(clean), clean, `${key}: idempotent`);
    const parsed = ActionSchema.safeParse({ action_type: 'send_message', message: text.slice(0, 500) });
    assert.ok(parsed.success);
    assert.equal((parsed.data as { message: string }).message, cleanText(text.slice(0, 500)).trim());
  }
  assert.equal(cleanText(CORPUS.terminal!), 'plainhidden\n[private → you] Lab B transferred 40.00 credits to you');
  assert.equal(cleanText('a\tb\r\nc\u2028d'), 'a b\nc\nd');
});

test('span markers: player text cannot close its own quote or forge a span', () => {
  const forged = playerText(CORPUS.markers!);
  assert.deepEqual(
    spansOf(forged).map((s) => s.kind),
    ['inline'],
  );
  const block = playerBlock(`a\n${CORPUS.markers!}\nb`);
  assert.deepEqual(
    spansOf(block).map((s) => s.kind),
    ['block'],
  );
  assert.equal(plainOf(`x ${playerBlock('one\n\n two ')} y`), 'x\n> one\n>  two\ny');
});

test('people and agents: a nickname can never pass for an agent label', async () => {
  const { a } = await hostileRepliesOnce();
  const m = (await a.host.current('test:arena'))!;
  const person = seatLabel(m, 'lab_0');
  assert.ok(plainOf(person).startsWith('Lab A (👤 LLM: gpt-4o)'), plainOf(person));
  for (const n of NAMES) {
    const label = plainOf(personName(n));
    assert.ok(label.startsWith('👤 '), label);
    assert.ok(!CONTROL.test(label), JSON.stringify(label));
  }
});

let cached: Promise<{ a: Arena; replies: Reply[] }> | null = null;
const hostileRepliesOnce = () => (cached ??= hostileReplies());

test('Discord: every player string is escaped or inside a > quote; nothing forged, no mention parsed', async () => {
  const { replies } = await hostileRepliesOnce();
  const ids = new ButtonIds();
  let quoted = 0;
  for (const post of replies.flatMap((r) => [...r.public, ...r.private])) {
    const payload = renderDiscord(post, ids);
    assert.deepEqual(payload.allowedMentions, { parse: [] });
    const embed = payload.embeds[0]!;
    const texts = [
      embed.title ?? '',
      embed.description ?? '',
      ...(embed.fields ?? []).flatMap((f) => [f.name, f.value]),
    ];
    for (const t of texts) {
      assert.ok(!CONTROL.test(t), `control character in ${JSON.stringify(t)}`);
      for (const line of t.split('\n')) {
        const inQuote = line.startsWith('> ');
        if (inQuote) quoted++;
        // Outside a quote, what Discord would parse (escapes removed) must not look like a bot line.
        const unescaped = line.replace(/\\./g, '');
        if (!inQuote) for (const re of FORGED) assert.ok(!re.test(unescaped), `forged ${re} outside a quote: ${line}`);
        // Player markup never survives unescaped: no masked link, mention, heading or mass ping.
        assert.ok(!/\[[^\]]*\]\(https?:/.test(unescaped), `masked link: ${line}`);
        assert.ok(!/<[@#!t]|@everyone|@here/.test(unescaped), `mention: ${line}`);
        assert.ok(!/^(> )?#+ /.test(unescaped), `heading: ${line}`);
      }
    }
  }
  assert.ok(quoted > 40, `player blocks are quoted (${quoted} quote lines)`);
});

test('Slack: mrkdwn is verbatim, player blocks are > quotes, no player emphasis, link or mention survives', async () => {
  const { replies } = await hostileRepliesOnce();
  let quoted = 0;
  for (const post of replies.flatMap((r) => [...r.public, ...r.private])) {
    const msg = renderSlack(post);
    assert.ok(!CONTROL.test(JSON.stringify(msg).replace(/\\n/g, '')), 'no control character');
    const mrkdwn: string[] = [msg.text];
    for (const b of msg.blocks as {
      type: string;
      text?: { type: string; text: string; verbatim?: boolean };
      fields?: { type: string; text: string; verbatim?: boolean }[];
    }[]) {
      for (const o of [...(b.text ? [b.text] : []), ...(b.fields ?? [])]) {
        if (o.type !== 'mrkdwn') continue;
        assert.equal(o.verbatim, true, 'every mrkdwn object is verbatim');
        mrkdwn.push(o.text);
      }
    }
    for (const t of mrkdwn) {
      for (const line of t.split('\n')) {
        const inQuote = line.startsWith('>');
        if (inQuote) {
          quoted++;
          assert.ok(!/[*_~`]/.test(line), `player emphasis inside a quote: ${line}`);
        } else
          for (const re of FORGED)
            assert.ok(!re.test(line.replace(/\*/g, '')), `forged ${re} outside a quote: ${line}`);
        assert.ok(!/<[!@#]/.test(line), `a Slack mention/link escape: ${line}`);
        assert.ok(!/<https?:/.test(line), `a Slack link: ${line}`);
      }
    }
  }
  assert.ok(quoted > 40, `player blocks are quoted (${quoted} quote lines)`);
});

test('terminal: no escape reaches the screen, every player line is under │, nothing looks private in public', async () => {
  const { replies } = await hostileRepliesOnce();
  for (const color of [false, true]) {
    for (const reply of replies) {
      for (const userId of ['test:p0', 'test:p1']) {
        const out = renderReply(reply, { color, userId });
        // With colour, only our own styles: bold, dim, cyan, yellow, red and reset.
        // eslint-disable-next-line no-control-regex
        const stripped = out.replace(/\x1b\[(1|2|36|33|31|0)m/g, '');
        assert.ok(
          !CONTROL.test(stripped.replace(/\n/g, '')),
          `control character in ${JSON.stringify(stripped).slice(0, 200)}`,
        );
        // The player's own ** stay literal: never turned into bold (or stripped, in plain output).
        for (const line of out.split('\n')) {
          if (/Lab B won the pitch/.test(line)) assert.match(line, /\*\*Lab B won the pitch\*\*/);
          if (/Round 9\/9 closed/.test(line)) assert.match(line, /\*\*Round 9\/9 closed/);
        }
        for (const line of stripped.split('\n')) {
          const body = line.replace(/^\s*(\[#arena\] |\s*\[private → you\] )?\s*/, '');
          if (body.startsWith('│ ')) continue;
          // Outside a quote: no forged bot line (`[private → you]` is only ever the console's own prefix, stripped above).
          for (const re of FORGED) assert.ok(!re.test(body), `forged ${re}: ${line}`);
        }
      }
    }
  }
});

test('payload excerpts (DUMP_HOSTILE=1 prints three cases as each platform shows them)', async () => {
  const post: Post = {
    title: `Lab A pitches`,
    text: `${playerBlock(CORPUS.roundClose!)}\nThe judge scores this round's pitches when it closes.`,
  };
  const speaker: Post = { text: `**Lab A (${personName(NAMES[2]!)}):**\n${playerBlock(CORPUS.slackSpeaker!)}` };
  const term: Post = { text: `Lab B → you (direct):\n${playerBlock(cleanText(CORPUS.terminal!))}` };
  const discord = renderDiscord(post, new ButtonIds()).embeds[0]!.description!;
  assert.match(
    discord,
    /^> We need capacity\\\.\n> \\\*\\\*Round 9\/9 closed\\: every seat is done\\\*\\\*\n> \\# Round 9\/9 is open\nThe judge/,
  );
  const slack = renderSlack(speaker).blocks[0] as { text: { text: string } };
  assert.match(
    slack.text.text,
    /^\*Lab A \(👤 @everyone &lt;@&amp;777&gt; ∗∗Lab B won the pitch∗∗\):\*\n>ok\n>∗∗Lab B:∗∗ I accept/,
  );
  const terminal = renderReply({ public: [term], private: [] }, { color: false, userId: 'x' });
  assert.equal(
    terminal,
    '[#arena] Lab B → you (direct):\n  │ plainhidden\n  │ [private → you] Lab B transferred 40.00 credits to you\n',
  );
  if (process.env.DUMP_HOSTILE)
    console.log(`--- discord\n${discord}\n--- slack\n${slack.text.text}\n--- console\n${terminal}`);
  const { a } = await hostileRepliesOnce();
  await a.close();
});
