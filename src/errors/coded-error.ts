/**
 * The one base of every error class this project throws (docs/ARCHITECTURE.md#errors). What a caller is
 * expected to handle is a result value — `{ ok: false, code, message }` — never an exception; what is thrown
 * is a bad configuration, a corrupt store, a refused HTTP request, a failed model call. Each of those is a
 * `CodedError`: a machine-readable `code` a program branches on, a `message` a person can read, and the
 * `cause` it came from (the standard `Error.cause`). A broken invariant of our own code — a bug — throws a
 * plain `Error`.
 *
 * Each layer declares the codes it throws in one place, beside its error classes (the table in
 * docs/ARCHITECTURE.md#errors); `test/errors/coded-error.test.ts` fails on an error class of src/ that does not
 * extend this one. Shaped after Slack Bolt's `CodedError` (one interface, every error carries a code).
 */
export abstract class CodedError<C extends string = string> extends Error {
  /** Machine-readable: what went wrong, from the throwing layer's declared codes. */
  readonly code: C;

  /** The class's own name, written out in each subclass (a bundler may rename classes, so never derived). */
  abstract override readonly name: string;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** Whether `e` is one of our coded errors (then `e.code` is machine-readable). */
export const isCodedError = (e: unknown): e is CodedError => e instanceof CodedError;
