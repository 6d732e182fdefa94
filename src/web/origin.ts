/**
 * Same-origin check of the page's state-changing form (`POST /vote`), beside its SameSite=Strict session
 * cookie: a browser names the page a form was sent from in `Origin` (or, in older browsers, `Referer`), and a
 * vote is recorded only when that is this page — `web.publicUrl`'s origin when set, or the host the request
 * was sent to (`Host`), so it also holds behind a proxy that terminates TLS. A request that names no origin at
 * all, or `null` (a sandboxed frame, a privacy redirect), is refused too: every browser that can hold the
 * session cookie sends one on a POST. (OWASP CSRF cheat sheet, "Verifying origin with standard headers".)
 */

/** The headers the check reads (fastify's `req.headers`). */
export interface OriginHeaders {
  origin?: string | undefined;
  referer?: string | undefined;
  host?: string | undefined;
}

/** The outcome: same origin, or refused with the origin the request named (null: none, or unreadable). */
export type OriginCheck = { ok: true } | { ok: false; origin: string | null };

/** `url`'s origin and host, or null when it is not an http(s) URL. */
function parse(url: string): { origin: string; host: string } | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? { origin: u.origin, host: u.host } : null;
  } catch {
    return null;
  }
}

/** Whether a form post with `headers` comes from this page (see the file comment). Pure. */
export function checkSameOrigin(headers: OriginHeaders, publicUrl: string | null): OriginCheck {
  const named = headers.origin ?? headers.referer;
  const from = named === undefined || named === 'null' ? null : parse(named);
  if (from === null) return { ok: false, origin: named === undefined ? null : named.slice(0, 200) };
  const own = publicUrl === null ? null : parse(publicUrl);
  if (own !== null && from.origin === own.origin) return { ok: true };
  if (headers.host !== undefined && from.host === headers.host.toLowerCase()) return { ok: true };
  return { ok: false, origin: from.origin };
}
