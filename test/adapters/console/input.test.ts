/**
 * The console's input is data (piped by anyone): terminal escapes and control characters never reach its echo
 * or the catalogue, and a line longer than 4,000 characters is refused with a clear message, capped as it
 * streams (LineCap) instead of being read whole: a property test of the cap over random texts split into
 * random chunks (UTF-8 cut mid-character included), and the real entry point fed escapes and a 5 MB line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { LineCap, MAX_INPUT_LINE } from '../../../src/adapters/console/line-cap.js';
import { spawnArena } from './spawn.js';

/** Everything `cap` passes for `chunks`. */
async function through(chunks: Buffer[], max: number): Promise<string> {
  let out = '';
  for await (const c of Readable.from(chunks).pipe(new LineCap(max))) out += String(c);
  return out;
}

test('LineCap passes each line cut to max + 1 characters and every newline, whatever the chunking', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '\r', '\u202e'), maxLength: 40 }), {
        maxLength: 8,
      }),
      fc.integer({ min: 1, max: 12 }),
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 20 }),
      async (lines, max, cuts) => {
        const bytes = Buffer.from(lines.join('\n'), 'utf8');
        const chunks: Buffer[] = [];
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const n = cuts[i % cuts.length]!;
          chunks.push(bytes.subarray(at, at + n));
          at += n;
        }
        // Each line cut after max + 1 units, or one more to keep a surrogate pair whole.
        const cut = (l: string) => l.slice(0, /[\ud800-\udbff]/.test(l[max] ?? '') ? max + 2 : max + 1);
        assert.equal(await through(chunks, max), lines.map(cut).join('\n'));
      },
    ),
    { numRuns: 300 },
  );
});

test('a 5 MB line passes as 4,001 characters, in chunks, never as one string', async () => {
  const long = Buffer.alloc(5 * 1024 * 1024, 'x');
  const chunks = [
    Buffer.from('me\n'),
    ...Array.from({ length: 80 }, (_, i) => long.subarray(i * 65_536, (i + 1) * 65_536)),
    Buffer.from('\nstatus\n'),
  ];
  const seen: number[] = [];
  let out = '';
  for await (const c of Readable.from(chunks).pipe(new LineCap())) {
    seen.push(String(c).length);
    out += String(c);
  }
  assert.deepEqual(
    out.split('\n').map((l) => l.length),
    [2, MAX_INPUT_LINE + 1, 6, 0],
  );
  assert.ok(Math.max(...seen) < 2 * MAX_INPUT_LINE, `no chunk carries the long line: ${Math.max(...seen)}`);
});

test(
  'npm start with piped escapes and a 5 MB line: a clean echo, a clear refusal, and the next command runs',
  { timeout: 120_000 },
  async () => {
    const p = spawnArena(['--db', ':memory:', '--task', 'market_round', '--seed', '7']);
    p.send('status\x1b]0;pwned title\x07\x1b[2J\x1b[31m', '\u202eme\x1b[8m');
    p.child.stdin.write(`offer to:lab_1 pay:1 msg:"${'y'.repeat(5 * 1024 * 1024)}"\n`);
    p.send('me', 'quit');
    p.child.stdin.end();
    const { code } = await p.exited;
    const out = p.out();
    assert.equal(code, 0, p.err());
    /* eslint-disable no-control-regex */
    assert.ok(
      !/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/.test(out),
      `no control character or escape in the output: ${JSON.stringify(out.match(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e].{0,20}/)?.[0])}`,
    );
    /* eslint-enable no-control-regex */
    assert.match(out, /^> status$/m, 'the echo is the command without its escapes');
    assert.match(out, /^> me$/m);
    assert.match(out, /^> offer to:lab_1 pay:1 msg:"y+…$/m, 'the long line is echoed cut');
    assert.match(
      out,
      /\[private → you\] ✗ line_too_long\n\s*\[private → you\] That line is longer than 4,000 characters, so it was not run/,
    );
    assert.ok(!out.includes('y'.repeat(4_001)), 'the long line is not printed');
    assert.doesNotMatch(out, /makes an offer/, 'nothing of it ran');
    assert.equal((out.match(/only you see this/g) ?? []).length >= 2, true, 'the commands after it still ran');
  },
);
