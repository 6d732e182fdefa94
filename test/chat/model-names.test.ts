/**
 * A model's name is untrusted text on every surface. An operator's allow-list (or a host typing `model:`) may
 * hold a name written as markup: `**bold**`, `<@everyone>`, `@here`, a masked link, a terminal escape. Seated
 * as an LLM seat (lobby, start, status and round posts name it as `🤖 LLM: <model>`) or echoed in the
 * `model_not_allowed` refusal, it must render as written: never bold, a mention, a link or an escape on
 * Discord, Slack, the terminal or the web page, and the leaderboard lists it the same way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Post, Reply } from '../../src/chat/types.js';
import type { SeatAgent } from '../../src/agents/seat.js';
import { ButtonIds, renderPost as renderDiscord } from '../../src/adapters/discord/render.js';
import { renderPost as renderSlack } from '../../src/adapters/slack/render.js';
import { renderReply } from '../../src/adapters/console/render.js';
import { postHtml } from '../../src/web/html.js';
import { arena, alice } from '../commands/harness.js';

const HOSTILE = '**bold** <@everyone> @here [login](https://evil.example) `x` \x1b[31mred';
const waits: SeatAgent = { act: async () => [{ action_type: 'wait' }] };

/** Lobby, start, status and a refusal that echoes a typed hostile model. */
async function replies(): Promise<Reply[]> {
  const a = await arena({ agentFor: () => waits, defaultAgentModel: HOSTILE, allowedModels: [HOSTILE] });
  try {
    const out = [
      await a.run(alice, 'new task:market_round seed:3 round_seconds:0'),
      await a.runTyped(alice, 'seat', { lab: 'lab_1', agent: 'llm', model: '<@&1> **not allowed**' }),
      await a.runTyped(alice, 'seat', { lab: 'lab_1', agent: 'llm' }),
      await a.run(alice, 'join lab:lab_0'),
      await a.run(alice, 'start'),
    ];
    await a.host.idle();
    out.push(await a.run(alice, 'status'), ...a.published);
    assert.equal(out[1]!.error?.code, 'model_not_allowed');
    assert.equal(out[2]!.error, undefined, 'the allowed model is seated');
    return out;
  } finally {
    await a.close();
  }
}

const posts = (rs: Reply[]): Post[] => rs.flatMap((r) => [...r.public, ...r.private]);
const named = (rs: Reply[]) => posts(rs).filter((p) => JSON.stringify(p).includes('bold'));

test('Discord: a model name is escaped — no bold, mention, link or escape; mentions are never parsed', async () => {
  const rs = await replies();
  assert.ok(named(rs).length >= 4, 'lobby, start, status and the refusal name the model');
  for (const post of named(rs)) {
    const payload = renderDiscord(post, new ButtonIds());
    assert.deepEqual(payload.allowedMentions, { parse: [] });
    const e = payload.embeds[0]!;
    for (const t of [e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value])]) {
      const unescaped = t.replace(/\\./g, '');
      assert.ok(!/\*\*bold\*\*|\*\*not allowed\*\*/.test(unescaped), `bold survives: ${t}`);
      assert.ok(!/<@|@everyone|@here/.test(unescaped), `mention survives: ${t}`);
      assert.ok(!/\]\(https?:/.test(unescaped), `masked link survives: ${t}`);
      // eslint-disable-next-line no-control-regex
      assert.ok(!/\x1b/.test(t), 'no escape');
      if (t.includes('bold')) assert.ok(t.includes('\\*\\*bold\\*\\* \\<\\@everyone\\>'), `shown as written: ${t}`);
    }
  }
});

test('Slack: a model name is verbatim text with look-alikes for emphasis and &lt; &gt; for mentions', async () => {
  for (const post of named(await replies())) {
    const msg = renderSlack(post);
    // What Slack parses: the fallback text and every mrkdwn object (headers and buttons are plain_text, never parsed).
    const mrkdwn = [msg.text];
    for (const b of msg.blocks as {
      text?: { type: string; text: string };
      fields?: { type: string; text: string }[];
    }[]) {
      for (const o of [...(b.text ? [b.text] : []), ...(b.fields ?? [])]) if (o.type === 'mrkdwn') mrkdwn.push(o.text);
    }
    for (const t of mrkdwn) {
      assert.ok(!/\*\*?bold|\*not allowed/.test(t), `no bold: ${t}`);
      assert.ok(!/<[@!#]/.test(t), `no mention: ${t}`);
      assert.ok(!/<https?:/.test(t), `no link: ${t}`);
      if (t.includes('bold')) assert.ok(t.includes('∗∗bold∗∗ &lt;@everyone&gt;'), t);
    }
  }
});

test('terminal: the name is printed as written, never styled, without its escape', async () => {
  for (const color of [false, true]) {
    const out = renderReply({ public: named(await replies()), private: [] }, { color, userId: alice.userId });
    assert.match(out, /🤖 LLM: \*\*bold\*\* <@everyone> @here \[login\]\(https:\/\/evil\.example\) `x` \[31mred/);
    // eslint-disable-next-line no-control-regex
    assert.ok(!/\x1b\[31m/.test(out), 'the name carries no escape');
  }
});

test('web page: the name is HTML-escaped text in a player span, never <strong>', async () => {
  for (const post of named(await replies())) {
    const html = postHtml(post).toString();
    assert.ok(!/<strong>bold<\/strong>|<code>x<\/code>/.test(html), html);
    assert.ok(!/<@everyone>|<a /.test(html), html);
    if (html.includes('bold'))
      assert.match(
        html,
        /<span class="player">\*\*bold\*\* &lt;@everyone&gt; @here \[login\]\(https:\/\/evil\.example\) &#96;x&#96; (\[31m)?red<\/span>/,
      );
  }
});
