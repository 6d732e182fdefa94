/**
 * `/arena` JSON generated from the catalogue, and its registration (guild and global) reaching the
 * emulator; the config errors that name a missing variable.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { COMMANDS } from '../../../src/commands/index.js';
import type { CommandSpec } from '../../../src/commands/types.js';
import { CommandJsonError, DiscordConfigError } from '../../../src/adapters/discord/errors.js';
import {
  allCommandsJson,
  arenaCommandJson,
  AUTOCOMPLETE_KINDS,
  FORM_OPTIONS,
} from '../../../src/adapters/discord/commands-json.js';
import { registerCommands } from '../../../src/adapters/discord/register.js';
import { FORMS, SLOW_COMMANDS } from '../../../src/adapters/discord/interactions.js';
import { readDiscordConfig } from '../../../src/adapters/discord/config.js';
import { DiscordEmulator } from '../../emulators/discord.js';

type Opt = {
  name: string;
  type: number;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: unknown }[];
  options?: Opt[];
};
const TYPE = { subcommand: 1, string: 3, integer: 4, boolean: 5, number: 10 } as const;

describe('commands-json', () => {
  const json = arenaCommandJson(COMMANDS) as unknown as {
    name: string;
    description: string;
    options: Opt[];
    contexts: number[];
  };

  test('one /arena command whose subcommands are the catalogue, in order', () => {
    assert.equal(json.name, 'arena');
    assert.deepEqual(
      json.options.map((o) => o.name),
      COMMANDS.map((c) => c.name),
    );
    assert.ok(json.options.every((o) => o.type === TYPE.subcommand));
    assert.deepEqual(json.contexts, [0]);
    assert.ok(json.description.length <= 100);
  });

  test('every option keeps its name, a type for its kind, its required flag (except form options), choices or autocomplete', () => {
    for (const spec of COMMANDS) {
      const sub = json.options.find((o) => o.name === spec.name)!;
      assert.equal(sub.options!.length, spec.options.length, spec.name);
      for (const o of spec.options) {
        const j = sub.options!.find((x) => x.name === o.name)!;
        const want =
          o.kind === 'integer'
            ? TYPE.integer
            : o.kind === 'number'
              ? TYPE.number
              : o.kind === 'boolean'
                ? TYPE.boolean
                : TYPE.string;
        assert.equal(j.type, want, `${spec.name}.${o.name}`);
        assert.equal(j.required, o.required && FORM_OPTIONS[spec.name] !== o.name, `${spec.name}.${o.name} required`);
        if (o.choices)
          assert.deepEqual(
            j.choices!.map((c) => c.value),
            [...o.choices],
          );
        else
          assert.equal(j.autocomplete ?? false, AUTOCOMPLETE_KINDS.has(o.kind), `${spec.name}.${o.name} autocomplete`);
      }
      // Discord: required options first.
      const req = sub.options!.map((x) => x.required);
      assert.deepEqual(
        req,
        [...req].sort((a, b) => Number(b) - Number(a)),
        `${spec.name} order`,
      );
    }
  });

  test('concrete examples: offer, new, pitch', () => {
    const offer = json.options.find((o) => o.name === 'offer')!.options!;
    // Not required on Discord since rules v3: `offer bid:<credits>` (a sealed auction bid) needs no lab.
    assert.deepEqual(
      offer.find((o) => o.name === 'to'),
      {
        name: 'to',
        description: 'Lab the offer goes to (e.g. lab_1); required unless you bid',
        required: false,
        type: 3,
        autocomplete: true,
      },
    );
    assert.equal(offer.find((o) => o.name === 'ask')!.type, TYPE.number);
    assert.equal(offer.find((o) => o.name === 'pay')!.type, TYPE.number);
    assert.equal(offer.find((o) => o.name === 'expires')!.type, TYPE.integer);
    const task = json.options.find((o) => o.name === 'new')!.options!.find((o) => o.name === 'task')!;
    assert.deepEqual(
      task.choices!.map((c) => c.value),
      ['single_trade', 'market_round', 'coalition_market'],
    );
    const text = json.options.find((o) => o.name === 'pitch')!.options!.find((o) => o.name === 'text')!;
    assert.equal(text.required, false, 'pitch text is optional on Discord: leaving it out opens the modal');
  });

  test('deferred commands and forms name real catalogue commands and options', () => {
    const names = COMMANDS.map((c) => c.name);
    for (const n of SLOW_COMMANDS) assert.ok(names.includes(n), n);
    for (const [cmd, form] of Object.entries(FORMS)) {
      const spec = COMMANDS.find((c) => c.name === cmd)!;
      assert.ok(spec, cmd);
      for (const f of form.fields)
        assert.ok(
          spec.options.some((o) => o.name === f.id),
          `${cmd}.${f.id}`,
        );
      assert.ok(spec.options.some((o) => o.name === FORM_OPTIONS[cmd]));
    }
  });

  test('rejects a catalogue Discord cannot express', () => {
    const many: CommandSpec[] = Array.from({ length: 26 }, (_, i) => ({
      name: `c${i}`,
      description: 'x',
      help: '',
      options: [],
      access: 'anyone',
    }));
    assert.throws(
      () => arenaCommandJson(many),
      (e: unknown) => e instanceof CommandJsonError && e.code === 'too_many_subcommands',
    );
    assert.throws(
      () => arenaCommandJson([{ name: 'Bad Name', description: 'x', help: '', options: [], access: 'anyone' }]),
      (e: unknown) => e instanceof CommandJsonError && e.code === 'invalid_name',
    );
  });
});

describe('registration against the emulator', () => {
  const emu = new DiscordEmulator();
  before(() => emu.start());
  after(() => emu.close());

  test('guild registration PUTs exactly the generated JSON with the bot token', async () => {
    const res = await registerCommands({
      token: 'tok-reg',
      applicationId: emu.applicationId,
      guildId: emu.guildId,
      commands: COMMANDS,
      restApi: emu.restApi,
    });
    const put = emu.requests.find(
      (r) =>
        r.method === 'PUT' && r.path === `/api/v10/applications/${emu.applicationId}/guilds/${emu.guildId}/commands`,
    );
    assert.ok(put);
    assert.equal(put.authorization, 'Bot tok-reg');
    assert.deepEqual(put.body, JSON.parse(JSON.stringify(allCommandsJson(COMMANDS))));
    assert.equal(res.scope, 'guild');
    assert.deepEqual(
      res.commands.map((c) => c.name),
      ['arena'],
    );
  });

  test('global registration uses the application route', async () => {
    const res = await registerCommands({
      token: 'tok-reg',
      applicationId: emu.applicationId,
      guildId: null,
      commands: COMMANDS,
      restApi: emu.restApi,
    });
    assert.equal(res.scope, 'global');
    assert.ok(emu.commands.get('global'));
  });

  test('the CLI registers for DISCORD_GUILD_ID, and names a missing variable (exit 2)', async () => {
    // Asynchronous: the emulator runs in this process and must keep serving while the CLI runs.
    const run = (env: NodeJS.ProcessEnv) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(process.execPath, ['--import', 'tsx', 'src/cli/discord-register.ts'], { env }, (err, stdout, stderr) =>
          resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    const env = {
      ...process.env,
      DISCORD_TOKEN: 'tok-cli',
      DISCORD_APPLICATION_ID: emu.applicationId,
      DISCORD_GUILD_ID: emu.guildId,
      DISCORD_API_URL: emu.restApi,
    };
    const ok = await run(env);
    assert.equal(ok.code, 0, ok.out);
    assert.ok(
      emu.requests.some(
        (r) =>
          r.method === 'PUT' && r.authorization === 'Bot tok-cli' && r.path.endsWith(`/guilds/${emu.guildId}/commands`),
      ),
    );
    assert.ok(!ok.out.includes('tok-cli'), 'token not printed');
    const { DISCORD_GUILD_ID: _g, ...noGuild } = env;
    const bad = await run(noGuild);
    assert.equal(bad.code, 2);
    assert.match(bad.out, /DISCORD_GUILD_ID is not set/);
  });
});

describe('config', () => {
  test('names the missing variable, in order of need', () => {
    const e = readDiscordConfig({}, ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID']);
    assert.ok(e instanceof DiscordConfigError);
    assert.equal(e.code, 'missing_env');
    assert.equal(e.variable, 'DISCORD_TOKEN');
    assert.match(e.message, /DISCORD_TOKEN is not set/);
    const e2 = readDiscordConfig({ DISCORD_TOKEN: 't' }, ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID']);
    assert.ok(e2 instanceof DiscordConfigError && e2.variable === 'DISCORD_APPLICATION_ID');
  });

  test('rejects a malformed id without echoing any value', () => {
    const e = readDiscordConfig({ DISCORD_TOKEN: 'secret-tok', DISCORD_GUILD_ID: 'not-an-id' }, ['DISCORD_TOKEN']);
    assert.ok(e instanceof DiscordConfigError);
    assert.equal(e.code, 'invalid_env');
    assert.equal(e.variable, 'DISCORD_GUILD_ID');
    assert.ok(!e.message.includes('secret-tok') && !e.message.includes('not-an-id'));
  });

  test('parses a full environment', () => {
    const c = readDiscordConfig(
      {
        DISCORD_TOKEN: 't',
        DISCORD_APPLICATION_ID: '123456789',
        DISCORD_GUILD_ID: '987654321',
        DISCORD_ADMIN_ROLE_ID: '55555',
      },
      ['DISCORD_TOKEN'],
    );
    assert.ok(!(c instanceof Error));
    assert.deepEqual(c, {
      token: 't',
      applicationId: '123456789',
      guildId: '987654321',
      adminRoleId: '55555',
      apiUrl: null,
    });
  });
});
