// A digest of the log an auditor can hold: the head hash, its position and the time, as a short text
// signed with the service's Ed25519 key (docs/auditing.md shows the text and how to check it by hand).
// An export adds the order's stream and each of its events' position and hash, so that the lines of
// the export are bound to the signature without the rest of the log (see history-export.ts for why).
import { sign } from 'node:crypto';
import type { HashedLog } from '../eventstore/hashed-log.js';
import type { AuditKey } from './audit-key.js';

export const DIGEST_HEADER = 'orders-audit-digest v1';

export interface SignedDigest {
  chain: 'log' | 'stream';
  /** The log's last event: its position (a string: positions can pass 2^53) and hash; null for an empty log. */
  position: string | null;
  head_hash: string | null;
  /** When the digest was signed. */
  time: string;
  /** Only in an export's digest: the order's stream and its events, as signed. */
  stream?: string;
  events?: { position: string; hash: string | null }[];
  /** The exact text signed, UTF-8: the fields above, one per line. */
  signed: string;
  /** Ed25519 signature of `signed`, base64. */
  signature: string;
  /** sha256 of the public key (DER), hex: which key to check it with. */
  key_fingerprint: string;
}

export interface DigestContent {
  stream?: string;
  events?: readonly { position: bigint; hash: string | null }[];
}

/** Signs the log's head as it is now, with the order's events when given. */
export async function signedDigest(store: HashedLog, key: AuditKey, content: DigestContent = {}, now = new Date()): Promise<SignedDigest> {
  const head = await store.readHeadHashed();
  const events = content.events?.map((event) => ({ position: event.position.toString(), hash: event.hash }));
  const fields = {
    chain: store.chainScope,
    position: head ? head.position.toString() : null,
    head_hash: head?.hash ?? null,
    time: now.toISOString(),
    ...(content.stream !== undefined ? { stream: content.stream } : {}),
    ...(events ? { events } : {}),
  };
  const signed = `${[
    DIGEST_HEADER,
    `chain: ${fields.chain}`,
    `position: ${fields.position ?? 'none'}`,
    `head: ${fields.head_hash ?? 'none'}`,
    `time: ${fields.time}`,
    ...(content.stream !== undefined ? [`stream: ${content.stream}`] : []),
    ...(events ?? []).map((event) => `event: ${event.position} ${event.hash ?? 'none'}`),
  ].join('\n')}\n`;
  return {
    ...fields,
    signed,
    signature: sign(null, Buffer.from(signed, 'utf8'), key.privateKey).toString('base64'),
    key_fingerprint: key.fingerprint,
  };
}
