/** The text grammar of Slack, the console and buttons (src/commands/grammar.ts). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCommand, isCommandError, parseCommandText, quoteValue } from '../../src/commands/grammar.js';
import type { CommandError } from '../../src/commands/types.js';

function ok(text: string) {
  const r = parseCommandText(text);
  assert.ok(!isCommandError(r), `expected a parse of ${text}, got ${JSON.stringify(r)}`);
  return r;
}
function bad(text: string): CommandError {
  const r = parseCommandText(text);
  assert.ok(isCommandError(r), `expected an error for ${text}`);
  return r;
}

describe('parseCommandText', () => {
  test('the brief example, with /arena prefix and a quoted message', () => {
    assert.deepEqual(ok('/arena offer to:lab_1 give:b_0_1 want:b_1_0 pay:5 msg:"swap for your 4-GPU block"'), {
      name: 'offer',
      options: { to: 'lab_1', give: 'b_0_1', want: 'b_1_0', pay: '5', msg: 'swap for your 4-GPU block' },
    });
  });

  test('prefix forms: none, "arena", "/arena"; name is case-insensitive; extra spaces ignored', () => {
    for (const t of ['status', 'arena status', '/arena status', '  /arena   STATUS  ']) assert.deepEqual(ok(t), { name: 'status', options: {} });
  });

  test('escapes inside quotes and typographic quotes', () => {
    assert.equal(ok('message text:"he said \\"hi\\" \\\\ bye"').options.text, 'he said "hi" \\ bye');
    assert.equal(ok('message text:“smart quotes work”').options.text, 'smart quotes work');
    assert.equal(ok('message text:"a:b c:d"').options.text, 'a:b c:d');
  });

  test('list values stay one comma-separated string; a colon in a bare value is kept', () => {
    assert.equal(ok('offer to:lab_1 give:b_0_1,b_0_2').options.give, 'b_0_1,b_0_2');
    assert.equal(ok('message text:ratio:2').options.text, 'ratio:2');
  });

  test('a bare word is the value of a single-option command (help offer, join lab_1)', () => {
    assert.deepEqual(ok('help offer'), { name: 'help', options: { command: 'offer' } });
    assert.deepEqual(ok('join lab_1'), { name: 'join', options: { lab: 'lab_1' } });
  });

  test('empty input and unknown commands list the commands', () => {
    assert.equal(bad('').code, 'empty_command');
    assert.equal(bad('/arena').code, 'empty_command');
    const e = bad('trade to:lab_1');
    assert.equal(e.code, 'unknown_command');
    assert.ok(e.validValues?.includes('offer'));
    assert.match(e.message, /trade/);
  });

  test('unknown option names the option and lists the valid ones', () => {
    const e = bad('offer to:lab_1 price:5');
    assert.equal(e.code, 'unknown_option');
    assert.equal(e.option, 'price');
    assert.deepEqual(e.validValues, ['to', 'give', 'want', 'pay', 'msg', 'expires']);
  });

  test('an unquoted multi-word value says to quote it', () => {
    const e = bad('message text:hello world');
    assert.equal(e.code, 'bad_token');
    assert.match(e.message, /quote/);
    assert.match(e.message, /text:"/);
  });

  test('duplicate options, unclosed quotes and text right after a quote are errors', () => {
    assert.equal(bad('offer to:lab_1 to:lab_2').code, 'duplicate_option');
    const u = bad('message text:"never closed');
    assert.equal(u.code, 'unclosed_quote');
    assert.equal(u.option, 'text');
    assert.equal(bad('message text:"a"b').code, 'bad_token');
  });

  test('formatCommand output parses back to the same options', () => {
    const opts = { to: 'lab_2', msg: 'say "hi" \\ ok', pay: 3 };
    const text = formatCommand('offer', opts);
    assert.deepEqual(ok(text), { name: 'offer', options: { to: 'lab_2', msg: 'say "hi" \\ ok', pay: '3' } });
    assert.equal(quoteValue('plain'), 'plain');
    assert.equal(quoteValue(''), '""');
  });
});
