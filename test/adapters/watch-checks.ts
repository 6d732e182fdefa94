/**
 * Checks shared by the watch-mode end-to-end tests (discord/watch.test.ts, slack/watch.test.ts): a match of
 * agents told in a channel. Platform-free: each test turns its emulator's records into plain post texts
 * (title first), and these functions judge them. Also the transcript writer behind ARENA_WRITE_TRANSCRIPT=1.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ACTION_TYPES } from '../../src/engine/actions.js';
import type { MatchState } from '../../src/engine/types.js';
import { replay, type HostedMatch } from '../../src/host/index.js';
import type { EventStore } from '../../src/store/index.js';

/** One public post as the channel shows it: its title (header) and its whole text (title included). */
export interface ChannelPost {
  title: string;
  text: string;
}

/** Every engine state the match went through (after each stored event), oldest first. */
export async function statesOf(store: EventStore, matchId: string): Promise<MatchState[]> {
  const out: MatchState[] = [];
  let m: HostedMatch | null = null;
  for (const ev of await store.load(matchId)) {
    m = replay([ev], m);
    if (m?.state) out.push(m.state);
  }
  return out;
}

/** The round numbers of the "Round k/N closed" posts, in channel order, and N. */
export function closedRounds(posts: readonly ChannelPost[]): { rounds: number[]; total: number | null } {
  const rounds: number[] = [];
  let total: number | null = null;
  for (const p of posts) {
    const m = /^Round (\d+)\/(\d+) closed/.exec(p.title);
    if (!m) continue;
    rounds.push(Number(m[1]));
    total = Number(m[2]);
  }
  return { rounds, total };
}

/**
 * Asserts the story of a finished watch match: every round's close posted once, in order 1..N; the final
 * standings ("Match over", "How each seat scored") after the last close; words, not action names.
 */
export function assertToldInWords(posts: readonly ChannelPost[]): void {
  const { rounds, total } = closedRounds(posts);
  assert.ok(total !== null && total >= 3, `round closes were posted (saw ${rounds.join(',')})`);
  assert.deepEqual(
    rounds,
    Array.from({ length: total }, (_, i) => i + 1),
    'every round close, once, in order',
  );
  const lastClose = posts.findLastIndex((p) => /^Round \d+\/\d+ closed/.test(p.title));
  const final = posts.findIndex((p) => /^Match over/.test(p.title));
  assert.ok(final > lastClose, 'the final standings come after the last round close');
  assert.match(posts[final]!.text, /How each seat scored/);
  assert.match(posts[final]!.text, /Winner: Lab [A-Z]/);
  const all = posts.map((p) => p.text).join('\n');
  // Words: an offer with its terms, a pitch's own text, a reason quoted with an answer or an offer.
  assert.match(all, /offered Lab [A-Z] o_\d+: .+ for .+/, 'an offer with its terms');
  assert.match(all, /pitched: “[^”]{20,}”/u, "a pitch's text");
  assert.match(all, /(countered|rejected|offered) .+ — “[^”]{10,}”/u, 'a reason in words');
  // Not action names (the snake_case ones; `wait`, `finish` and `bid` are also plain words).
  for (const name of ACTION_TYPES.filter((a) => a.includes('_')))
    assert.ok(!new RegExp(`\\b${name}\\b`).test(all), `no action name ${name} in the channel`);
}

/**
 * Private values found in a public text: any seat's budget at any point, job values, job ids before they
 * settle (the round-close "Deadlines" lines make them public, RULES §2 step 5) unless their own lab named
 * them in a pitch (its text or its `job` option), and private phrasings. `settled` is carried across calls in channel order.
 */
export function leaksIn(states: readonly MatchState[], text: string, settled: Set<string>): string[] {
  const last = states.at(-1)!;
  const num = (v: number, dp: number) => new RegExp(`(?<![\\d.])${v.toFixed(dp).replace('.', '\\.')}(?!\\d)`);
  const named = new Set<string>();
  for (const msg of last.messages) {
    if (msg.kind !== 'pitch' && msg.kind !== 'counter_pitch') continue;
    for (const id of msg.text.match(/\bj_\d+_\w+/g) ?? []) if (last.jobs[id]?.owner === msg.from) named.add(id);
  }
  // The jobs a pitch names with its `job` option are public too: its post says "pitches for j_…".
  for (const s of states)
    for (const p of s.pitches) for (const id of p.jobIds) if (last.jobs[id]?.owner === p.lab) named.add(id);
  const leaks: string[] = [];
  for (const line of text.matchAll(/^Lab [A-Z] (j_\d+_\w+): (met|missed|partial)/gm)) settled.add(line[1]!);
  // A lab's own pitch post ("Lab A pitches") may name its jobs: the author chose to make them public.
  const pitch = /^(Lab [A-Z]) pitches/m.exec(text);
  for (const job of Object.values(last.jobs)) {
    const pitchedByOwner = pitch !== null && last.labs[job.owner]!.publicName === pitch[1];
    if (!settled.has(job.id) && !named.has(job.id) && !pitchedByOwner && new RegExp(`\\b${job.id}\\b`).test(text))
      leaks.push(`job id ${job.id}`);
    if (num(job.baseValue, 2).test(text)) leaks.push(`base value of ${job.id}`);
    if (num(job.baseValue * job.urgencyMultiplier, 1).test(text)) leaks.push(`value of ${job.id}`);
  }
  for (const st of states)
    for (const lab of Object.values(st.labs)) if (num(lab.budget, 2).test(text)) leaks.push(`budget of ${lab.id}`);
  for (const re of [
    /needs \d+ GPU-h by/,
    /min rel(iability)? 0\.\d\d/,
    /your round \d+ reward/,
    /[Bb]udget \d/,
    /only you see this/,
    /You play Lab/,
    /job_utility/,
  ]) {
    if (re.test(text)) leaks.push(String(re));
  }
  return leaks.map((l) => `${l} in: ${text.slice(0, 100)}`);
}

/** Leaks in every post, in channel order (empty when nothing private reached the channel). */
export function leaksInPosts(states: readonly MatchState[], posts: readonly ChannelPost[]): string[] {
  const settled = new Set<string>();
  return posts.flatMap((p) => leaksIn(states, p.text, settled));
}

/** Figures of one run, for the transcript header and the report. */
export interface RunFigures {
  platform: string;
  command: string;
  limit: string;
  posts: number;
  limited: number;
  durationMs: number;
}

/**
 * With ARENA_WRITE_TRANSCRIPT=1, writes the channel's posts (text, in order) to `path` under a short header
 * with the run's figures; otherwise does nothing. Returns whether it wrote.
 */
export function writeTranscript(path: string, figures: RunFigures, posts: readonly ChannelPost[]): boolean {
  if (process.env['ARENA_WRITE_TRANSCRIPT'] !== '1') return false;
  const head = [
    `GPU Arena: a match of agents watched in a ${figures.platform} channel (the real client against test/emulators, rate limits on)`,
    `Commands: ${figures.command}`,
    `Rate limit enforced by the emulator: ${figures.limit}`,
    `${figures.posts} channel posts, ${figures.limited} answered 429, ${(figures.durationMs / 1000).toFixed(1)} s from start to the final post`,
    `Written by ARENA_WRITE_TRANSCRIPT=1 npm test -- ${figures.platform.toLowerCase()}/watch`,
  ];
  const body = posts.map((p, i) => `--- post ${i + 1}\n${p.text.trim()}`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${[...head.map((l) => `# ${l}`), '', ...body].join('\n')}\n`);
  return true;
}
