// Share links open one order's load plan without an API key. The token is the expiry (unix
// seconds) and an HMAC-SHA256 over the service_ref and that expiry, so it cannot be moved to
// another order or made to live longer, and the service needs to store nothing per link.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOKEN = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

function signature(secret: Buffer, serviceRef: string, expiresAt: number): Buffer {
  return createHmac('sha256', secret).update(`${serviceRef}\n${expiresAt}`).digest();
}

/** `expiresAt` in whole unix seconds. */
export function signShareToken(secret: Buffer, serviceRef: string, expiresAt: number): string {
  return `${expiresAt}.${signature(secret, serviceRef, expiresAt).toString('base64url')}`;
}

export function verifyShareToken(secret: Buffer, serviceRef: string, token: unknown, nowMs: number): boolean {
  if (typeof token !== 'string') return false;
  const match = TOKEN.exec(token);
  if (!match) return false;
  const expiresAt = Number(match[1]);
  const presented = Buffer.from(match[2]!, 'base64url');
  const expected = signature(secret, serviceRef, expiresAt);
  return presented.length === expected.length && timingSafeEqual(presented, expected) && expiresAt * 1000 > nowMs;
}
