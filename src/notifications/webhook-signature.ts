// Standard Webhooks signing (https://www.standardwebhooks.com): HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>", keyed with the base64 part of the `whsec_` secret.
import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** The HMAC key: the bytes the base64 after `whsec_` encodes. */
export function webhookSigningKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with "whsec_"');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new Error('webhook secret has no key after "whsec_"');
  return key;
}

/** The `webhook-signature` value: `v1,<base64 HMAC-SHA256>`. */
export function signWebhook(id: string, timestampSeconds: number, body: string, secret: string): string {
  const mac = createHmac('sha256', webhookSigningKey(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt; the timestamp is the attempt's, so a retry is signed anew. */
export function webhookHeaders(id: string, timestampSeconds: number, body: string, secret: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(id, timestampSeconds, body, secret),
  };
}
