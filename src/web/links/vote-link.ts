/**
 * Personal web-vote links: the bot's `vote` reply can carry a link to the web page that lets
 * one platform user vote on one channel's ballots in a browser. The link holds a token:
 * `base64url(JSON claims) + "." + base64url(HMAC-SHA256(secret, first part))`, with the user (platform-
 * qualified id and display name), the channel, an expiry (unix seconds) and a random nonce (so each link
 * can be used once: the web page claims the nonce in the store on first use).
 *
 * Pure except for {@link voteLinkFor}, which reads the deployment secret from the store, and the process
 * setting of {@link configureVoteLinks} (set once by the app from config `web.*`; unset = no links).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { EventStore } from '../../store/types.js';

/** Name of the signing key in the store's `secrets` table (when config `web.linkSecret` is not set). */
export const VOTE_LINK_SECRET_NAME = 'web_vote_link';

/** What a link's token says: who, where, until when (unix seconds), and its nonce. */
export const VoteClaimsSchema = z
  .object({
    v: z.literal(1),
    /** Platform-qualified user id, e.g. `discord:123`. */
    u: z.string().min(1).max(200),
    /** Display name at the time the link was made. */
    n: z.string().max(200),
    /** Channel whose ballots the link votes on. */
    c: z.string().min(1).max(200),
    /** Expiry, unix seconds. */
    exp: z.number().int().positive(),
    /** Nonce (16 random bytes, base64url). */
    j: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  })
  .strict();
export type VoteClaims = z.infer<typeof VoteClaimsSchema>;

/** Why a token was refused: not a token, a signature that does not match, or past its expiry. */
export type VoteLinkError = 'malformed_link' | 'bad_signature' | 'expired_link';

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body, 'utf8').digest();

/**
 * Sign `claims` with `secret` into a URL-safe token.
 * @throws {TypeError} on an empty secret.
 */
export function signVoteToken(claims: VoteClaims, secret: string): string {
  if (secret.length === 0) throw new TypeError('signVoteToken: empty secret');
  const body = b64(JSON.stringify(VoteClaimsSchema.parse(claims)));
  return `${body}.${b64(mac(secret, body))}`;
}

/** Check a token's signature and expiry at `nowMs`; the claims, or why it is refused. */
export function verifyVoteToken(
  token: string,
  secret: string,
  nowMs: number,
): { ok: true; claims: VoteClaims } | { ok: false; code: VoteLinkError } {
  const m = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return { ok: false, code: 'malformed_link' };
  const [, body, sig] = m as unknown as [string, string, string];
  // Compared as the canonical text: base64url's last character carries 2 unused bits, so decoding first
  // would accept 4 spellings of one signature (a link that is not byte for byte the one we issued).
  const want = Buffer.from(mac(secret, body).toString('base64url'));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !timingSafeEqual(got, want)) return { ok: false, code: 'bad_signature' };
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, code: 'malformed_link' };
  }
  const parsed = VoteClaimsSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, code: 'malformed_link' };
  if (parsed.data.exp * 1000 <= nowMs) return { ok: false, code: 'expired_link' };
  return { ok: true, claims: parsed.data };
}

/** Claims of a new link for `user` in `channelId`, valid `ttlSeconds` from `nowMs`, with a fresh nonce. */
export function newVoteClaims(
  user: { userId: string; displayName: string },
  channelId: string,
  nowMs: number,
  ttlSeconds: number,
): VoteClaims {
  return {
    v: 1,
    u: user.userId,
    n: user.displayName.slice(0, 200),
    c: channelId,
    exp: Math.floor(nowMs / 1000) + ttlSeconds,
    j: randomBytes(16).toString('base64url'),
  };
}

/** The signing key: `configured` (config `web.linkSecret`) when set, else the deployment's stored one (made on first use). */
export async function voteLinkSecret(
  store: Pick<EventStore, 'secret'>,
  configured: string | null | undefined,
): Promise<string> {
  return configured?.trim()
    ? configured.trim()
    : store.secret(VOTE_LINK_SECRET_NAME, () => randomBytes(32).toString('hex'));
}

/** How this process makes links (config `web.publicUrl`, `web.linkSecret`, `web.linkTtlSeconds`). */
export interface VoteLinkSettings {
  /** The web page's public base URL, e.g. `https://arena.example.org`. */
  publicUrl: string;
  secret: string | null;
  ttlSeconds: number;
}

let settings: VoteLinkSettings | null = null;

/** Set (or with null, unset) how this process makes web-vote links; without settings {@link voteLinkFor} returns null. */
export function configureVoteLinks(s: VoteLinkSettings | null): void {
  settings = s;
}

/** The path of a link's token on the web page. */
export const voteLinkPath = (token: string) => `/vote/link/${token}`;

/**
 * A personal web-vote link for `user` in `channelId`, or null when links are not configured in this
 * process. Rejects only when the store does (reading the secret).
 */
export async function voteLinkFor(
  store: Pick<EventStore, 'secret'>,
  user: { userId: string; displayName: string },
  channelId: string,
  nowMs: number,
): Promise<{ url: string; expiresAt: number } | null> {
  const s = settings;
  if (!s) return null;
  const claims = newVoteClaims(user, channelId, nowMs, s.ttlSeconds);
  const token = signVoteToken(claims, await voteLinkSecret(store, s.secret));
  return { url: `${s.publicUrl.replace(/\/+$/, '')}${voteLinkPath(token)}`, expiresAt: claims.exp * 1000 };
}
