/**
 * Every error the Discord adapter throws or returns, with its codes in one place (docs/ARCHITECTURE.md#errors).
 * Light: no discord.js, so the entry point can check its options before loading the platform.
 */
import { CodedError } from '../../errors/coded-error.js';

/** A configuration error: `variable` names the environment variable at fault (never its value). */
export class DiscordConfigError extends CodedError<'missing_env' | 'invalid_env'> {
  override readonly name = 'DiscordConfigError';

  constructor(
    code: 'missing_env' | 'invalid_env',
    readonly variable: string,
    message: string,
  ) {
    super(code, message);
  }
}

/** A `--shards` value that cannot be read: `message` says what is wrong and what is accepted. */
export class ShardSpecError extends CodedError<'invalid_shards'> {
  override readonly name = 'ShardSpecError';

  constructor(message: string) {
    super('invalid_shards', message);
  }
}

/** Codes of {@link ShardingError}. */
export type ShardingErrorCode =
  'token_invalid' | 'gateway_unavailable' | 'shard_out_of_range' | 'spawn_failed' | 'shard_config';
/** A failure to start the shard manager. */
export class ShardingError extends CodedError<ShardingErrorCode> {
  override readonly name = 'ShardingError';
}

/** Codes of {@link CommandJsonError}. */
export type CommandJsonErrorCode = 'too_many_subcommands' | 'too_many_options' | 'too_many_choices' | 'invalid_name';
/** The catalogue cannot be expressed as one Discord command (a programming error caught at registration). */
export class CommandJsonError extends CodedError<CommandJsonErrorCode> {
  override readonly name = 'CommandJsonError';
}
