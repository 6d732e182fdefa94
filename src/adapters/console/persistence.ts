/**
 * What the console says about keeping the match: where it is saved and the command that resumes it, or,
 * with an in-memory database (`--db :memory:`), that nothing is kept. Said in the banner, by `quit`,
 * on Ctrl-C and when input ends, so a player never reads "saved" when it is not.
 */
import type { HostedMatch } from '../../match/types.js';
import type { MatchRecord } from '../../store/types.js';
import { roundLabel } from '../../present/common.js';

/** Where the console's store keeps matches: a description (never a URL with credentials) and the resume command. */
export interface Persistence {
  /** e.g. `./data/arena.db`, or `the PostgreSQL database of DATABASE_URL`. */
  where: string;
  /** The command that opens the store, e.g. `npm start` or `npm start -- --db /tmp/c.db`; {@link resumeCommand} adds `--resume <id>`. */
  resume: string;
}

/**
 * How the console's store keeps matches: a {@link Persistence}, `null` for an in-memory database (nothing
 * kept) or `undefined` when the caller did not say (then the lines stay general).
 */
export type Keeping = Persistence | null | undefined;

/** The command that resumes match `id`: the store's start command (`npm start`, `npm start -- --db f`) with `--resume <id>`. */
export function resumeCommand(keeping: Keeping, id: string): string {
  const base = keeping ? keeping.resume : 'npm start';
  return base === 'npm start' ? `npm start -- --resume ${id}` : `${base} --resume ${id}`;
}

/** The banner's line on commands and leaving. */
export function bannerLine(keeping: Keeping): string {
  const commands =
    'Commands: `help`, `me` (your private view), `status`, `offer …`, `pitch text:"…"`, `allocate …`, `done` (closes the round).';
  if (keeping === null) return `${commands} \`quit\` or Ctrl-C leaves; with --db :memory: nothing is kept.`;
  if (keeping)
    return `${commands} \`quit\` or Ctrl-C leaves; the match stays saved in ${keeping.where}, and the command that resumes it is printed then.`;
  return `${commands} \`quit\` leaves; the match is saved, and the command that resumes it is printed then.`;
}

/** The line printed when the player leaves a running match (`quit`, Ctrl-C, end of input). */
export function goodbyeLine(keeping: Keeping, m: HostedMatch | null): string {
  const at = m?.state ? ` at round ${roundLabel(m.state.round, m.state.params.maxRounds)}` : '';
  const id = m ? ` ${m.id}` : '';
  if (keeping === null) {
    return `Bye. Nothing is kept: the database is :memory:, so match${id} ends with this process (without --db :memory: matches are saved in ./data/arena.db).\n`;
  }
  const resume = m ? `\`${resumeCommand(keeping, m.id)}\` resumes match${id}${at}` : 'the match is saved';
  if (keeping) return `Bye. Saved in ${keeping.where} — ${resume}.\n`;
  return `Bye: ${resume}.\n`;
}

/** The line about an unfinished console match left saved while a new one starts. */
export function savedLine(keeping: Keeping, rec: MatchRecord): string {
  return `An unfinished match ${rec.id} (started ${rec.createdAt.slice(0, 16).replace('T', ' ')} UTC) stays saved: \`${resumeCommand(keeping, rec.id)}\` resumes it. Starting a new match.\n`;
}

/** `help quit` in the console. */
export function quitHelp(keeping: Keeping): string {
  const what =
    keeping === null
      ? 'says that nothing is kept (the database is :memory:)'
      : keeping
        ? `says where the match is saved (${keeping.where}) and the command that resumes it (\`${resumeCommand(keeping, '<match id>')}\`)`
        : 'says how to resume the match';
  return `\`quit\` (or \`exit\`, or Ctrl-C) leaves the console and ${what}. \`end\` stops the match for good instead.\n`;
}

/** The line printed instead of a chart's path when charts are not written (an in-memory database keeps no files). */
export function chartNotWritten(title: string, defaultDir: string): string {
  return `[#arena] chart: ${title} — not written: with --db :memory: the console writes no files (with a database file, charts go to ${defaultDir}).\n`;
}
