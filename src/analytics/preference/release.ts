/**
 * A versioned dataset release (docs/PREFERENCE-DATA.md#dataset-release): the people's and the judge's
 * preference pairs and the demonstrations as JSON lines, only what consent allows (consent.ts), free text
 * scrubbed (scrub.ts), people under pseudonyms keyed by a per-release key (stable within the release,
 * unlinkable across releases unless the operator keeps the key), and a dataset card (`README.md` with the
 * YAML header dataset hubs read). The caller writes the files and their checksums. Pure.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { RULES_VERSION } from '../../engine/index.js';
import type { DataNotice } from '../../match/data-policy.js';
import { withConsent } from './consent.js';
import type { MatchData } from './dataset.js';
import { preferenceRows } from './export-votes.js';
import { sftRows } from './export-sft.js';
import { agreementLine, selectionLine } from './format-stats.js';
import { pseudonym } from './pseudonym.js';
import { emptyCounts, scrubRow, type ScrubCounts } from './scrub.js';
import { computeStats, DEFAULT_STATS_OPTIONS } from './stats.js';
import type { VoteSelection } from './selection.js';

/** The data files of a release, in card order: config name → file name. */
export const RELEASE_FILES = {
  human_preferences: 'human_preferences.jsonl',
  judge_preferences: 'judge_preferences.jsonl',
  sft: 'sft.jsonl',
} as const;

export interface ReleaseInput {
  matches: readonly MatchData[];
  /** User ids who agreed to the notice. */
  granted: ReadonlySet<string>;
  selection: VoteSelection;
  notice: DataNotice;
  /** Key of this release's pseudonyms (hex); a fresh random one unless the operator keeps one to link releases. */
  pseudonymKey: string;
  /** ISO time of the release (its version's date). */
  createdAt: string;
}

export interface Release {
  /** `<date>-<first 8 hex of SHA-256 over the data files>`. */
  version: string;
  /** File name → content (the data files and README.md). */
  files: Record<string, string>;
  counts: {
    matches: number;
    humanRows: number;
    judgeRows: number;
    sftRows: number;
    voters: number;
    anonymousShare: number | null;
  };
  scrubbed: ScrubCounts;
}

const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

/** The hub's size bucket of `n` rows. */
const sizeCategory = (n: number) =>
  n < 1000 ? 'n<1K' : n < 10_000 ? '1K<n<10K' : n < 100_000 ? '10K<n<100K' : '100K<n<1M';

/** Build a release from `input` (see the file comment). */
export function buildRelease(input: ReleaseInput): Release {
  const data = withConsent(input.matches, input.granted);
  const pseudonymize = (userId: string) => pseudonym(userId, input.pseudonymKey);
  const scrubbed = emptyCounts();
  const scrub = (rows: unknown[]) => rows.map((r) => scrubRow(r, scrubbed));
  const human = scrub(
    preferenceRows(data, { format: 'jsonl', source: 'human', pseudonymize, selection: input.selection }),
  );
  const judge = scrub(
    preferenceRows(data, { format: 'jsonl', source: 'judge', pseudonymize, selection: input.selection }),
  );
  const sft = scrub(sftRows(data, { format: 'trl', pseudonymize, selection: input.selection }));
  const files: Record<string, string> = {
    [RELEASE_FILES.human_preferences]: lines(human),
    [RELEASE_FILES.judge_preferences]: lines(judge),
    [RELEASE_FILES.sft]: lines(sft),
  };
  const digest = createHash('sha256');
  for (const name of Object.values(RELEASE_FILES)) digest.update(`${name}\n${files[name]}`);
  const version = `${input.createdAt.slice(0, 10)}-${digest.digest('hex').slice(0, 8)}`;

  const stats = computeStats(data, {
    ...DEFAULT_STATS_OPTIONS,
    selection: { ...input.selection, includeIdentifying: true },
  });
  const kept = computeStats(data, { ...DEFAULT_STATS_OPTIONS, selection: input.selection });
  const voters = new Set(human.map((r) => (r as { voter?: string }).voter)).size;
  const counts = {
    matches: kept.matches,
    humanRows: human.length,
    judgeRows: judge.length,
    sftRows: sft.length,
    voters,
    anonymousShare: stats.selection.votes
      ? (stats.selection.votes - stats.selection.identifying) / stats.selection.votes
      : null,
  };
  const judges = [
    ...new Set(
      judge.map((r) => {
        const j = (r as { judge?: { judge_id?: string; model?: string | null; prompt_version?: string | null } }).judge;
        return j
          ? `${j.judge_id ?? '?'}${j.model ? ` (${j.model})` : ''}${j.prompt_version ? `, prompt ${j.prompt_version}` : ''}`
          : 'none';
      }),
    ),
  ].sort();
  files['README.md'] = card(input, version, counts, scrubbed, kept, judges);
  return { version, files, counts, scrubbed };
}

