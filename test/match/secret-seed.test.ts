/**
 * Secret worlds, replayable afterwards (docs/RULES.md §0, docs/SECURITY.md): a hosted match's world is drawn
 * from a 128-bit match secret, so a spectator who tries every seed of the old space (0 … 999,999, as chat
 * matches were seeded before) against everything public — the blocks the `status` post lists — and one seat's
 * private view finds nothing; the same attack on a match seeded with an integer finds its seed at once (the
 * control: the attack works). When the match is over, the final post publishes the seed, and a replay of the
 * stored log from the published seed gives the stored match.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publicView } from '../../src/engine/index.js';
import type { MatchState, PublicBlock, TaskName } from '../../src/engine/index.js';
import { generateWorld, worldParams } from '../../src/engine/world.js';
import { replay } from '../../src/host/index.js';
import type { StoredEvent } from '../../src/match/types.js';
import { harness, person, postText, unwrap } from '../host/helpers.js';

const ada = person('ada');
const OLD_SPACE = 1_000_000;

/** Every seed in [0, n) whose world shows the same public blocks and the same jobs for `lab` as `seen`. */
function bruteForce(
  task: TaskName,
  blocks: readonly PublicBlock[],
  jobs: MatchState['jobs'][string][],
  n: number,
): number[] {
  const hits: number[] = [];
  const want = blocks.map((b) => `${b.id}:${b.gpuCount}x${b.duration}@${b.reliability}`).join(',');
  for (let seed = 0; seed < n; seed++) {
    const w = generateWorld(task, worldParams(task, seed), seed);
    // Cheap reject on the first block, then the whole list and the seat's own jobs (ids, hours, deadlines).
    const first = w.blocks[blocks[0]!.id];
    if (!first || first.reliability !== blocks[0]!.reliability || first.gpuCount !== blocks[0]!.gpuCount) continue;
    const got = Object.values(w.blocks)
      .map((b) => `${b.id}:${b.gpuCount}x${b.duration}@${b.reliability}`)
      .join(',');
    if (got !== want) continue;
    if (
      jobs.every(
        (j) => w.jobs[j.id]?.deadlineRound === j.deadlineRound && w.jobs[j.id]?.minReliability === j.minReliability,
      )
    )
      hits.push(seed);
  }
  return hits;
}

/** Open and start a match in `channel` (Ada on lab_0), optionally with a host-chosen seed. */
async function started(h: Awaited<ReturnType<typeof harness>>, channel: string, seed?: number) {
  unwrap(
    await h.host.create(channel, 'console', ada, {
      task: 'market_round',
      roundSeconds: 0,
      ...(seed !== undefined ? { seed } : {}),
    }),
  );
  unwrap(await h.host.join(channel, ada, 'lab_0'));
  return unwrap(await h.host.start(channel, ada));
}

test(
  'a spectator with every public post and one seat’s private view cannot find the world of a match seeded by a secret',
  { timeout: 120_000 },
  async () => {
    const h = await harness();
    const { match: m, reply } = await started(h, 'sec');
    assert.match(String(m.settings.seed), /^[0-9a-f]{32}$/, 'a 128-bit secret');
    assert.equal(m.settings.hostSeeded, false);
    const everything = [...reply.public.map(postText), ...reply.private.map(postText)].join('\n');
    assert.ok(!everything.includes(String(m.settings.seed)), 'no post names the secret');
    const blocks = publicView(m.state!).blocks;
    const mine = Object.values(m.state!.jobs).filter((j) => j.owner === 'lab_0');
    assert.deepEqual(
      bruteForce('market_round', blocks, mine, OLD_SPACE),
      [],
      'no seed of the old space explains what was shown',
    );

    // Control: the same attack recovers a match seeded with an integer, which is why such matches are marked.
    const c = await started(h, 'ctl', 424_242);
    assert.equal(c.match.settings.hostSeeded, true);
    assert.match(c.reply.public.map(postText).join('\n'), /Seeded by the host: the host may know every private value/);
    const cBlocks = publicView(c.match.state!).blocks;
    const cJobs = Object.values(c.match.state!.jobs).filter((j) => j.owner === 'lab_0');
    assert.deepEqual(bruteForce('market_round', cBlocks, cJobs, OLD_SPACE), [424_242]);
    await h.host.stop();
  },
);

test('when the match is over the final post publishes the seed, and the stored log replays from it to the stored match', async () => {
  const h = await harness();
  const { match: m0 } = await started(h, 'pub');
  let m = m0;
  const posts: string[] = [];
  while (m.phase === 'running') {
    const d = unwrap(await h.host.done('pub', ada));
    posts.push(...(d.closed?.public ?? []).map(postText));
    m = d.match;
  }
  const final = posts.find((p) => p.startsWith('Match over'))!;
  const published =
    /Seed ([0-9a-f]{32}) \(market_round; the match secret, revealed now\): `npm start -- --task market_round --seed \1` plays the same world\./.exec(
      final,
    )?.[1];
  assert.equal(published, m0.settings.seed, 'the final post names the seed');
  const events: StoredEvent[] = await h.store.load(m.id);
  // The log as anyone verifying it would rebuild it: the published seed in the creation event.
  const rebuilt = events.map((e) =>
    e.body.type === 'match_created'
      ? { ...e, body: { ...e.body, settings: { ...e.body.settings, seed: published! } } }
      : e,
  );
  assert.deepEqual(replay(rebuilt)?.state, replay(events)?.state);
  assert.equal(JSON.stringify(replay(rebuilt)?.state), JSON.stringify(m.state));
  await h.host.stop();
});
