/**
 * The admin view of LLM spend: `stats view:usage` shows an operator (config `adminUserIds`),
 * privately, today's LLM tokens (UTC day, prompt + completion) from the store's `llm_usage` table: the deployment's total, each
 * channel's, each host's (the busiest), each model's and each match's, with the budgets (usage-budgets.ts) and
 * what is left of them, and an estimated cost when prices are configured (usage-prices.ts); a platform admin
 * sees only the channel it asks in (a thread: its parent channel, whose budget it counts against). Anyone
 * else gets `not_admin` and sees nothing. Model names are shown as untrusted text.
 */
import { errorReply, privateReply } from '../chat/reply.js';
import { playerText } from '../chat/player-text.js';
import type { LlmGuardRecord, LlmUsageRecord } from '../store/types.js';
import type { CommandContext } from './context.js';
import { isPlatformAdmin } from './preconditions.js';
import type { Post, Reply } from './types.js';
import { usageBudgets, type UsageBudgets } from './usage-budgets.js';
import { costOf, dollars, usagePrices, type TokenPrices } from './usage-prices.js';

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** "1,234 of 5,000 tokens (3,766 left)", "1,234 tokens (no budget)" for 0, "1,234 tokens" when the budget is unknown. */
function against(tokens: number, budget: number | null): string {
  if (budget === null) return `${fmt(tokens)} tokens`;
  if (budget === 0) return `${fmt(tokens)} tokens (no budget)`;
  return `${fmt(tokens)} of ${fmt(budget)} tokens (${fmt(Math.max(0, budget - tokens))} left)`;
}

interface Sum {
  calls: number;
  refused: number;
  prompt: number;
  completion: number;
  tokens: number;
  matches: Set<string>;
}

function sumBy(rows: readonly LlmUsageRecord[], key: (r: LlmUsageRecord) => string): Map<string, Sum> {
  const out = new Map<string, Sum>();
  for (const r of rows) {
    const k = key(r);
    const s = out.get(k) ?? { calls: 0, refused: 0, prompt: 0, completion: 0, tokens: 0, matches: new Set<string>() };
    s.calls += r.calls;
    s.refused += r.refused;
    s.prompt += r.promptTokens;
    s.completion += r.completionTokens;
    s.tokens += r.tokens;
    if (r.matchId !== null) s.matches.add(r.matchId);
    out.set(k, s);
  }
  return out;
}

const refusedText = (s: Sum) => (s.refused > 0 ? ` · ${fmt(s.refused)} refused` : '');

/** Hosts listed in the deployment view (the ones who spent most). */
const TOP_HOSTS = 10;

/** Matches listed in the "By match" field, most tokens first. */
const MATCHES_SHOWN = 10;

/** " · ≈ $0.0123" at `prices`, or nothing without prices. */
const costText = (s: Sum, prices: TokenPrices | null) =>
  prices ? ` · ≈ ${dollars(costOf(prices, s.prompt, s.completion))}` : '';

/** The "By match" field: the day's matches by tokens (calls without a match are left out), with their cost. */
function byMatchField(
  rows: readonly LlmUsageRecord[],
  prices: TokenPrices | null,
  withChannel: boolean,
): { name: string; value: string } | null {
  const byMatch = [
    ...sumBy(
      rows.filter((r) => r.matchId !== null),
      (r) => r.matchId!,
    ).entries(),
  ].sort((a, b) => b[1].tokens - a[1].tokens || a[0].localeCompare(b[0]));
  if (byMatch.length === 0) return null;
  const channelOf = new Map(rows.map((r) => [r.matchId, r.channelId]));
  const lines = byMatch
    .slice(0, MATCHES_SHOWN)
    .map(
      ([id, m]) =>
        `• ${id}${withChannel ? ` (${channelOf.get(id) ?? 'no channel'})` : ''}: ${fmt(m.tokens)} tokens · ${plural(m.calls, 'call')}${refusedText(m)}${costText(m, prices)}`,
    );
  if (byMatch.length > MATCHES_SHOWN)
    lines.push(`… and ${plural(byMatch.length - MATCHES_SHOWN, 'more match', 'more matches')}`);
  return { name: 'By match', value: lines.join('\n') };
}

/** The line that says how costs are estimated (or that no prices are configured). */
const priceLine = (prices: TokenPrices | null) =>
  prices
    ? `Costs are estimates at $${prices.inputPerMillion} / $${prices.outputPerMillion} per million input / output tokens (llm.priceInputPerMillion, llm.priceOutputPerMillion).`
    : 'No cost shown: set llm.priceInputPerMillion and llm.priceOutputPerMillion (ARENA_LLM_PRICE_INPUT, ARENA_LLM_PRICE_OUTPUT) for estimates.';

