/**
 * Blind ballots: the redaction of every token naming a seat (src/voting/ballots/blind.ts), the checker that
 * decides a vote's `anonymous` flag, its test cases, properties over random texts, and the flag stored by a
 * real vote through the round host (anonymous, and not when a pitch discloses its author).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  blindPitch,
  identifyingLeft,
  identitiesOf,
  redactPitch,
  type SeatIdentity,
} from '../../src/voting/ballots/index.js';
import { createMatch } from '../../src/engine/index.js';
import { runText } from '../../src/commands/index.js';
import { harness, person } from '../host/helpers.js';

/** Three seats: a person, an LLM and a scripted policy. */
const SEATS: SeatIdentity[] = [
  { lab: 'lab_0', index: 0, name: 'Lab A', aliases: ['Alice Quartermain', '700000000000000001'], driver: 'human' },
  { lab: 'lab_1', index: 1, name: 'Lab B', aliases: ['gpt-4o-mini'], driver: 'llm' },
  { lab: 'lab_2', index: 2, name: 'Lab C', aliases: ['rule_based_expert'], driver: 'scripted' },
];

describe('redaction', () => {
  const cases: [author: string, raw: string, shown: string][] = [
    [
      'lab_2',
      'Job j_2_1 of Lab C is not fully covered yet and its deadline is coming.',
      'Job [own job 1] of [own lab] is not fully covered yet and its deadline is coming.',
    ],
    [
      'lab_2',
      'We at Lab C need b_2_0; LabC, lab-c, LAB_2 and lab 2 agree.',
      'We at [own lab] need [own block 1]; [own lab], [own lab], [own lab] and [own lab] agree.',
    ],
    [
      'lab_2',
      'Lab A hoards b_0_1 for j_0_0 while Lab B waits; j_2_surge_3 and j_2_1 and j_2_1 again.',
      '[lab X] hoards [other block 1] for [other job 1] while [lab Y] waits; [own job 1] and [own job 2] and [own job 2] again.',
    ],
    ['lab_2', 'See o_3, c_1 and the market block b_s1_0.', 'See [offer 1], [coalition 1] and the market block b_s1_0.'],
    [
      'lab_0',
      'Alice here (<@700000000000000001>), Quartermain speaking for lab_0.',
      '[name] here ([someone]), [name] speaking for [own lab].',
    ],
    ['lab_1', 'As GPT-4o-mini I think we deserve it.', 'As [name] I think we deserve it.'],
    ['lab_2', 'The rule based expert in me says so.', 'The [name] in me says so.'],
    ['lab_0', 'Job j_9_1 of a lab that does not exist stays.', 'Job j_9_1 of a lab that does not exist stays.'],
  ];
  for (const [author, raw, shown] of cases)
    test(`${author}: ${raw}`, () => assert.equal(redactPitch(raw, author, SEATS), shown));

  test('identities of a match: lab names, positions, drivers', () => {
    const s = createMatch({ task: 'market_round', seed: 7 });
    const ids = identitiesOf(s, {
      lab_0: { kind: 'human', userId: 'discord:42', displayName: 'Ada' },
      lab_1: { kind: 'llm', model: 'm-1' },
      lab_2: { kind: 'scripted', policy: 'cooperative' },
    });
    assert.deepEqual(ids, [
      { lab: 'lab_0', index: 0, name: 'Lab A', aliases: ['Ada', '42'], driver: 'human' },
      { lab: 'lab_1', index: 1, name: 'Lab B', aliases: ['m-1'], driver: 'llm' },
      { lab: 'lab_2', index: 2, name: 'Lab C', aliases: ['cooperative'], driver: 'scripted' },
    ]);
  });
});

