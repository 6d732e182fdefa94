/**
 * `npm run export -- --dataset <dir>`: write a dataset release (src/analytics/preference/release.ts) into
 * `<dir>`: the JSON lines files, the card (`README.md`) and `SHA256SUMS`. The directory must be new or
 * empty. The release's pseudonym key is `--pseudonym-key` (to link releases) or a fresh random one, printed
 * once to stderr and never stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { grantedIds } from '../analytics/preference/consent.js';
import type { MatchData } from '../analytics/preference/dataset.js';
import { buildRelease } from '../analytics/preference/release.js';
import { dataPolicyOf, type ArenaConfig } from '../app/config/index.js';
import type { EventStore } from '../store/types.js';

/** Write the release of `matches` to `dir`; the exit code (1 when `dir` holds files). */
export async function writeDataset(
  store: EventStore,
  config: ArenaConfig,
  matches: readonly MatchData[],
  dir: string,
  key: string | undefined,
): Promise<number> {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    process.stderr.write(`${dir} is not empty: a release goes into a new or empty directory.\n`);
    return 1;
  }
  const pseudonymKey = key ?? randomBytes(32).toString('hex');
  const policy = dataPolicyOf(config);
  const release = buildRelease({
    matches,
    granted: grantedIds(await store.listConsents()),
    selection: { includeIdentifying: false, includeSeeded: config.data.includeSeeded },
    notice: policy.notice,
    pseudonymKey,
    createdAt: new Date().toISOString(),
  });
  mkdirSync(dir, { recursive: true });
  const sums: string[] = [];
  for (const [name, content] of Object.entries(release.files)) {
    writeFileSync(join(dir, name), content);
    sums.push(`${createHash('sha256').update(content).digest('hex')}  ${name}`);
  }
  writeFileSync(join(dir, 'SHA256SUMS'), `${sums.join('\n')}\n`);
  const c = release.counts;
  const s = release.scrubbed;
  process.stderr.write(
    `Release ${release.version} in ${dir}: ${c.humanRows} people's votes, ${c.judgeRows} judge-labelled pairs, ${c.sftRows} demonstrations from ${c.matches} match${c.matches === 1 ? '' : 'es'}; replaced ${s.email} e-mail addresses, ${s.url} URLs, ${s.mention} mentions, ${s.phone} phone numbers.\n` +
      (key
        ? ''
        : `Pseudonym key of this release (not stored; keep it only to link a later release with --pseudonym-key): ${pseudonymKey}\n`),
  );
  return 0;
}
