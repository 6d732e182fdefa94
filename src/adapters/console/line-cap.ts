/**
 * A cap on the length of input lines, applied to piped console input before readline sees it: readline
 * collects a whole line before it emits one, so a single 20 MB line would be held whole (and copied) in
 * memory. {@link LineCap} passes at most `max + 1` characters of each line and drops the rest as it streams
 * by, chunk by chunk: a line that comes out longer than `max` was cut, and the console refuses it with a
 * clear message ({@link tooLongLine}) instead of running what is left of it.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Longest console input line run as a command (characters); a pitch is at most 1,200, a message 500. */
export const MAX_INPUT_LINE = 4_000;

/**
 * Passes each line's first `max + 1` UTF-16 units (one more rather than half a character) and every
 * newline; drops the rest of a longer line without gathering it anywhere.
 */
export class LineCap extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  /** Characters of the current line passed so far. */
  private passed = 0;

  constructor(private readonly max: number = MAX_INPUT_LINE) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    const out = this.cap(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    if (out) this.push(out);
    done();
  }

  override _flush(done: TransformCallback): void {
    const out = this.cap(this.decoder.end());
    if (out) this.push(out);
    done();
  }

  private cap(text: string): string {
    let out = '';
    for (let start = 0; ;) {
      const nl = text.indexOf('\n', start);
      const room = this.max + 1 - this.passed;
      const piece = text.slice(start, nl === -1 ? text.length : nl);
      if (room > 0 && piece.length > 0) {
        // Never a lone half of a surrogate pair (the decoder keeps pairs whole within a chunk): one more unit.
        const high = piece.charCodeAt(room - 1);
        const kept = piece.slice(0, high >= 0xd800 && high <= 0xdbff ? room + 1 : room);
        out += kept;
        this.passed += kept.length;
      }
      if (nl === -1) return out;
      out += '\n';
      this.passed = 0;
      start = nl + 1;
    }
  }
}

/** True for a line that was cut by {@link LineCap} (or is longer than `max` however it arrived). */
export const tooLongLine = (line: string, max: number = MAX_INPUT_LINE): boolean => line.length > max;

/** What the console says instead of running a line longer than `max`. */
export function tooLongMessage(max: number = MAX_INPUT_LINE): string {
  return `That line is longer than ${max.toLocaleString('en-US')} characters, so it was not run (a command is one line; a pitch takes at most 1,200 characters, a message 500).`;
}
