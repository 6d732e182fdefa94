/** The text grammar of Slack, the console and buttons (src/commands/grammar.ts). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCommand, isCommandError, parseCommandText, quoteValue } from '../../src/commands/grammar.js';
import { clip, editDistance, suggest } from '../../src/commands/suggest.js';
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
    for (const t of ['status', 'arena status', '/arena status', '  /arena   STATUS  '])
      assert.deepEqual(ok(t), { name: 'status', options: {} });
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

  test('a bare first word is the value of a required first id option (counter o_2 …, allocate j_0_0 …), never of text', () => {
    assert.deepEqual(ok('counter o_2 give:b_0_2 ask:12'), {
      name: 'counter',
      options: { offer: 'o_2', give: 'b_0_2', ask: '12' },
    });
    assert.deepEqual(ok('allocate j_0_0 blocks:b_0_1'), {
      name: 'allocate',
      options: { job: 'j_0_0', blocks: 'b_0_1' },
    });
    assert.equal(bad('counter give:b_0_2 o_2').code, 'bad_token', 'only the first word');
    assert.equal(bad('message hello to:lab_1').code, 'bad_token', 'text needs its name and quotes');
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
    assert.deepEqual(e.validValues, ['to', 'give', 'want', 'pay', 'ask', 'msg', 'expires', 'bid']);
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

describe('single quotes and apostrophes (issue "Every point explained" 4)', () => {
  test("'single quotes' work like double quotes, also typographic ‘…’ and with other options after", () => {
    assert.equal(ok("message text:'hello there'").options.text, 'hello there');
    assert.equal(ok('message text:‘smart single quotes’').options.text, 'smart single quotes');
    assert.deepEqual(ok("message text:'deal?' to:lab_2").options, { text: 'deal?', to: 'lab_2' });
    assert.equal(ok("message text:'a \\'quoted\\' word'").options.text, "a 'quoted' word");
    assert.equal(ok("message text:''").options.text, '');
  });

  test("apostrophes inside words stay text: bare `don't`, and inside single or double quotes", () => {
    assert.equal(ok("message text:don't").options.text, "don't");
    assert.equal(ok("message text:it's").options.text, "it's");
    assert.equal(ok("message text:'don't panic, it's fine'").options.text, "don't panic, it's fine");
    assert.deepEqual(ok("message text:'we can't wait' to:lab_1").options, { text: "we can't wait", to: 'lab_1' });
    assert.equal(ok('message text:"don\'t panic"').options.text, "don't panic");
    assert.equal(ok('message text:don’t').options.text, 'don’t');
  });

  test('a value that needs them is quoted by formatCommand and parses back (leading apostrophe, quotes of both kinds)', () => {
    for (const v of ["'tis the season", "don't", 'say "hi"', "it's 'ok'", '‘x’', "trailing '"]) {
      assert.equal(ok(formatCommand('message', { text: v })).options.text, v, v);
    }
    assert.equal(quoteValue("don't"), "don't");
  });

  test('every remaining bad_token / unclosed_quote says what is wrong and how to fix it', () => {
    const words = bad('message text:hello world');
    assert.match(words.message, /a value with spaces needs quotes\. Write text:"hello world"/);
    const after = bad('message text:"a"b');
    assert.match(after.message, /`b` follows right after it: put a space after the closing quote/);
    const apostrophe = bad("message text:'the users' turn'");
    assert.match(apostrophe.message, /apostrophe followed by a space\. Use double quotes/);
    const noName = bad('pitch "we need capacity"');
    assert.match(noName.message, /A quoted value needs its option name in front, e.g\. text:"…"/);
    const bare = bad('offer lab_1');
    assert.match(
      bare.message,
      /`lab_1` is not name:value\. Options are written name:value, e\.g\. `to:…`\. Options of `offer`: to, give/,
    );
    assert.match(bad('status verbose').message, /`status` takes no options/);
    const open = bad("message text:'never closed");
    assert.equal(open.code, 'unclosed_quote');
    assert.match(open.message, /expected a closing ' \(a ' followed by a letter is read as an apostrophe/);
  });
});

describe('suggestions for typos (issue "Every point explained" 5)', () => {
  test('a mistyped command gets "Did you mean"; an unrelated word still lists the commands', () => {
    const e = bad('stauts');
    assert.equal(e.code, 'unknown_command');
    assert.equal(e.message, 'Unknown command `stauts`. Did you mean `status`?');
    assert.match(bad('ofer to:lab_1').message, /Did you mean `offer`\?/);
    assert.match(bad('coal').message, /Did you mean `coalition`\?/);
    assert.match(bad('leaderbord').message, /Did you mean `leaderboard`\?/);
    assert.doesNotMatch(bad('fly away').message, /Did you mean/);
  });

  test('a mistyped or synonymous option name gets "Did you mean"', () => {
    assert.match(bad('offer to:lab_1 message:"hi"').message, /has no option `message`\. Did you mean `msg`\?/);
    assert.match(bad('message msg:hi').message, /Did you mean `text`\?/);
    assert.match(bad('offer to:lab_1 pya:5').message, /Did you mean `pay`\?/);
    assert.match(bad('offer too:lab_1').message, /Did you mean `to`\?/);
    assert.doesNotMatch(bad('offer to:lab_1 zzz:1').message, /Did you mean/);
  });

  test('editDistance counts a swap of neighbours once; clip keeps long input short', () => {
    assert.equal(editDistance('stauts', 'status'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(suggest('stat', ['status', 'stats']), 'stats');
    assert.equal(clip('x'.repeat(5000), 1200), `${'x'.repeat(40)}…(5,000 characters; at most 1,200)`);
    assert.equal(clip('short'), 'short');
    const long = bad(`${'y'.repeat(5000)} a:b`).message;
    assert.ok(
      !long.includes('y'.repeat(41)) && long.includes('…(5,000 characters)'),
      'an unknown 5,000-character word is not echoed whole',
    );
  });
});
