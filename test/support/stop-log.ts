/**
 * A bounded stop, checked by the order of its log lines rather than by the wall clock: the entry point logs
 * the signal with the configured `drainSeconds`, then — only if the in-flight work outlived that bound —
 * `stop: drain time is up`, then `<platform>: drained, closing the store` with `drained` true or false. That
 * the wait ends at `drainSeconds` is drainWithin's own test, on a fake clock (test/app/shutdown.test.ts).
 */
import assert from 'node:assert/strict';

/** Checks the stop sequence in `logs` (JSON log lines in order); returns the closing line. */
export function assertBoundedStop(
  logs: readonly Record<string, unknown>[],
  o: { begin: string; end: string; drainSeconds: number },
): Record<string, unknown> {
  const at = (msg: string) => logs.findIndex((l) => l.msg === msg);
  const begin = at(o.begin);
  const end = at(o.end);
  assert.ok(begin >= 0, `"${o.begin}" is logged`);
  assert.ok(end > begin, `"${o.end}" is logged after "${o.begin}"`);
  assert.equal(logs[begin]!.drainSeconds, o.drainSeconds, 'the configured drain time is the one used');
  const closing = logs[end]!;
  assert.equal(typeof closing.drained, 'boolean');
  const late = logs.findIndex((l) => typeof l.msg === 'string' && l.msg.startsWith('stop: drain time is up'));
  if (closing.drained) assert.equal(late, -1, 'drained in time: no late notice');
  else {
    assert.ok(late > begin && late < end, 'not drained: the late notice comes between the signal and the close');
    assert.equal(logs[late]!.drainSeconds, o.drainSeconds);
  }
  return closing;
}