function card(
  input: ReleaseInput,
  version: string,
  c: Release['counts'],
  s: ScrubCounts,
  stats: ReturnType<typeof computeStats>,
  judges: string[],
): string {
  const header = {
    pretty_name: 'GPU Arena negotiation pitches: preferences and demonstrations',
    license: input.notice.licence.toLowerCase(),
    language: ['en'],
    size_categories: [sizeCategory(c.humanRows + c.judgeRows + c.sftRows)],
    task_categories: ['text-classification', 'text-generation'],
    tags: ['preference', 'rlhf', 'negotiation', 'llm-as-judge'],
    configs: Object.entries(RELEASE_FILES).map(([config_name, path]) => ({ config_name, data_files: path })),
  };
  const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 1000) / 10} %`);
  return [
    '---',
    stringify(header).trimEnd(),
    '---',
    '',
    `# GPU Arena preference data, release ${version}`,
    '',
    "Pitches written in judged negotiation matches of GPU Arena (fictional AI labs trading GPU blocks; seats played by people, LLM agents and scripted policies), with blind pairwise votes by people on pairs of pitches, the judge's labels on the same pairs, and demonstrations of play (each seat's own view and its actions per round).",
    '',
    '## Collection',
    '',
    "After each judged round the bot opened a ballot on its pitches: every pair shown blind (every token naming a seat replaced), in an order randomised per voter; anyone in the channel except the pitches' authors could vote A, B, tie or both bad. Votes on pairs that still identified an author after redaction are left out, as are practice matches whose host chose the seed.",
    `Rules version ${RULES_VERSION} of the engine (docs/RULES.md). Judges: ${judges.join('; ') || 'none'}.`,
    '',
    '## Consent',
    '',
    `People's words and votes are included only when they agreed to this notice (version ${input.notice.version}, licence ${input.notice.licence}); scripted and LLM seats need none. A person's texts inside other seats' views read "[withheld: no consent]" without it.`,
    '',
    ...input.notice.text.split('\n').map((l) => `> ${l}`),
    '',
    '## Contents',
    '',
    '| file | rows |',
    '|---|---|',
    `| ${RELEASE_FILES.human_preferences} | ${c.humanRows} |`,
    `| ${RELEASE_FILES.judge_preferences} | ${c.judgeRows} |`,
    `| ${RELEASE_FILES.sft} | ${c.sftRows} |`,
    '',
    `Matches: ${c.matches}. Voters: ${c.voters}. Anonymous share of the consenting voters' votes: ${pct(c.anonymousShare)}. ${selectionLine(stats)}`,
    `Judge vs people (majority per pair): ${agreementLine(stats.all.judgeHuman)}.`,
    '',
    '## Privacy',
    '',
    'People appear only as pseudonyms `u_` + 16 hex digits of HMAC-SHA256(release key, platform id). The key is drawn for this release, so pseudonyms are stable within it and cannot be linked to another release unless the operator kept the key. Free text was scrubbed (docs/PREFERENCE-DATA.md); each replacement in each row counts (a pitch appears in several rows: its pairs, the views of seats):',
    '',
    '| replaced | count |',
    '|---|---|',
    `| e-mail addresses → [email] | ${s.email} |`,
    `| URLs → [url] | ${s.url} |`,
    `| platform mentions → [mention] | ${s.mention} |`,
    `| phone numbers → [phone] | ${s.phone} |`,
    '',
    '`SHA256SUMS` lists the SHA-256 of every file (`sha256sum -c SHA256SUMS`).',
    '',
  ].join('\n');
}
