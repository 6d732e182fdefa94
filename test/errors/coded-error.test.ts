/**
 * One error type (src/errors/coded-error.ts, docs/ARCHITECTURE.md#errors): every error class of src/ extends
 * CodedError — read from the source, so a new class that extends Error directly fails here — and names itself
 * (a bundler may rename classes); each one carries its code, its message and the cause it was given.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodedError, isCodedError } from '../../src/errors/coded-error.js';
import { LlmAgentError } from '../../src/agents/seat-agent.js';
import { ReplayError } from '../../src/match/replay.js';
import { StoreError } from '../../src/store/types.js';
import { ApiError } from '../../src/adapters/http/errors.js';
import { SlackConfigError } from '../../src/adapters/slack/config.js';
import {
  CommandJsonError,
  DiscordConfigError,
  ShardingError,
  ShardSpecError,
} from '../../src/adapters/discord/errors.js';

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every class declared in src/: its name, the class it extends, the file, and the `name` it gives itself. */
function classesOfSrc(): { cls: string; base: string; file: string; ownName: string | null }[] {
  return sources('src').flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/class (\w+)(?:<[^>{]*>)? extends (\w+)(?:<[^{]*>)? \{/g)].map((m) => {
      const body = text.slice(m.index + m[0].length, m.index + m[0].length + 400);
      return { cls: m[1]!, base: m[2]!, file, ownName: /override readonly name = '(\w+)'/.exec(body)?.[1] ?? null };
    });
  });
}

describe('every error class of src/ is a CodedError', () => {
  const all = classesOfSrc();
  const byName = new Map(all.map((c) => [c.cls, c]));
  /** The chain of bases up to a class not declared in src/ (Error, or a library's class). */
  const chain = (cls: string): string[] => {
    const out: string[] = [];
    for (let c = byName.get(cls); c; c = byName.get(c.base)) out.push(c.base);
    return out;
  };
  const errors = all.filter((c) => c.cls.endsWith('Error') || chain(c.cls).includes('Error'));

  test('read from the source: every error class extends CodedError, and only CodedError extends Error', () => {
    assert.ok(errors.length >= 10, `found ${errors.length} error classes`);
    for (const c of errors) {
      if (c.cls === 'CodedError') {
        assert.equal(c.base, 'Error');
        continue;
      }
      assert.ok(chain(c.cls).includes('CodedError'), `${c.file}: class ${c.cls} extends ${c.base}, not CodedError`);
    }
  });

  test('each names itself, as it is called (not derived: a bundler may rename a class)', () => {
    for (const c of errors.filter((x) => x.cls !== 'CodedError'))
      assert.equal(c.ownName, c.cls, `${c.file}: ${c.cls} must declare override readonly name = '${c.cls}'`);
  });
});

describe('what each carries', () => {
  test('code, message, name, cause; still an Error', () => {
    const cause = new Error('disk full');
    const e = new StoreError('migration_failed', 'could not migrate', { cause });
    assert.ok(e instanceof CodedError && e instanceof Error && isCodedError(e));
    assert.deepEqual(
      [e.code, e.message, e.name, e.cause],
      ['migration_failed', 'migration_failed: could not migrate', 'StoreError', cause],
    );
    assert.equal('cause' in new StoreError('corrupt_row', 'x'), false, 'no cause given, none set');
    assert.equal(isCodedError(new Error('plain')), false);
    assert.equal(isCodedError({ code: 'x', message: 'duck' }), false);
  });

  test('every layer: its own codes and its own fields', () => {
    const cases: [CodedError, string, string][] = [
      [new LlmAgentError('timeout', 'no answer'), 'timeout', 'LlmAgentError'],
      [new ReplayError('m_1', 4, 'unknown lab', 'old_rules'), 'old_rules', 'ReplayError'],
      [new ApiError(404, 'unknown_session', 'no session s_1'), 'unknown_session', 'ApiError'],
      [
        new SlackConfigError('missing_env', 'SLACK_BOT_TOKEN', 'set SLACK_BOT_TOKEN'),
        'missing_env',
        'SlackConfigError',
      ],
      [
        new DiscordConfigError('invalid_env', 'DISCORD_GUILD_ID', 'DISCORD_GUILD_ID is invalid'),
        'invalid_env',
        'DiscordConfigError',
      ],
      [new ShardSpecError('--shards x: expected auto'), 'invalid_shards', 'ShardSpecError'],
      [new ShardingError('token_invalid', 'Discord refused the token'), 'token_invalid', 'ShardingError'],
      [new CommandJsonError('invalid_name', 'bad name'), 'invalid_name', 'CommandJsonError'],
    ];
    for (const [e, code, name] of cases)
      assert.deepEqual([e.code, e.name, e instanceof CodedError], [code, name, true], name);
    assert.equal(new LlmAgentError('timeout', 'no answer').message, 'LLM timeout: no answer');
    const r = new ReplayError('m_1', 4, 'unknown lab');
    assert.deepEqual(
      [r.code, r.matchId, r.seq, r.message],
      ['corrupt_log', 'm_1', 4, 'match m_1 event 4: unknown lab'],
    );
    assert.deepEqual(new ApiError(404, 'unknown_session', 'no session s_1').body(), {
      error: { code: 'unknown_session', message: 'no session s_1' },
    });
    assert.equal(new SlackConfigError('missing_env', 'SLACK_BOT_TOKEN', 'x').variable, 'SLACK_BOT_TOKEN');
  });
});
