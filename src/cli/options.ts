/**
 * Command-line options of the data CLIs, parsed with zod after commander: the first issue is reported as
 * `error: --<option>: <message>` and the process exits with code 2 (commander's `program.error`).
 */
import type { Command } from 'commander';
import type { z } from 'zod';

/** `schema.parse(values)`, or exit 2 naming the first bad option. */
export function parseOptions<S extends z.ZodType>(
  program: Command,
  schema: S,
  values: unknown = program.opts(),
): z.output<S> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return program.error(`error: --${issue?.path.join('.')}: ${issue?.message}`, { exitCode: 2 });
}
