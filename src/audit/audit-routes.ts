// GET /api/v1/audit/digest and /api/v1/audit/public-key with their OpenAPI path items.
// Who may read them (docs/auditing.md, "Who may ask"): the public key, anyone: it proves nothing by
// itself, and whoever checks a digest or an export handed to them needs it. The digest, any API key: its
// position is the number of events of every customer's orders, which is not for the open internet.
import type Router from '@koa/router';
import type Koa from 'koa';
import type { HashedLog } from '../eventstore/hashed-log.js';
import { json, TAGS, unauthorized, type ApiDescription } from '../api-docs/openapi-parts.js';
import type { AuditKey } from './audit-key.js';
import { signedDigest } from './signed-digest.js';

export const DIGEST = '/api/v1/audit/digest';
export const PUBLIC_KEY = '/api/v1/audit/public-key';

export function auditRoutes(router: Router, deps: { store: HashedLog; auditKey: AuditKey }, authenticate: Koa.Middleware): void {
  router.get(DIGEST, authenticate, async (ctx) => {
    ctx.body = await signedDigest(deps.store, deps.auditKey);
  });
  const publicKey = { algorithm: 'Ed25519', public_key_pem: deps.auditKey.publicKeyPem, key_fingerprint: deps.auditKey.fingerprint };
  router.get(PUBLIC_KEY, (ctx) => {
    ctx.body = publicKey;
  });
}

const digestFields = {
  chain: {
    type: 'string',
    enum: ['log', 'stream'],
    description:
      'log: each hash chains the previous event of the whole log (SQLite); stream: the previous event of its stream (KurrentDB).',
  },
  position: {
    type: ['string', 'null'],
    description: "The log's last event's position (a string: positions can pass 2^53); null for an empty log.",
  },
  head_hash: { type: ['string', 'null'], description: "That event's hash, hex SHA-256." },
  time: { type: 'string', format: 'date-time', description: 'When the digest was signed.' },
  signed: {
    type: 'string',
    description: 'The exact text signed (UTF-8): the fields, one per line; the authority, the other fields repeat it.',
  },
  signature: { type: 'string', description: 'Ed25519 signature of `signed`, base64.' },
  key_fingerprint: { type: 'string', description: "sha256 of the signing key's public key (DER), hex." },
};

export const SignedDigestSchema = {
  title: 'SignedDigest',
  type: 'object',
  required: ['chain', 'position', 'head_hash', 'time', 'signed', 'signature', 'key_fingerprint'],
  properties: {
    ...digestFields,
    stream: { type: 'string', description: "In an export's digest only: the order's stream." },
    events: {
      type: 'array',
      description: "In an export's digest only: each of the stream's events, its position and hash, in order.",
      items: {
        type: 'object',
        required: ['position', 'hash'],
        properties: { position: { type: 'string' }, hash: { type: ['string', 'null'] } },
      },
    },
  },
};

export const auditApi: ApiDescription = {
  paths: {
    [DIGEST]: {
      get: {
        operationId: 'auditDigest',
        summary: "The log's head, signed: for auditors",
        description:
          "The hash of the last event of the log, its position and the time, signed with the service's Ed25519 key. Any API key may ask. Kept by an auditor, it shows later whether the log up to that position was changed (npm run verify-history, docs/auditing.md).",
        tags: [TAGS.audit],
        responses: {
          '200': { description: 'The signed digest.', ...json({ $ref: '#/components/schemas/SignedDigest' }) },
          '401': unauthorized,
        },
      },
    },
    [PUBLIC_KEY]: {
      get: {
        operationId: 'auditPublicKey',
        summary: 'The public key digests and exports are signed with',
        description: 'Needs no API key.',
        tags: [TAGS.audit],
        security: [],
        responses: {
          '200': {
            description: 'The Ed25519 public key, as SPKI PEM (what openssl reads).',
            ...json({
              type: 'object',
              required: ['algorithm', 'public_key_pem', 'key_fingerprint'],
              properties: { algorithm: { const: 'Ed25519' }, public_key_pem: { type: 'string' }, key_fingerprint: { type: 'string' } },
            }),
          },
        },
      },
    },
  },
  schemas: { SignedDigest: SignedDigestSchema },
};
