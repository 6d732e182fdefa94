/**
 * Ballots through the console surface: the catalogue's text grammar in the console's channel, each
 * person's terminal rendered by the console adapter (src/adapters/console/render.ts), an LLM seat answered by
 * the local OpenAI-compatible emulator. Two people and the LLM seat pitch every round; every round gets a
 * ballot; votes are cast; a repeat vote and a vote on one's own pitch are private errors that add no row;
 * nothing a voter saw before voting on a pair holds the judge's verdict on it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReply } from '../../../src/adapters/console/render.js';
import { CONSOLE_CHANNEL } from '../../../src/adapters/console/session.js';
import { runText } from '../../../src/commands/index.js';
import type { Caller, Reply } from '../../../src/commands/types.js';
import { llmAgentFactory } from '../../../src/agents/seat-agent.js';
import { FakeClock, RoundHost, type HostedMatch } from '../../../src/host/index.js';
import { labName } from '../../../src/present/common.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { startOpenAiEmulator, type OpenAiEmulator } from '../../emulators/openai.js';
import { emuClient } from '../../agents/helpers.js';

const ann: Caller = { userId: 'console:ann', displayName: 'ann', isAdmin: false };
const bob: Caller = { userId: 'console:bob', displayName: 'bob', isAdmin: false };
import { dataNotice, type DataPolicy } from '../../../src/match/data-policy.js';

/** Fixed seeds give fixed worlds; this deployment counts such practice matches (config data.includeSeeded). */
const COUNT_PRACTICE: DataPolicy = { includeSeeded: true, notice: dataNotice() };
const LLM_PITCH = 'Our remaining jobs need GPU-hours before their deadlines; we will pay a fair price.';

