/** Terminal rendering of replies: public vs private posts, buttons, colour only when asked. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReply } from '../../../src/adapters/console/render.js';
import type { Reply } from '../../../src/commands/types.js';
import { mergeReplies } from '../../../src/chat/reply.js';

const reply: Reply = {
  public: [
    {
      title: 'Lab A makes an offer',
      text: '`o_1` gives **b_0_1**',
      fields: [{ name: 'Leaderboard', value: '1. A\n2. B' }],
      buttons: [
        {
          id: 'arena:accept offer:o_1',
          label: 'Accept o_1',
          command: 'accept offer:o_1',
          style: 'success',
          matchId: 'm_1',
        },
      ],
    },
  ],
  private: [
    { userId: 'console:you', title: '✗ unknown_lab', text: 'no such lab' },
    { userId: 'console:someone-else', text: 'secret for someone else' },
  ],
};

describe('renderReply', () => {
  test('public posts under [#arena], private ones indented with [private → you]; no ANSI without colour', () => {
    const text = renderReply(reply, { color: false, userId: 'console:you' });
    assert.equal(
      text,
      [
        '[#arena] Lab A makes an offer',
        '  `o_1` gives b_0_1',
        '    Leaderboard:',
        '      1. A',
        '      2. B',
        '    [Accept o_1] → accept offer:o_1',
        '    [private → you] ✗ unknown_lab',
        '    [private → you] no such lab',
        '',
      ].join('\n'),
    );
    assert.ok(!text.includes('someone else'), "other people's private posts are not shown");
  });

  test('with colour: styles and a distinct colour for private posts', () => {
    const text = renderReply(reply, { color: true, userId: 'console:you' });
    const ESC = String.fromCharCode(27);
    assert.ok(text.includes(`${ESC}[1m`), 'bold title');
    assert.ok(text.includes(`${ESC}[31m    [private → you] ✗ unknown_lab`), 'errors in red, private-prefixed');
  });

  test('an empty reply renders nothing', () => {
    assert.equal(renderReply({ public: [], private: [] }, { color: false, userId: 'x' }), '');
  });
  test('merged replies keep their order: a private answer shows before the round closes it set off', () => {
    const you = 'console:you';
    const command: Reply = { public: [], private: [{ userId: you, text: 'Allocated b_0_1 to j_0_0.' }] };
    const close3: Reply = {
      public: [{ text: 'Round 3 closed' }, { text: 'Round 4 is open' }],
      private: [{ userId: you, text: 'your round 3 reward' }],
    };
    const close4: Reply = mergeReplies(
      { public: [], private: [{ userId: you, text: 'nothing left to decide in round 4' }] },
      { public: [{ text: 'Round 4 closed' }], private: [{ userId: you, text: 'your round 4 reward' }] },
    );
    const merged = mergeReplies(command, close3, close4);
    assert.deepEqual(
      merged.private.map((p) => p.afterPublic),
      [0, 2, 2, 3],
    );
    const lines = renderReply(merged, { color: false, userId: you }).trimEnd().split('\n');
    assert.deepEqual(lines, [
      '    [private → you] Allocated b_0_1 to j_0_0.',
      '[#arena] Round 3 closed',
      '[#arena] Round 4 is open',
      '    [private → you] your round 3 reward',
      '    [private → you] nothing left to decide in round 4',
      '[#arena] Round 4 closed',
      '    [private → you] your round 4 reward',
    ]);
  });
});
