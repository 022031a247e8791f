// One delivery attempt: sign, POST, and what the answer means for the delivery (the rules:
// 2xx delivered; 5xx, connection errors and timeouts retried on the schedule; anything else final).
import type { AttemptOutcome } from './delivery-store.js';
import { webhookHeaders } from './webhook-signature.js';

export type PostResult = { status: number } | { error: string };

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
    return { status: response.status };
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
  const retryable = status === null || status >= 500;
  const delay = retryDelaysMs[attempt - 1];
  if (!retryable) return { result: 'failed', status, error };
  if (delay === undefined) return { result: 'failed', status, error: `${error} (attempt ${attempt}, giving up)` };
  return { result: 'retry', status, error, nextAttemptAt: now + delay };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the socket error ("fetch failed"); the cause says what actually happened.
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}
