// One delivery attempt: sign, POST, and what the answer means for the delivery (the rules:
// 2xx delivered; 5xx, 408, 429, connection errors and timeouts retried on the schedule, never sooner
// than a Retry-After asks; anything else final).
import type { AttemptOutcome } from './delivery-store.js';
import { webhookHeaders } from './webhook-signature.js';

/** retryAfterMs: the response's Retry-After, as a pause from now. */
export type PostResult = { status: number; retryAfterMs?: number } | { error: string };

/** Longest Retry-After honoured: a receiver cannot park a delivery for days. */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

export interface WebhookPost {
  url: string;
  envelopeId: string;
  body: string;
  secret: string;
  timeoutMs: number;
}

export async function postWebhook(post: WebhookPost): Promise<PostResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(post.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...webhookHeaders(post.envelopeId, timestamp, post.body, post.secret) },
      body: post.body,
      // A redirect is the receiver's answer, not an instruction to post the event somewhere else.
      redirect: 'manual',
      signal: AbortSignal.timeout(post.timeoutMs),
    });
    // Only the status matters; drop the body so the connection is released.
    await response.body?.cancel().catch(() => undefined);
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    return retryAfterMs === undefined ? { status: response.status } : { status: response.status, retryAfterMs };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { error: timedOut ? `no answer within ${post.timeoutMs} ms` : describe(error) };
  }
}

/**
 * @param attempt 1-based number of the attempt that produced `result`
 * @param retryDelaysMs pause before attempt 2, 3, ...; its length + 1 is the number of attempts
 */
export function attemptOutcome(result: PostResult, attempt: number, retryDelaysMs: readonly number[], now: number): AttemptOutcome {
  if ('status' in result && result.status >= 200 && result.status < 300) return { result: 'delivered', status: result.status };
  const status = 'status' in result ? result.status : null;
  const error = 'status' in result ? `HTTP ${result.status}` : result.error;
  // 408 and 429 say "not now" as plainly as a 5xx does.
  const retryable = status === null || status >= 500 || status === 408 || status === 429;
  const scheduled = retryDelaysMs[attempt - 1];
  if (!retryable) return { result: 'failed', status, error };
  if (scheduled === undefined) return { result: 'failed', status, error: `${error} (attempt ${attempt}, giving up)` };
  const asked = 'status' in result && result.retryAfterMs !== undefined ? Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS) : 0;
  return { result: 'retry', status, error, nextAttemptAt: now + Math.max(scheduled, asked) };
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the socket error ("fetch failed"); the cause says what actually happened.
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}