describe('the anonymous flag (checker on the text as shown)', () => {
  // [author, raw pitch, anonymous after redaction, kinds of the findings]
  const cases: [string, string, boolean, string[]][] = [
    ['lab_2', 'Job j_2_1 of Lab C is not fully covered yet.', true, []],
    ['lab_0', 'We at Lab A need capacity; Alice Quartermain signs.', true, []],
    ['lab_1', 'As GPT-4o-mini, we ask for b_1_0.', true, []],
    ['lab_1', 'As GPT-4o, we ask for capacity.', false, ['model_family']],
    ['lab_1', 'Claude would agree that we need it.', false, ['model_family']],
    ['lab_1', 'As an AI language model I cannot lie: we need it.', false, ['self_disclosure', 'self_disclosure']],
    ['lab_0', "I'm a human, trust me over the bots.", false, ['self_disclosure']],
    ['lab_2', 'Our scripted policy never lies.', false, ['self_disclosure']],
    ['lab_1', 'As an AI lab we need GPUs for our training run.', true, []],
    ['lab_0', 'Lab 3 is lying about its jobs.', false, ['lab']],
    ['lab_0', 'Lab D does not exist in a three-lab match.', true, []],
    ['lab_0', 'Nothing here names anyone: we need two blocks by round 3.', true, []],
  ];
  for (const [author, raw, anonymous, kinds] of cases)
    test(`${anonymous ? 'anonymous' : 'identifying'}: ${raw}`, () => {
      const b = blindPitch(raw, author, SEATS);
      assert.deepEqual(
        b.leaks.map((l) => l.kind),
        kinds,
        JSON.stringify(b),
      );
      assert.equal(b.leaks.length === 0, anonymous);
    });

  test('on raw text (votes cast before redaction) the checker finds the tokens redaction replaces', () => {
    assert.deepEqual(
      identifyingLeft('Job j_2_1 of Lab C; ask Alice or gpt-4o-mini about o_3.', SEATS).map((l) => [l.kind, l.text]),
      [
        ['lab', 'Lab C'],
        ['job_or_block', 'j_2_1'],
        ['offer_or_coalition', 'o_3'],
        ['name', 'gpt-4o-mini'],
        ['name', 'Alice'],
        ['model_family', 'gpt'],
      ],
    );
  });

  test('property: a text made of seat tokens and filler has no lab, id, name or mention left after redaction; redaction is idempotent', () => {
    const tokens = [
      'Lab A',
      'lab_1',
      'LabC',
      'lab-b',
      'j_0_1',
      'j_2_surge_4',
      'b_1_3',
      'o_12',
      'c_2',
      'Alice',
      'Quartermain',
      'gpt-4o-mini',
      'GPT 4o mini',
      'rule_based_expert',
      '<@700000000000000001>',
      'we at Lab B',
    ];
    const filler = [
      'we need',
      'capacity',
      'by round 3',
      'for job',
      'and',
      ',',
      '.',
      'please',
      '12 GPU-hours',
      "'s",
      '(',
      ')',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...tokens), fc.constantFrom(...filler)), { maxLength: 14 }),
        fc.constantFrom('lab_0', 'lab_1', 'lab_2'),
        (parts, author) => {
          const shown = redactPitch(parts.join(' '), author, SEATS);
          const left = identifyingLeft(shown, SEATS).filter((l) => l.kind !== 'model_family');
          assert.deepEqual(left, [], shown);
          assert.equal(redactPitch(shown, author, SEATS), shown);
        },
      ),
      { numRuns: 300, seed: 32 },
    );
  });
});

describe('the flag on stored votes', () => {
  test('a vote on an anonymous pair is stored anonymous; one on a pair whose pitch discloses its author is not', async () => {
    const h = await harness({ votes: { ballotSeconds: 60 } });
    const [alice, bob, carol] = [person('alice'), person('bob'), person('carol')];
    const run = (who: typeof alice, text: string) => runText(h.host, 'blind', who, text);
    await run(alice, 'new task:market_round seed:7 round_seconds:0 votes:on');
    await run(alice, 'join lab:lab_0');
    await run(bob, 'join lab:lab_1');
    await run(alice, 'start');
    const pitches = [
      // Round 1: both name themselves in ways redaction replaces.
      ['We at Lab A (alice) need capacity for our first job.', 'Lab B here, bob speaking: our job needs GPU-hours.'],
      // Round 2: bob discloses what he is, which no replacement hides.
      ['We at Lab A still need capacity.', "I'm a human, unlike the bots here; we need capacity."],
    ];
    for (const [i, [a, b]] of pitches.entries()) {
      await run(alice, `pitch text:"${a}"`);
      await run(bob, `pitch text:"${b}"`);
      await run(alice, 'done');
      await run(bob, 'done');
      // A ballot closes with the next round: vote while it is open.
      const ballot = `v_${i + 1}`;
      const served = await run(carol, `vote ballot:${ballot} pair:1`);
      assert.equal(served.error, undefined);
      assert.ok(served.private[0]!.text.includes('[own lab]'));
      assert.equal((await run(carol, `vote ballot:${ballot} pair:1 choice:a`)).error, undefined);
    }
    const m = (await h.host.current('blind'))!;
    const votes = await h.store.listVotes({ matchId: m.id });
    assert.deepEqual(
      votes.map((v) => [v.ballotId, v.anonymous]),
      [
        ['v_1', true],
        ['v_2', false],
      ],
    );
    assert.deepEqual(
      m.ballots[1]!.blind['p1_lab_1']!.leaks.map((l) => l.text),
      ["I'm a human"],
    );
    await h.host.stop();
  });
});
