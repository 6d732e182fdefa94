/**
 * Stable pseudonyms for people in exports: `u_` + the first 16 hex digits of
 * HMAC-SHA256(deployment secret, platform-qualified user id). The same person gets the same pseudonym in
 * every export of one deployment, and nobody without the secret can map it back to a platform id.
 *
 * The secret comes from configuration when set; otherwise it is generated (32 random bytes, hex) on first
 * use and kept in the store's `secrets` table, so every process of a deployment shares it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { EventStore } from '../../store/types.js';

/** Name of the pseudonym key in the store's `secrets` table. */
export const PSEUDONYM_SECRET_NAME = 'pseudonym';

/** Maps a platform-qualified user id (e.g. `discord:123`) to its pseudonym. */
export type Pseudonymizer = (userId: string) => string;

/**
 * The pseudonym of `userId` under `secret`: `u_` + 16 lowercase hex digits (64 bits of the HMAC).
 * @throws {TypeError} on an empty secret (a pseudonym without a secret would be a reversible hash).
 */
export function pseudonym(userId: string, secret: string): string {
  if (secret.length === 0) throw new TypeError('pseudonym: empty secret');
  return `u_${createHmac('sha256', secret).update(userId, 'utf8').digest('hex').slice(0, 16)}`;
}

/**
 * The deployment's pseudonymizer: `configured` (config `votes.pseudonymSecret` / env) when non-empty,
 * else the secret stored in `store` (generated there on first use).
 */
export async function pseudonymizer(
  store: Pick<EventStore, 'secret'>,
  configured?: string | null,
): Promise<Pseudonymizer> {
  const secret = configured?.trim()
    ? configured.trim()
    : await store.secret(PSEUDONYM_SECRET_NAME, () => randomBytes(32).toString('hex'));
  const cache = new Map<string, string>();
  return (userId) => {
    let p = cache.get(userId);
    if (p === undefined) cache.set(userId, (p = pseudonym(userId, secret)));
    return p;
  };
}