/**
 * What LLM seats' self-protection did (src/agents/redact.ts, guard.ts), as a field: private figures redacted
 * from their messages, notes and pitches, and actions refused because they gave value away; per model.
 * Null when there is nothing to show.
 */
function guardField(guard: readonly LlmGuardRecord[]): { name: string; value: string } | null {
  const byModel = new Map<string, { redactions: number; refusals: number; matches: Set<string> }>();
  for (const g of guard) {
    const m = byModel.get(g.model) ?? { redactions: 0, refusals: 0, matches: new Set<string>() };
    m.redactions += g.redactions;
    m.refusals += g.refusals;
    if (g.matchId !== null) m.matches.add(g.matchId);
    byModel.set(g.model, m);
  }
  if (byModel.size === 0) return null;
  const lines = [...byModel.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(
      ([model, m]) =>
        `• ${playerText(model)}: ${plural(m.redactions, 'private figure')} redacted · ${plural(m.refusals, 'action')} refused (gave value away) · ${plural(m.matches.size, 'match', 'matches')}`,
    );
  return { name: 'LLM seats protected', value: lines.join('\n') };
}

/**
 * The usage post of `day` from its `rows`, against `budgets` (null = not known in this process), with what
 * the seats' self-protection did (`guard`) and, with `prices`, estimated costs. Pure. Channels are sorted by tokens spent, most first; calls
 * without a channel show as "(no channel)".
 */
export function formatUsage(
  rows: readonly LlmUsageRecord[],
  budgets: UsageBudgets | null,
  day: string,
  channelOnly?: string,
  guard: readonly LlmGuardRecord[] = [],
  prices: TokenPrices | null = null,
): Post {
  const post = formatTokens(rows, budgets, day, channelOnly, prices);
  const field = guardField(channelOnly === undefined ? guard : guard.filter((g) => g.channelId === channelOnly));
  return field ? { ...post, fields: [...(post.fields ?? []), field] } : post;
}

/** The token part of {@link formatUsage}. */
function formatTokens(
  rows: readonly LlmUsageRecord[],
  budgets: UsageBudgets | null,
  day: string,
  channelOnly: string | undefined,
  prices: TokenPrices | null,
): Post {
  if (channelOnly !== undefined)
    return formatChannelUsage(
      rows.filter((r) => r.channelId === channelOnly),
      budgets,
      day,
      prices,
    );
  const total = sumBy(rows, () => 'all').get('all');
  const budgetLine = budgets
    ? `Budgets: ${budgets.dailyTokens ? fmt(budgets.dailyTokens) : 'no limit'} a day for the deployment, ${budgets.personDailyTokens ? fmt(budgets.personDailyTokens) : 'no limit'} a day per host, ${budgets.channelDailyTokens ? fmt(budgets.channelDailyTokens) : 'no limit'} a day per channel, ${budgets.matchTokens ? fmt(budgets.matchTokens) : 'no limit'} per match. Days are UTC; the daily budgets reset at 00:00 UTC.`
    : 'Budgets: not known in this process (no LLM runtime started).';
  const title = `LLM usage today (UTC ${day})`;
  if (!total) return { title, text: ['No LLM call today: 0 tokens spent.', budgetLine].join('\n') };
  const byChannel = [...sumBy(rows, (r) => r.channelId ?? '').entries()].sort(
    (a, b) => b[1].tokens - a[1].tokens || a[0].localeCompare(b[0]),
  );
  const byModel = [...sumBy(rows, (r) => r.model).entries()].sort(
    (a, b) => b[1].tokens - a[1].tokens || a[0].localeCompare(b[0]),
  );
  const byHost = [
    ...sumBy(
      rows.filter((r) => r.personId !== null),
      (r) => r.personId ?? '',
    ).entries(),
  ].sort((a, b) => b[1].tokens - a[1].tokens || a[0].localeCompare(b[0]));
  const hosts = byHost.length
    ? [
        {
          name: `By host (${byHost.length > TOP_HOSTS ? `the ${TOP_HOSTS} who spent most of ${fmt(byHost.length)}` : plural(byHost.length, 'host')})`,
          value: byHost
            .slice(0, TOP_HOSTS)
            .map(
              ([host, s]) =>
                `• ${playerText(host)}: ${against(s.tokens, budgets?.personDailyTokens ?? null)} · ${plural(s.calls, 'call')}${refusedText(s)} · ${plural(s.matches.size, 'match', 'matches')}${costText(s, prices)}`,
            )
            .join('\n'),
        },
      ]
    : [];
  const matches = byMatchField(rows, prices, true);
  return {
    title,
    text: [
      `Deployment: ${against(total.tokens, budgets?.dailyTokens ?? null)} · ${plural(total.calls, 'call')}${refusedText(total)}${costText(total, prices)}.`,
      'Tokens are prompt + completion, as the servers reported them (estimated for calls that failed).',
      budgetLine,
      priceLine(prices),
    ].join('\n'),
    fields: [
      {
        name: 'By channel',
        value: byChannel
          .map(
            ([channel, s]) =>
              `• ${channel === '' ? '(no channel)' : channel}: ${against(s.tokens, channel === '' ? null : (budgets?.channelDailyTokens ?? null))} · ${plural(s.calls, 'call')}${refusedText(s)} · ${plural(s.matches.size, 'match', 'matches')}${costText(s, prices)}`,
          )
          .join('\n'),
      },
      ...hosts,
      {
        name: 'By model',
        value: byModel
          .map(
            ([model, s]) =>
              `• ${playerText(model)}: ${fmt(s.tokens)} tokens (prompt ${fmt(s.prompt)}, completion ${fmt(s.completion)}) · ${plural(s.calls, 'call')}${refusedText(s)}${costText(s, prices)}`,
          )
          .join('\n'),
      },
      ...(matches ? [matches] : []),
    ],
  };
}

/** One channel's usage: what a platform admin of that channel's server may see (no other tenant's figures). */
function formatChannelUsage(
  rows: readonly LlmUsageRecord[],
  budgets: UsageBudgets | null,
  day: string,
  prices: TokenPrices | null,
): Post {
  const title = `LLM usage today in this channel (UTC ${day})`;
  const total = sumBy(rows, () => 'all').get('all');
  const budget = budgets
    ? `Budget: ${budgets.channelDailyTokens ? fmt(budgets.channelDailyTokens) : 'no limit'} a day per channel, ${budgets.matchTokens ? fmt(budgets.matchTokens) : 'no limit'} per match; it resets at 00:00 UTC.`
    : 'Budget: not known in this process.';
  if (!total) return { title, text: ['No LLM call in this channel today.', budget].join('\n') };
  const byModel = [...sumBy(rows, (r) => r.model).entries()].sort(
    (a, b) => b[1].tokens - a[1].tokens || a[0].localeCompare(b[0]),
  );
  const matches = byMatchField(rows, prices, false);
  return {
    title,
    text: [
      `This channel: ${against(total.tokens, budgets?.channelDailyTokens ?? null)} · ${plural(total.calls, 'call')}${refusedText(total)} · ${plural(total.matches.size, 'match', 'matches')}${costText(total, prices)}.`,
      budget,
      priceLine(prices),
    ].join('\n'),
    fields: [
      {
        name: 'By model',
        value: byModel
          .map(
            ([model, m]) =>
              `• ${playerText(model)}: ${fmt(m.tokens)} tokens · ${plural(m.calls, 'call')}${refusedText(m)}${costText(m, prices)}`,
          )
          .join('\n'),
      },
      ...(matches ? [matches] : []),
    ],
  };
}

/**
 * `stats view:usage`, privately: the whole deployment for the config's `adminUserIds` (the operators); for a
 * platform admin (e.g. Manage Server in one guild) only the channel it is asked in, since one deployment
 * serves many servers and workspaces; `not_admin` for anyone else.
 */
export async function usageView(ctx: CommandContext, now: Date = new Date()): Promise<Reply> {
  const denied = isPlatformAdmin(ctx);
  if (denied) return errorReply(ctx.caller.userId, denied);
  const day = now.toISOString().slice(0, 10);
  const [rows, guard] = await Promise.all([
    ctx.host.eventStore.listLlmUsage(day),
    ctx.host.eventStore.listLlmGuard(day),
  ]);
  const operator = ctx.host.isAdmin?.(ctx.caller, false) ?? false;
  // In a thread, a platform admin sees its parent channel, whose budget the thread's matches count against.
  return privateReply(
    ctx.caller.userId,
    formatUsage(
      rows,
      usageBudgets(),
      day,
      operator ? undefined : (ctx.caller.parentChannelId ?? ctx.channelId),
      guard,
      usagePrices(),
    ),
  );
}
