// API-key authentication (spec 5): `Authorization: Api-Key <key>`. Only SHA-256 hashes of keys
// are known; the presented key's hash is compared with every stored hash in constant time, so
// neither the comparison nor an early exit tells an attacker how close a guess was.
import { hash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { MasterData } from '../master-data/master-data.js';

const SCHEME = /^Api-Key (\S+)$/;

export interface Caller {
  companyGroup: string;
}

/** Returns the presented key, or undefined when the header is missing or not of the Api-Key scheme. */
export function presentedApiKey(ctx: Context): string | undefined {
  return SCHEME.exec(ctx.get('authorization').trim())?.[1];
}

export function keyMatches(presented: string, keyHashHex: string): boolean {
  return timingSafeEqual(sha256(presented), hashBytes(keyHashHex));
}

export function findCaller(masterData: MasterData, presented: string): Caller | undefined {
  const digest = sha256(presented);
  let found: Caller | undefined;
  for (const key of masterData.keys.values()) {
    if (timingSafeEqual(digest, hashBytes(key.key_hash))) found = { companyGroup: key.company_group };
  }
  return found;
}

// The stored hashes as bytes, decoded once rather than on every request.
const decodedHashes = new Map<string, Buffer>();
function hashBytes(keyHashHex: string): Buffer {
  let bytes = decodedHashes.get(keyHashHex);
  if (!bytes) decodedHashes.set(keyHashHex, (bytes = Buffer.from(keyHashHex, 'hex')));
  return bytes;
}

export function requireApiKey(masterData: () => MasterData) {
  return async function authenticate(ctx: Context, next: Next) {
    const presented = presentedApiKey(ctx);
    if (presented === undefined) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Api-Key');
      ctx.body = { detail: ctx.get('authorization') ? 'Malformed Authorization header; send "Authorization: Api-Key <key>".' : 'Authentication credentials were not provided.' };
      return;
    }
    const caller = findCaller(masterData(), presented);
    if (!caller) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Api-Key');
      ctx.body = { detail: 'Invalid API key.' };
      return;
    }
    ctx.state.caller = caller;
    await next();
  };
}

// The one-shot hash: a Hash object per request cost several microseconds, a tenth of a retrieve.
function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}
