// Reads a JSON request body with a hard size limit, answering in the API's error shapes:
// 415 unless it is declared JSON, 413 past the limit, 400 for anything that is not JSON, is nested
// too deeply or holds text that is not well-formed Unicode.
import type { Context } from 'koa';
import { NON_FIELD_ERRORS } from './field-errors.js';
import { findJsonShapeProblem } from './json-shape-limits.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyRejected extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    readonly body: object,
  ) {
    super(`request body rejected with ${status}`);
  }
}

export async function readJsonBody(ctx: Context): Promise<unknown> {
  // A body sent as text/plain or a form is a client mistake (or a cross-site form post): say so.
  if (!isJsonMediaType(ctx.get('content-type'))) {
    throw new BodyRejected(415, {
      detail: `Send the body as JSON with "Content-Type: application/json" (got ${ctx.get('content-type') ? `"${ctx.get('content-type').slice(0, 100)}"` : 'none'}).`,
    });
  }
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
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new BodyRejected(400, { [NON_FIELD_ERRORS]: [`The request body is not valid JSON: ${(error as Error).message}`] });
  }
  const problem = findJsonShapeProblem(body);
  if (problem) {
    const [field, ...rest] = problem.path;
    const where = rest
      .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`))
      .join('')
      .replace(/^\./, '');
    // Under the top-level field the client sent, so the 400 names it; deeper steps go in the message.
    const key = typeof field === 'string' ? field : NON_FIELD_ERRORS;
    const prefix = typeof field === 'number' ? `[${field}]${where}: ` : where ? `${where}: ` : '';
    throw new BodyRejected(400, { [key]: [`${prefix}${problem.message}`] });
  }
  return body;
}

/** Parses the body and insists on a JSON object, the only top-level value any operation takes. */
export async function readJsonObject(ctx: Context): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BodyRejected(400, {
      [NON_FIELD_ERRORS]: [`Expected a JSON object, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}.`],
    });
  }
  return body as Record<string, unknown>;
}

function tooLarge(): BodyRejected {
  return new BodyRejected(413, { detail: `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).` });
}

function isJsonMediaType(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}
