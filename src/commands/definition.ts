/**
 * A command definition: its {@link CommandSpec} (from specs.ts) plus the zod schema of its options, the
 * preconditions run before it and the handler. {@link defineCommand} keeps the handler typed by its
 * schema while the catalogue holds a plain list.
 */
import type { z } from 'zod';
import type { CommandContext } from './context.js';
import type { Precondition } from './preconditions.js';
import { findSpec } from './specs.js';
import type { CommandSpec, Reply } from './types.js';

/** One command of the catalogue. */
export interface CommandDefinition extends CommandSpec {
  /** Parses the raw option values (strings from the text grammar, or typed values from Discord). */
  schema: z.ZodType<Record<string, unknown>>;
  /** Checked in order before the options are parsed; the first failure is the reply. */
  preconditions: readonly Precondition[];
  /** Runs the command with options that `schema` produced. */
  execute(ctx: CommandContext, options: Record<string, unknown>): Promise<Reply>;
}

/**
 * Pair the spec named `name` with its schema, preconditions and handler. Throws (a programming error) when
 * no spec has that name or the schema's keys differ from the spec's option names.
 */
export function defineCommand<S extends z.ZodObject>(
  name: string,
  schema: S,
  preconditions: readonly Precondition[],
  handler: (ctx: CommandContext, options: z.output<S>) => Promise<Reply>,
): CommandDefinition {
  const spec = findSpec(name);
  if (!spec) throw new Error(`defineCommand: no spec named ${name}`);
  const keys = Object.keys(schema.shape).sort().join(',');
  const names = spec.options
    .map((o) => o.name)
    .sort()
    .join(',');
  if (keys !== names)
    throw new Error(`defineCommand(${name}): schema keys [${keys}] differ from spec options [${names}]`);
  return {
    ...spec,
    schema: schema as unknown as z.ZodType<Record<string, unknown>>,
    preconditions,
    // The value came out of `schema.safeParse`, so it has the schema's output type.
    execute: (ctx, options) => handler(ctx, options as z.output<S>),
  };
}
