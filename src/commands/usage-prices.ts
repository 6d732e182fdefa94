/**
 * Token prices for the estimated cost the admin usage view (`stats view:usage`) shows. Prices are
 * configuration (`llm.priceInputPerMillion`, `llm.priceOutputPerMillion`), which the catalogue does not
 * read: the LLM runtime (src/app/llm.ts) sets them here when it starts. Without prices no cost is shown.
 * No imports, so the runtime pulls in nothing else.
 */

/** Dollars per million tokens. */
export interface TokenPrices {
  /** Input (prompt) tokens. */
  inputPerMillion: number;
  /** Output (completion) tokens. */
  outputPerMillion: number;
}

let prices: TokenPrices | null = null;

/** Set (or clear, with null) the prices of this process; called by the LLM runtime. */
export function configureUsagePrices(next: TokenPrices | null): void {
  prices = next === null ? null : { ...next };
}

/** The prices set by {@link configureUsagePrices}, or null. */
export function usagePrices(): TokenPrices | null {
  return prices === null ? null : { ...prices };
}

/** Estimated dollars of `promptTokens` in and `completionTokens` out at `p`. */
export const costOf = (p: TokenPrices, promptTokens: number, completionTokens: number): number =>
  (promptTokens * p.inputPerMillion + completionTokens * p.outputPerMillion) / 1e6;

/** "$0.0123": four decimals under a dollar, two above. */
export const dollars = (x: number): string => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;
