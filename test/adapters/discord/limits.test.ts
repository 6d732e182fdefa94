/**
 * Discord's documented registration limits for application commands
 * (https://discord.com/developers/docs/interactions/application-commands, "Application Command Naming"
 * and "Limits"), checked on the JSON the bot registers for the whole catalogue: names 1–32 characters,
 * lowercase; descriptions 1–100; at most 25 subcommands (or groups) of /arena and 25 options of each;
 * at most 25 choices, each name 1–100 and value ≤ 100; required options before optional ones; and the
 * combined size of names, descriptions and choice values at most 8000 characters.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allCommandsJson } from '../../../src/adapters/discord/commands-json.js';
import { COMMAND_SPECS } from '../../../src/commands/specs.js';

const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

interface Node {
  name: string;
  description?: string;
  type?: number;
  required?: boolean;
  options?: Node[];
  choices?: { name: string; value: string | number }[];
}

/** Every check on one command, option or subcommand; returns its characters towards the 8000 limit. */
function check(n: Node, where: string): number {
  assert.match(n.name, NAME, `${where}: name "${n.name}"`);
  assert.equal(n.name, n.name.toLowerCase(), `${where}: name must be lowercase`);
  const d = n.description ?? '';
  assert.ok(d.length >= 1 && d.length <= 100, `${where}: description of ${d.length} characters`);
  let size = n.name.length + d.length;
  const opts = n.options ?? [];
  assert.ok(opts.length <= 25, `${where}: ${opts.length} options/subcommands (Discord allows 25)`);
  let optionalSeen = false;
  for (const o of opts) {
    const isSub = o.type === 1 || o.type === 2;
    if (!isSub) {
      if (o.required) assert.ok(!optionalSeen, `${where} ${o.name}: a required option after an optional one`);
      else optionalSeen = true;
    }
    size += check(o, `${where} ${o.name}`);
  }
  const choices = n.choices ?? [];
  assert.ok(choices.length <= 25, `${where}: ${choices.length} choices`);
  for (const c of choices) {
    assert.ok(c.name.length >= 1 && c.name.length <= 100, `${where}: choice name "${c.name}"`);
    assert.ok(String(c.value).length <= 100, `${where}: choice value "${c.value}"`);
    size += c.name.length + String(c.value).length;
  }
  return size;
}

describe("the registered /arena command fits Discord's documented limits", () => {
  test('names, descriptions, option and choice counts, option order and total size', () => {
    const commands = allCommandsJson(COMMAND_SPECS) as unknown as Node[];
    assert.ok(commands.length >= 1);
    for (const c of commands) {
      const size = check(c, `/${c.name}`);
      assert.ok(size <= 8000, `/${c.name}: ${size} characters (Discord allows 8000)`);
      assert.ok((c.options ?? []).length <= 25, `/${c.name}: ${(c.options ?? []).length} subcommands`);
    }
  });
  test('selling for credits and sealed bids are reachable on Discord: offer has ask and bid, counter has ask', () => {
    const arena = (allCommandsJson(COMMAND_SPECS) as unknown as Node[]).find((c) => c.name === 'arena')!;
    const sub = (name: string) => arena.options!.find((o) => o.name === name)!;
    assert.ok(
      sub('offer').options!.some((o) => o.name === 'ask') && sub('offer').options!.some((o) => o.name === 'bid'),
    );
    assert.ok(sub('counter').options!.some((o) => o.name === 'ask'));
    assert.ok(arena.options!.length <= 25);
  });
});
