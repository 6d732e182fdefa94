/**
 * Lines from a readline interface as an async pull queue that can also be woken from outside (e.g. when a
 * timer closed the last round while the user was idle). One command at a time, in order.
 */
import type { Interface } from 'node:readline';

/** Pull queue over a readline interface's lines (see the file comment). */
export class LineQueue {
  private readonly lines: string[] = [];
  private closed = false;
  private wake: (() => void) | null = null;

  constructor(rl: Interface) {
    rl.on('line', (line) => {
      this.lines.push(line);
      this.poke();
    });
    rl.on('close', () => {
      this.closed = true;
      this.poke();
    });
  }

  /** Wake a pending {@link next} (it then returns undefined if no line is queued, so the caller can re-check its state). */
  poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** The next line; `null` once input ended and every line was taken; `undefined` when woken by {@link poke}. */
  async next(): Promise<string | null | undefined> {
    const line = this.lines.shift();
    if (line !== undefined) return line;
    if (this.closed) return null;
    await new Promise<void>((resolve) => (this.wake = resolve));
    return this.lines.shift() ?? (this.closed ? null : undefined);
  }
}
