/**
 * Child process for sqlite.test.ts: a second bot process in miniature. Opens the SQLite store at argv[2]
 * (maybe racing the other child to create it), creates match 'm' unless the other child did, appends
 * argv[4] events labelled argv[3]<i> with retry on conflict, tries the claim 'round_close:m:0', and prints
 * one JSON line: { conflicts, claimed }.
 */
import { openSqliteStore } from '../../src/store/index.js';

async function main(): Promise<void> {
  const [path = '', prefix = '', count = '0'] = process.argv.slice(2);
  const store = await openSqliteStore(path);
  const created = await store.createMatch({
    id: 'm',
    channelId: 'c',
    platform: 'console',
    createdAt: '2025-01-01T00:00:00.000Z',
  });
  if (!created.ok && created.code !== 'duplicate_match') throw new Error(`createMatch: ${created.code}`);
  let expected = 0;
  let conflicts = 0;
  for (let i = 0; i < Number(count); i++) {
    for (;;) {
      const r = await store.append(
        'm',
        expected,
        { type: 'seat_done', lab: `${prefix}${i}` },
        '2025-01-01T00:00:01.000Z',
      );
      if (r.ok) {
        expected = r.event.seq;
        break;
      }
      if (r.code !== 'conflict') throw new Error(`append: ${r.code}`);
      expected = r.lastSeq;
      conflicts++;
    }
  }
  const claimed = await store.tryClaim('round_close:m:0');
  await store.close();
  console.log(JSON.stringify({ conflicts, claimed }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
