// A cancel's body: none at all, or a JSON object with an optional `reason` (bounded), read with the
// submit's body reader (415, 413 and the 400s of a body that is not JSON).
import type { Context } from 'koa';
import { readJsonObject } from '../../validation/json-body.js';

/** Enough for a sentence or two of why; the reason goes into the log, the order and every notice. */
export const MAX_REASON_LENGTH = 500;

export async function parseCancelBody(ctx: Context): Promise<{ reason: string | null } | { errors: Record<string, string[]> }> {
  // No body (no length, or zero, and not chunked): no reason, whatever the content type says.
  if (ctx.get('transfer-encoding') === '' && !(Number(ctx.get('content-length') || 0) > 0)) return { reason: null };
  const body = await readJsonObject(ctx);
  const errors: Record<string, string[]> = {};
  for (const field of Object.keys(body)) if (field !== 'reason') errors[field] = ['Unknown field.'];
  const reason = body.reason;
  if (reason !== undefined && reason !== null && typeof reason !== 'string') errors.reason = ['Not a valid string.'];
  else if (typeof reason === 'string' && reason.length > MAX_REASON_LENGTH)
    errors.reason = [`Ensure this field has no more than ${MAX_REASON_LENGTH} characters.`];
  if (Object.keys(errors).length > 0) return { errors };
  const trimmed = typeof reason === 'string' ? reason.trim() : '';
  return { reason: trimmed === '' ? null : trimmed };
}
