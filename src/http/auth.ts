// API-key authentication (spec 5): `Authorization: Api-Key <key>`. Only SHA-256 hashes of keys
// are known; the presented key's hash is compared with every stored hash in constant time, so
// neither the comparison nor an early exit tells an attacker how close a guess was.
import { hash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { hashApiKey } from '../master-data/apply-master-data.js';
import type { ApiKey, Caller, MasterData } from '../master-data/master-data.js';

const SCHEME = /^Api-Key (\S+)$/;

/** The key in an Authorization header, or undefined when it is empty or not of the Api-Key scheme. */
export function presentedApiKey(authorization: string): string | undefined {
  return SCHEME.exec(authorization.trim())?.[1];
}

export function keyMatches(presented: string, keyHashHex: string): boolean {
  return timingSafeEqual(sha256(presented), hashBytes(keyHashHex));
}

function findKey(masterData: MasterData, presented: string): ApiKey | undefined {
  const digest = sha256(presented);
  let found: ApiKey | undefined;
  for (const key of masterData.keys.values()) {
    if (timingSafeEqual(digest, hashBytes(key.key_hash))) found = key;
  }
  return found;
}

// A keep-alive connection presents the same header on every request, and hashing it each time cost
// a good part of a retrieve's time (docs/benchmarks.md). So a connection remembers the header it last proved
// and the key it matched. The header is compared in constant time all the same: a proxy's upstream
// connection may carry several clients' requests. The memo holds only while the key is the one master
// data has now (issuing a key again replaces the object).
interface ProvenHeader {
  header: Buffer;
  key: ApiKey;
}
const provenOnConnection = new WeakMap<object, ProvenHeader>();

function remembered(connection: object, header: Buffer, masterData: MasterData): ApiKey | undefined {
  const proven = provenOnConnection.get(connection);
  if (!proven || masterData.keys.get(proven.key.key_hash) !== proven.key) return undefined;
  return header.length === proven.header.length && timingSafeEqual(header, proven.header) ? proven.key : undefined;
}

/**
 * The key this Authorization header proved earlier on this connection, still issued; undefined when
 * it has not (then only requireApiKey may decide, and answer 401). No hash, no 401: for a path that
 * answers without Koa only when everything is known already (ready-retrieve.ts).
 */
export function keyProvenOnConnection(connection: object, authorization: string, masterData: MasterData): ApiKey | undefined {
  return remembered(connection, Buffer.from(authorization), masterData);
}

// The stored hashes as bytes, decoded once rather than on every request.
const decodedHashes = new Map<string, Buffer>();
function hashBytes(keyHashHex: string): Buffer {
  let bytes = decodedHashes.get(keyHashHex);
  if (!bytes) decodedHashes.set(keyHashHex, (bytes = Buffer.from(keyHashHex, 'hex')));
  return bytes;
}

export function requireApiKey(masterData: () => MasterData) {
  // Not async: a retrieve runs through this on every request, and an async wrapper around next() costs it microtask turns.
  return function authenticate(ctx: Context, next: Next): Promise<void> | undefined {
    const current = masterData();
    const authorization = ctx.get('authorization');
    const header = Buffer.from(authorization);
    let known = remembered(ctx.req.socket, header, current);
    if (!known) {
      known = provedNow(ctx, authorization, current);
      if (!known) return undefined;
      provenOnConnection.set(ctx.req.socket, { header, key: known });
    }
    ctx.state.caller = { companyGroup: known.company_group } satisfies Caller;
    return next();
  };
}

/** The key the header presents, or undefined after answering 401. */
function provedNow(ctx: Context, authorization: string, current: MasterData): ApiKey | undefined {
  const presented = presentedApiKey(authorization);
  const key = presented === undefined ? undefined : findKey(current, presented);
  if (key) return key;
  refuse(
    ctx,
    presented !== undefined
      ? 'Invalid API key.'
      : authorization
        ? 'Malformed Authorization header; send "Authorization: Api-Key <key>".'
        : 'Authentication credentials were not provided.',
  );
  return undefined;
}

/**
 * The admin API's guard: the operator's ORDERS_ADMIN_KEY, checked before the body is read. Without
 * an admin key configured, the admin API refuses everyone.
 */
export function requireAdminKey(adminKey: string | undefined) {
  const adminKeyHash = adminKey ? hashApiKey(adminKey) : undefined;
  return function authenticateAdmin(ctx: Context, next: Next): Promise<void> | undefined {
    const presented = presentedApiKey(ctx.get('authorization'));
    if (!adminKeyHash || presented === undefined || !keyMatches(presented, adminKeyHash)) {
      refuse(ctx, adminKeyHash ? 'Invalid or missing admin API key.' : 'The admin API is disabled: no ORDERS_ADMIN_KEY is configured.');
      return undefined;
    }
    return next();
  };
}

/** Answers 401 with the Api-Key challenge and the reason as `detail`. */
export function refuse(ctx: Context, detail: string): void {
  ctx.status = 401;
  ctx.set('WWW-Authenticate', 'Api-Key');
  ctx.body = { detail };
}

// The one-shot hash: a Hash object per request is an allocation and a native call more, on every retrieve.
function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/** How many Authorization headers a request carries (each spelling of the name counts). */
export function authorizationHeaderCount(rawHeaders: readonly string[]): number {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') seen++;
  }
  return seen;
}

/**
 * Two Authorization headers are ambiguous (Node keeps the first, a proxy may keep the last), so a
 * request with more than one is refused before any key is looked at.
 */
export function refuseRepeatedAuthorization(ctx: Context, next: Next): Promise<void> | undefined {
  if (authorizationHeaderCount(ctx.req.rawHeaders) > 1) {
    ctx.status = 400;
    ctx.body = { detail: 'Send one Authorization header, not several.' };
    return undefined;
  }
  return next();
}
