/**
 * The deployment's research-data policy (config `data.*`, src/app/config/schema.ts): whether matches seeded
 * by their host count in ratings and research data, and the data notice people agree to (or decline) before
 * their words and votes can enter a research export (docs/PREFERENCE-DATA.md#consent-and-erasure). Pure.
 */
import { createHash } from 'node:crypto';
import type { MatchSettings } from '../events/schema.js';

/** The notice a person is shown once, before their first pitch, message or vote could be exported. */
export interface DataNotice {
  /** What is collected, what for, who sees it and how to withdraw (plain text, markdown-ish). */
  text: string;
  /** The licence of releases that include the person's words and votes (an SPDX id, e.g. `CC-BY-4.0`). */
  licence: string;
  /** First 12 hex digits of SHA-256 over text and licence: a consent names the notice it answered. */
  version: string;
}

/** What the data commands, exports, stats, ratings and the web page apply. */
export interface DataPolicy {
  /** Count matches whose host chose the seed (`hostSeeded`) in ratings and research data (default false). */
  includeSeeded: boolean;
  notice: DataNotice;
  /** Key of export pseudonyms (config `votes.pseudonymSecret`); null/absent = the one stored in the database. The erasure log names people by it. */
  pseudonymSecret?: string | null;
}

/** The default notice (an operator replaces it with `data.noticeText`). */
export const DEFAULT_NOTICE_TEXT =
  'This bot collects research data on how people and AI models negotiate and argue. With your agreement, your pitches, messages and blind votes may be published in research datasets under the licence below. ' +
  'You appear there only under a pseudonym that changes with each release; e-mail addresses, phone numbers, links and mentions are removed from your text. ' +
  'If you decline, you play and vote as usual and none of your words or votes is ever exported. ' +
  'You can see what is stored about you, withdraw, or have your words and votes erased at any time with `privacy`.';

/** Default licence of releases: Creative Commons Attribution 4.0. */
export const DEFAULT_NOTICE_LICENCE = 'CC-BY-4.0';

/** The notice of `text` and `licence`, with its version. */
export function dataNotice(text: string = DEFAULT_NOTICE_TEXT, licence: string = DEFAULT_NOTICE_LICENCE): DataNotice {
  const version = createHash('sha256').update(`${licence}\n${text}`, 'utf8').digest('hex').slice(0, 12);
  return { text, licence, version };
}

/** The policy when nothing is configured: host-seeded matches left out, the default notice. */
export const DEFAULT_DATA_POLICY: DataPolicy = { includeSeeded: false, notice: dataNotice() };

/**
 * Whether a match with `settings` counts in ratings and research data under `includeSeeded`: a match its host
 * seeded counts only when included; a match stored before seeds were secret (no `hostSeeded` key) counts as before.
 */
export const countsForResearch = (settings: Pick<MatchSettings, 'hostSeeded'>, includeSeeded: boolean): boolean =>
  includeSeeded || settings.hostSeeded !== true;
