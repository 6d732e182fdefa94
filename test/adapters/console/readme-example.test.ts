/**
 * The README's piped example (`printf 'me\ndone…' | npm start -- --seed 3`) plays the match it asks for,
 * every time: with an unfinished match saved in the same ./data (here seed 7, left with `quit`) and run twice
 * on one database, each run starts a new seed-3 match, says the saved one stays saved and how to resume it,
 * and leaves it untouched; `--resume` then continues it where it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../../src/store/index.js';
import { spawnArena, tempDir } from './spawn.js';

const README_INPUT = ['me', 'done', 'done', 'done', 'done', 'done'];

async function run(dir: string, args: string[], input: string[]): Promise<string> {
  const c = spawnArena(args, dir);
  c.send(...input);
  c.child.stdin.end();
  const { code } = await c.exited;
  assert.equal(code, 0, c.err());
  return c.out();
}

test(
  "the README's piped example, twice on one database with an unfinished match saved: each run plays a new seed-3 match",
  { timeout: 240_000 },
  async () => {
    const dir = tempDir();
    const saved = await run(dir, ['--seed', '7'], ['quit']);
    const id =
      /Bye\. Saved in \.\/data\/arena\.db — `npm start -- --resume (m_[0-9a-f]+)` resumes match \1 at round 1\/5\./.exec(
        saved,
      )?.[1];
    assert.ok(id, `the goodbye names the resume command: ${saved}`);
    const db = join(dir, 'data', 'arena.db');
    const eventsOf = async (matchId: string) => {
      const store = await openStore({ sqlitePath: db });
      try {
        return (await store.load(matchId)).length;
      } finally {
        await store.close();
      }
    };
    const before = await eventsOf(id);
    for (const n of [1, 2]) {
      const out = await run(dir, ['--seed', '3'], README_INPUT);
      assert.match(
        out,
        new RegExp(
          `An unfinished match ${id} \\(started [^)]+\\) stays saved: \`npm start -- --resume ${id}\` resumes it\\. Starting a new match\\.`,
        ),
        `run ${n}`,
      );
      assert.match(out, /New match: market_round, seed 3, chosen by you/, `run ${n} plays seed 3`);
      assert.doesNotMatch(out, /Resumed/, `run ${n} resumes nothing`);
    }
    assert.equal(await eventsOf(id), before, 'the saved match was not played on');
    const resumed = await run(dir, ['--resume', id], ['quit']);
    assert.match(resumed, new RegExp(`Resumed match ${id} \\(market_round, seed 7\\) at round 1/5`));
    const store = await openStore({ sqlitePath: db });
    try {
      assert.equal(
        (await store.listMatches()).filter((m) => m.platform === 'console').length,
        3,
        'the seed-7 match and two seed-3 matches',
      );
    } finally {
      await store.close();
    }
  },
);
