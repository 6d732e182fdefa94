/**
 * URLs as they may be printed: without the credentials of their userinfo. An LLM base URL or a database URL
 * may carry a key (`http://user:KEY@host/v1`, `postgres://arena:PASSWORD@db/arena`); every URL the console
 * banner, the bots' logs and error lines print goes through {@link redactUrls} first. Pure, no imports.
 */

/** `scheme://userinfo@`: the userinfo runs up to the first `@` and holds no `/`, `?`, `#` or whitespace. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]+)@/gi;

/**
 * `text` with the secret of every URL's userinfo masked: `http://user:KEY@host` → `http://user:***@host`;
 * a userinfo without a password is taken for a token and masked whole (`http://KEY@host` → `http://***@host`).
 * Everything else is unchanged.
 */
export function redactUrls(text: string): string {
  return text.replace(USERINFO, (_all, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon > 0 ? `${scheme}${userinfo.slice(0, colon)}:***@` : `${scheme}***@`;
  });
}
