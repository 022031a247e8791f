// Reads a JSON request body with a hard size limit, answering in the API's error shapes:
// 413 past the limit, 400 for anything that is not JSON.
import type { Context } from 'koa';
import { NON_FIELD_ERRORS } from './field-errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyRejected extends Error {
  constructor(readonly status: 400 | 413, readonly body: object) {
    super(`request body rejected with ${status}`);
  }
}

export async function readJsonBody(ctx: Context): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Stop reading as soon as the limit is passed: a client streaming gigabytes costs us one MiB.
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new BodyRejected(400, { [NON_FIELD_ERRORS]: ['The request body is empty; send a JSON object.'] });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BodyRejected(400, { [NON_FIELD_ERRORS]: [`The request body is not valid JSON: ${(error as Error).message}`] });
  }
}

/** Parses the body and insists on a JSON object, the only top-level value any operation takes. */
export async function readJsonObject(ctx: Context): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BodyRejected(400, { [NON_FIELD_ERRORS]: [`Expected a JSON object, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}.`] });
  }
  return body as Record<string, unknown>;
}

function tooLarge(): BodyRejected {
  return new BodyRejected(413, { detail: `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).` });
}
