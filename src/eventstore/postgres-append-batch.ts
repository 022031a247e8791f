// A group commit as the append function takes it and gives it back (postgres-schema.ts): the batch
// as one JSON array, and each append's outcome turned into what the caller's promise settles with.
import { WrongExpectedRevision, type AppendResult } from './event-store.js';
import type { QueuedAppend } from './prepare-append.js';

export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: WrongExpectedRevision };

/** One JSON array per append: stream, expected kind and revision, and its events' ids, types and data text. */
export function batchJson(appends: readonly QueuedAppend[]): string {
  return JSON.stringify(
    appends.map((append) => [
      append.stream,
      append.expected.kind,
      append.expected.kind === 'exact' ? String(append.expected.revision) : null,
      append.events.map((event) => [event.id, event.type, event.data]),
    ]),
  );
}

/** The function's answer, one outcome per append in order. Anything else is a fault of the server or the schema. */
export function outcomesOf(appends: readonly QueuedAppend[], answer: unknown): AppendOutcome[] {
  if (!Array.isArray(answer) || answer.length !== appends.length) throw new Error(`the event log answered ${JSON.stringify(answer)?.slice(0, 200)} for ${appends.length} appends`);
  return appends.map((append, i): AppendOutcome => {
    const [verdict, revision, position] = answer[i] as [string, string | null, string | undefined];
    if (verdict === 'ok') return { ok: true, result: { nextRevision: BigInt(revision!), position: BigInt(position!) } };
    if (verdict === 'conflict') return { ok: false, error: new WrongExpectedRevision(append.stream, append.expected, revision === null ? 'no_stream' : BigInt(revision)) };
    throw new Error(`the event log answered ${JSON.stringify(answer[i])} for an append to ${append.stream}`);
  });
}
