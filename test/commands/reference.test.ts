/** The catalogue is defined once and everything renders from it: definitions, help, the command reference in docs/COMMANDS.md. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { COMMANDS, COMMAND_SPECS, renderCommandReference, renderHelp, usage } from '../../src/commands/index.js';
import { COMMANDS_DOC, readSection } from '../../src/commands/reference-section.js';

const BRIEF = [
  'new',
  'join',
  'seat',
  'start',
  'status',
  'me',
  'offer',
  'accept',
  'reject',
  'counter',
  'pitch',
  'reserve',
  'release',
  'coalition',
  'allocate',
  'message',
  'done',
  'finish',
  'end',
  'help',
];
/** Commands added after the first catalogue: ballots and stats, ratings and charts, the person's data. */
const LATER = ['vote', 'stats', 'leaderboard', 'chart', 'privacy'];

describe('catalogue', () => {
  test('every command of the brief is defined exactly once, in spec order, with a schema matching its options', () => {
    assert.deepEqual([...COMMANDS.map((c) => c.name)].sort(), [...BRIEF, ...LATER].sort());
    assert.deepEqual(
      COMMANDS.map((c) => c.name),
      COMMAND_SPECS.map((s) => s.name),
    );
    for (const c of COMMANDS) {
      const shape = (c.schema as unknown as { shape: Record<string, unknown> }).shape;
      assert.deepEqual(Object.keys(shape).sort(), c.options.map((o) => o.name).sort(), c.name);
    }
  });

  test('names are Discord-safe, options unique, descriptions short, help has an example', () => {
    for (const c of COMMAND_SPECS) {
      assert.match(c.name, /^[a-z_]{1,32}$/);
      assert.ok(c.description.length <= 100, `${c.name} description too long for Discord`);
      assert.match(c.help, /Example/);
      const names = c.options.map((o) => o.name);
      assert.equal(new Set(names).size, names.length, c.name);
      for (const o of c.options) {
        assert.match(o.name, /^[a-z_]{1,32}$/);
        assert.ok(o.description.length <= 100, `${c.name}.${o.name} description too long`);
        assert.ok(!o.choices || o.choices.length <= 25, `${c.name}.${o.name}: too many choices`);
      }
    }
    assert.ok(COMMAND_SPECS.length <= 25, 'Discord allows 25 subcommands');
  });

  test('access is what the brief says: host-only seat/start/end, seat-holder actions', () => {
    const access = Object.fromEntries(COMMAND_SPECS.map((s) => [s.name, s.access]));
    for (const n of ['seat', 'start', 'end']) assert.equal(access[n], 'host');
    for (const n of [
      'me',
      'offer',
      'accept',
      'reject',
      'counter',
      'pitch',
      'reserve',
      'release',
      'coalition',
      'allocate',
      'message',
      'done',
      'finish',
    ])
      assert.equal(access[n], 'seat');
    for (const n of ['new', 'join', 'status', 'help', 'vote', 'stats', 'leaderboard', 'chart', 'privacy'])
      assert.equal(access[n], 'anyone');
  });

  test('the brief’s option names', () => {
    const opts = (n: string) => COMMAND_SPECS.find((s) => s.name === n)?.options.map((o) => o.name);
    assert.deepEqual(opts('offer'), ['to', 'give', 'want', 'pay', 'ask', 'msg', 'expires', 'bid']);
    assert.deepEqual(opts('counter')?.slice(0, 5), ['offer', 'give', 'want', 'pay', 'ask']);
    assert.deepEqual(opts('pitch'), ['text', 'job', 'reply_to']);
    assert.deepEqual(opts('reserve'), ['blocks', 'job']);
    assert.deepEqual(opts('coalition'), ['action', 'with', 'id', 'blocks', 'pay', 'msg', 'rounds']);
    assert.deepEqual(opts('allocate'), ['job', 'blocks']);
    assert.deepEqual(opts('message'), ['text', 'to']);
    assert.deepEqual(opts('new'), ['task', 'seed', 'round_seconds', 'holdout', 'votes', 'thread']);
    assert.deepEqual(opts('vote'), ['ballot', 'pair', 'choice']);
    assert.deepEqual(opts('leaderboard'), ['task', 'kind']);
    assert.deepEqual(opts('seat'), ['lab', 'agent', 'policy', 'model']);
  });
});

describe('rendered references', () => {
  test('the command section of docs/COMMANDS.md equals renderCommandReference() (regenerate: npx tsx src/cli/readme-commands.ts)', () => {
    assert.equal(COMMANDS_DOC, 'docs/COMMANDS.md');
    const section = readSection(readFileSync(COMMANDS_DOC, 'utf8'));
    assert.ok(section !== null, `${COMMANDS_DOC} lacks the <!-- commands:start --> … <!-- commands:end --> markers`);
    assert.equal(section, renderCommandReference());
  });

  test('the reference and help mention every command with its usage', () => {
    const ref = renderCommandReference();
    const help = renderHelp().text;
    for (const s of COMMAND_SPECS) {
      assert.ok(ref.includes(`\`${usage(s).replace(/\|/g, '\\|')}\``), `reference lacks ${s.name}`);
      assert.ok(help.includes(`\`${usage(s)}\``), `help lacks ${s.name}`);
      for (const o of s.options)
        assert.ok(ref.includes(`| ${s.name} | \`${o.name}\` |`), `reference lacks ${s.name}.${o.name}`);
    }
  });
});
