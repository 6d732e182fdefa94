/**
 * Reply → Block Kit: headers, escaped mrkdwn, fields in sections of ten, buttons whose action_id and
 * value carry the command text, Slack's limits, and merging private posts into one message.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePosts, slackUserId } from '../../../src/adapters/slack/deliver.js';
import { parsePitchSubmission, pitchView, PITCH_FORM } from '../../../src/adapters/slack/modal.js';
import {
  actionIdFor,
  commandOfAction,
  escapePlayerMrkdwn,
  renderPost,
  slackFieldValue,
  toMrkdwn,
} from '../../../src/adapters/slack/render.js';

type Block = {
  type: string;
  text?: { type: string; text: string };
  fields?: { text: string }[];
  elements?: { action_id: string; value: string; style?: string; text: { text: string } }[];
};

describe('slack render', () => {
  test('player text: ids keep their underscores; an underscore at a word edge, and * ~ `, become look-alikes', () => {
    assert.equal(escapePlayerMrkdwn('b_2_2 for lab_1'), 'b_2_2 for lab_1');
    assert.equal(escapePlayerMrkdwn('_urgent_ and __init__'), '\u02cdurgent\u02cd and \u02cd\u02cdinit\u02cd\u02cd');
    assert.equal(escapePlayerMrkdwn('*bold* ~x~ `c`'), '\u2217bold\u2217 \u223cx\u223c \u02cbc\u02cb');
  });

  test("the round deadline is Slack's date token (each reader's time zone), other fields stay text", () => {
    const iso = '2026-11-25T09:46:25.858Z';
    assert.equal(slackFieldValue('Deadline', iso), 'closes at <!date^1795599985^{time_secs}|09:46:25 UTC>');
    assert.equal(slackFieldValue('Deadline', 'soon'), 'soon', 'not a time: left as text');
    assert.equal(slackFieldValue('Seats', iso), toMrkdwn(iso));
    const msg = JSON.stringify(
      renderPost({ title: 'Round 1/5 is open', text: '', fields: [{ name: 'Deadline', value: iso }] }),
    );
    assert.match(msg, /closes at <!date\^1795599985\^\{time_secs\}\|09:46:25 UTC>/);
  });

  test('a post becomes a header, an escaped mrkdwn section, fields and buttons', () => {
    const m = renderPost({
      title: 'Round 1 closed',
      text: 'Lab A says **<!channel> hi** & `b_0_1`',
      fields: Array.from({ length: 12 }, (_, i) => ({ name: `f${i}`, value: `v${i}` })),
      buttons: [
        { id: 'a', label: 'Accept o_3', command: 'accept offer:o_3', style: 'success', matchId: 'm_1' },
        { id: 'b', label: 'Reject o_3', command: 'reject offer:o_3', style: 'danger', matchId: 'm_1' },
        { id: 'c', label: 'Status', command: 'status', style: 'secondary', matchId: 'm_1' },
        { id: 'd', label: 'Dup', command: 'status', style: 'secondary', matchId: 'm_1' },
      ],
    });
    const blocks = m.blocks as Block[];
    assert.deepEqual(
      blocks.map((b) => b.type),
      ['header', 'section', 'section', 'section', 'actions'],
    );
    assert.equal(blocks[1]!.text!.text, 'Lab A says *&lt;!channel&gt; hi* &amp; `b_0_1`');
    assert.equal(blocks[2]!.fields!.length, 10);
    assert.equal(blocks[3]!.fields!.length, 2);
    assert.equal(blocks[2]!.fields![0]!.text, '*f0*\nv0');
    const els = blocks[4]!.elements!;
    assert.deepEqual(
      els.map((e) => [e.action_id, e.value, e.style]),
      [
        ['arena:@m_1 accept offer:o_3', '@m_1 accept offer:o_3', 'primary'],
        ['arena:@m_1 reject offer:o_3', '@m_1 reject offer:o_3', 'danger'],
        ['arena:@m_1 status', '@m_1 status', undefined],
      ],
    );
    assert.match(m.text, /^\*Round 1 closed\*\nLab A says/);
    assert.ok(!m.text.includes('<!channel>'));
  });

  test('long texts are cut to Slack limits; long commands get a hashed action_id and keep their value', () => {
    const long = `message text:"${'x'.repeat(400)}"`;
    const m = renderPost({
      title: 't'.repeat(300),
      text: 'y'.repeat(5000),
      buttons: [{ id: 'x', label: 'L'.repeat(100), command: long, style: 'primary', matchId: 'm_1' }],
    });
    const blocks = m.blocks as Block[];
    assert.equal(blocks[0]!.text!.text.length, 150);
    assert.equal(blocks[1]!.text!.text.length, 3000);
    const el = blocks[2]!.elements![0]!;
    assert.match(el.action_id, /^arena#/);
    assert.ok(el.action_id.length <= 255);
    assert.equal(el.value, `@m_1 ${long}`);
    assert.equal(el.text.text.length, 75);
    assert.equal(actionIdFor(`@m_1 ${long}`), el.action_id, 'stable across renders');
    assert.equal(commandOfAction(el), `@m_1 ${long}`);
    assert.equal(commandOfAction({ action_id: 'other', value: 'status' }), null);
  });

  test('private posts merge into one message with dividers, split at 50 blocks', () => {
    const two = mergePosts([{ title: 'A', text: 'a' }, { text: 'b' }]);
    assert.equal(two.length, 1);
    assert.deepEqual(
      two[0]!.blocks.map((b) => b.type),
      ['header', 'section', 'divider', 'section'],
    );
    const many = mergePosts(Array.from({ length: 30 }, (_, i) => ({ title: `t${i}`, text: `x${i}` })));
    assert.ok(many.length >= 2);
    assert.ok(many.every((m) => m.blocks.length <= 50));
    assert.equal(
      many.reduce((n, m) => n + m.blocks.filter((b) => b.type === 'header').length, 0),
      30,
    );
  });

  test('toMrkdwn and user ids', () => {
    assert.equal(toMrkdwn('**a** and **b**'), '*a* and *b*');
    assert.equal(slackUserId('slack:U1'), 'U1');
    assert.equal(slackUserId('discord:1'), null);
  });

  test('the pitch modal carries the channel and its submission parses back', () => {
    const view = pitchView(PITCH_FORM, 'C123');
    assert.ok(view.title.text.length <= 24);
    const parsed = parsePitchSubmission({
      ...view,
      state: {
        values: {
          text: { value: { type: 'plain_text_input', value: '  my pitch text here  ' } },
          job: { value: { type: 'plain_text_input', value: null } },
        },
      },
    });
    assert.deepEqual(parsed, { channelId: 'C123', options: { text: 'my pitch text here' } });
    assert.deepEqual(parsePitchSubmission({ ...view, private_metadata: 'nope' }), { error: 'bad_submission' });
    assert.deepEqual(parsePitchSubmission({ callback_id: 'other' }), { error: 'bad_submission' });
  });
});
