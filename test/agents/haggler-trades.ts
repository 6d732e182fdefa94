/**
 * The trades an honest LLM seat makes over a fixed set of seeds: the haggler stand-in (test/emulators/haggler.ts)
 * on lab_1 of a market_round, through the real round host, the real openai client and the emulator. Each round
 * a person on lab_0 offers each of its live blocks to lab_1 for credits (asks cycling through a fixed list);
 * when the model counters, the person meets it in the middle, as test/adapters/console/haggle.test.ts does; lab_2
 * is scripted. Counted: trades executed with lab_1 (either side), and the codes of every action of the model
 * that was turned down before the host applied it (the engine's, and the self-harm guard's).
 *
 * Used by test/agents/haggler-guard.test.ts; run directly it prints the counts (docs/LLM.md quotes them):
 *
 *   npx tsx test/agents/haggler-trades.ts [first-seed] [last-seed]
 */
import { pathToFileURL } from 'node:url';
import { runText } from '../../src/commands/index.js';
import { llmAgentFactory } from '../../src/agents/seat-agent.js';
import { startOpenAiEmulator } from '../emulators/openai.js';
import { hagglerResponder } from '../emulators/haggler.js';
import { harness, person, replayed, unwrap } from '../host/helpers.js';
import { emuClient } from './helpers.js';

const SELLER = person('seller');
const HOST = person('host');
/** Asks of the seller's offers, cycled (credits). */
const ASKS = [6, 18, 40, 90];

/** What one seed gave. */
export interface SeedTrades {
  seed: number;
  /** Trades executed with the LLM seat. */
  trades: number;
  /** Codes of the model's actions turned down before the host applied them. */
  rejected: string[];
}

/** Play `seeds` (see the file comment); the emulator is started and closed here. */
export async function hagglerTrades(seeds: readonly number[]): Promise<SeedTrades[]> {
  const emu = await startOpenAiEmulator({ responder: hagglerResponder });
  const out: SeedTrades[] = [];
  try {
    for (const seed of seeds) {
      const rejected: string[] = [];
      const h = await harness({
        agentFor: llmAgentFactory(emuClient(emu), { onNote: (n) => rejected.push(...n.rejected.map((r) => r.code)) }),
      });
      const channel = `haggle-${seed}`;
      const say = async (text: string) => {
        await runText(h.host, channel, SELLER, text);
        await h.host.idle();
      };
      const id = unwrap(await h.host.create(channel, 'test', HOST, { task: 'market_round', seed, roundSeconds: 0 })).id;
      unwrap(await h.host.join(channel, SELLER, 'lab_0'));
      unwrap(await h.host.assign(channel, HOST, 'lab_1', { kind: 'llm', model: 'haggler' }));
      unwrap(await h.host.start(channel, HOST));
      await h.host.idle();
      let k = seed;
      for (let round = 0; round < 10; round++) {
        const m = await h.host.current(channel);
        if (!m?.state || m.phase !== 'running') break;
        const live = Object.values(m.state.blocks).filter(
          (b) => b.owner === 'lab_0' && (b.status === 'available' || b.status === 'reserved'),
        );
        for (const b of live) {
          await say(`offer to:lab_1 give:${b.id} ask:${ASKS[k++ % ASKS.length]}`);
          const now = await h.host.current(channel);
          const counter = Object.values(now?.state?.offers ?? {}).find(
            (o) =>
              o.from === 'lab_1' && o.to === 'lab_0' && o.status === 'active' && o.requestedBlockIds.includes(b.id),
          );
          if (counter) await say(`counter offer:${counter.id} give:${b.id} ask:${Math.round(counter.payment * 1.15)}`);
        }
        await say('done');
      }
      const offers = Object.values((await replayed(h.store, id)).state?.offers ?? {});
      out.push({
        seed,
        trades: offers.filter((o) => o.status === 'accepted' && (o.from === 'lab_1' || o.to === 'lab_1')).length,
        rejected,
      });
      await h.host.stop();
      await h.store.close();
    }
  } finally {
    await emu.close();
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const first = Number(process.argv[2] ?? 1);
  const last = Number(process.argv[3] ?? 20);
  const rows = await hagglerTrades(Array.from({ length: last - first + 1 }, (_, i) => first + i));
  for (const r of rows)
    console.log(
      `seed ${r.seed}: ${r.trades} trade(s)${r.rejected.length ? `; turned down: ${r.rejected.join(', ')}` : ''}`,
    );
  console.log(
    `seeds ${first}–${last}: ${rows.reduce((a, r) => a + r.trades, 0)} trades with the haggler; ${rows.reduce((a, r) => a + r.rejected.length, 0)} of its actions turned down`,
  );
}