describe('console: a collection session with two people and an LLM seat', () => {
  let emu: OpenAiEmulator;
  before(async () => {
    emu = await startOpenAiEmulator();
    emu.setResponder(() => ({
      content: JSON.stringify({
        plan: null,
        actions: [{ action_type: 'wait' }],
        pitch: { message: LLM_PITCH, job_ids: [] },
      }),
    }));
  });
  after(() => emu.close());

  test(
    'a ballot every round, votes cast, errors private and row-free, no verdict before the vote',
    { timeout: 120_000 },
    async () => {
      const store: EventStore = await openStore({ sqlitePath: ':memory:' });
      const clock = new FakeClock();
      /** What each person's terminal showed, in order. */
      const screen = new Map<string, string[]>([
        [ann.userId, []],
        [bob.userId, []],
      ]);
      const show = (reply: Reply) => {
        for (const [userId, lines] of screen) lines.push(renderReply(reply, { color: false, userId }));
      };
      const host = new RoundHost({
        store,
        clock,
        agentFor: llmAgentFactory(emuClient(emu)),
        publish: async (_c, r) => show(r),
        votes: { ballotSeconds: 60 },
        data: COUNT_PRACTICE,
      });
      const say = async (who: Caller, text: string): Promise<Reply> => {
        const r = await runText(host, CONSOLE_CHANNEL, who, text);
        // A command's reply is shown on the terminal of whoever it concerns (its public part to everyone).
        show(r);
        return r;
      };
      const seen = (who: Caller) => screen.get(who.userId)!.join('');
      try {
        const lobby = await say(ann, 'new task:market_round seed:3 round_seconds:0 votes:on');
        assert.match(
          renderReply(lobby, { color: false, userId: ann.userId }),
          /Pitches and votes are collected for research exports/,
        );
        await say(ann, 'join lab:lab_0');
        await say(bob, 'join lab:lab_1');
        await say(ann, 'seat lab:lab_2 agent:llm model:agent-m');
        await say(ann, 'start');
        const matchId = (await host.current(CONSOLE_CHANNEL))!.id;
        let m: HostedMatch = (await host.current(CONSOLE_CHANNEL))!;
        const rows = async () => (await store.listVotes({ matchId })).length;

        for (let round = 0; round < 5; round++) {
          await host.idle(); // the LLM seat's turn (pitch, then done)
          m = (await host.current(CONSOLE_CHANNEL))!;
          for (const [who, lab] of [
            [ann, 'lab_0'],
            [bob, 'lab_1'],
          ] as const) {
            const job = Object.values(m.state!.jobs).find((j) => j.owner === lab && j.outcome === 'pending');
            // Each pitch names its author every way it can: the lab's name and id, the job id, the player's name.
            const me = `${labName(m, lab)} (${lab}, ${who.displayName} here)`;
            await say(
              who,
              job
                ? `pitch text:"${me}: ${job.id} still needs GPU-hours before round ${job.deadlineRound + 1}" job:${job.id}`
                : `pitch text:"${me}: we still need GPU capacity for our work"`,
            );
          }
          await say(ann, 'done');
          await say(bob, 'done');
          await host.idle();
          const fresh = (await store.listMatches({})).find((x) => x.id === matchId);
          assert.ok(fresh);
          m = (await host.current(CONSOLE_CHANNEL)) ?? m;
          const events = await store.load(matchId);
          const opened = events.filter((e) => e.body.type === 'ballot_opened').map((e) => e.body);
          assert.equal(opened.length, round + 1, `round ${round + 1} produced a ballot`);
          const ballot = opened.at(-1)!;
          assert.ok(ballot.type === 'ballot_opened');
          assert.deepEqual(
            ballot.pitches.map((p) => p.lab),
            ['lab_0', 'lab_1', 'lab_2'],
            'both people and the LLM seat pitched',
          );
          assert.equal(ballot.pitches[2]!.text, LLM_PITCH);
          const ballotId = ballot.ballotId;
          const judge = (
            events.findLast((e) => e.body.type === 'round_closed')!.body as {
              judge: { scores: { lab: string; score: number; parts: { need: number } }[] };
            }
          ).judge;
          const verdictLine = (lab: string) => {
            const s = judge.scores.find((x) => x.lab === lab)!;
            return `${labName(m, lab)}: ${s.score.toFixed(2)} (need ${s.parts.need.toFixed(2)}`;
          };

          // Each person: `vote` serves the one pair without their own pitch; before voting, nothing on their
          // terminal holds the judge's verdict on it.
          for (const [who, own, pair] of [
            [ann, 'lab_0', 3],
            [bob, 'lab_1', 2],
          ] as const) {
            const before = await rows();
            const ownPair = own === 'lab_0' ? 1 : 3;
            const refused = await say(who, `vote ballot:${ballotId} pair:${ownPair} choice:a`);
            assert.equal(refused.error?.code, 'own_pitch');
            assert.equal(refused.public.length, 0, 'the error is private');
            assert.match(renderReply(refused, { color: false, userId: who.userId }), /\[private → you\] ✗ own_pitch/);
            assert.equal(await rows(), before, "no row for a vote on one's own pitch");

            const served = await say(who, 'vote');
            assert.match(served.private[0]!.title ?? '', new RegExp(`Ballot ${ballotId} · pair ${pair} of 3`));
            const [x, y] = pair === 3 ? ['lab_1', 'lab_2'] : ['lab_0', 'lab_2'];
            for (const line of [verdictLine(x), verdictLine(y)])
              assert.ok(!seen(who).includes(line), `${who.displayName} saw no "${line}" before voting`);
            const pairShown = renderReply(served, { color: false, userId: who.userId });
            assert.doesNotMatch(
              pairShown,
              /Lab [ABC]|\bann\b|\bbob\b|lab_\d|\bj_\d|\bb_\d/i,
              'no author identifiable on the ballot',
            );
            assert.match(
              pairShown,
              /\[own lab\] \(\[own lab\], \[name\] here\)/,
              'the lab and player names are replaced',
            );
            assert.doesNotMatch(seen(who), new RegExp(`Ballot ${ballotId} closed`));

            const voted = await say(
              who,
              `vote ballot:${ballotId} pair:${pair} choice:${round % 2 === 0 ? 'a' : 'tie'}`,
            );
            assert.equal(voted.error, undefined);
            assert.equal(await rows(), before + 1);
            const shown = renderReply(voted, { color: false, userId: who.userId });
            assert.ok(
              shown.includes(verdictLine(x)) && shown.includes(verdictLine(y)),
              'the verdict on the pair right after the vote',
            );

            const again = await say(who, `vote ballot:${ballotId} pair:${pair} choice:b`);
            assert.equal(again.error?.code, 'duplicate_vote');
            assert.equal(again.public.length, 0);
            assert.equal(await rows(), before + 1, 'a repeat vote adds no row');
          }
        }
        // The match is over; the last ballot closes on its clock and the channel sees the verdict.
        assert.equal(await host.current(CONSOLE_CHANNEL), null);
        await clock.advance(60_000);
        await host.idle();
        assert.match(seen(bob), /Ballot v_5 closed \(round 5 pitches\): its time ran out/);
        const votes = await store.listVotes({ matchId });
        assert.equal(votes.length, 10);
        assert.ok(votes.every((v) => v.seated));
        assert.ok(
          votes.every((v) => v.anonymous === true),
          'every ballot pair was anonymous after redaction',
        );
        assert.deepEqual(new Set(votes.map((v) => v.ballotId)), new Set(['v_1', 'v_2', 'v_3', 'v_4', 'v_5']));
        // `stats` (public) covers the channel's finished match.
        const st = await say(bob, 'stats');
        assert.equal(st.error, undefined);
        assert.equal(st.public.length, 1);
        assert.match(renderReply(st, { color: false, userId: bob.userId }), /\b10 votes\b/);
      } finally {
        await host.stop();
        await store.close();
      }
    },
  );
});
