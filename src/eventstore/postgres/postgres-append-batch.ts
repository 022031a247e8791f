// A group commit as the append function takes it and gives it back (postgres-schema.ts): the batch
// as one JSON array, and each append's outcome turned into what the caller's promise settles with.
import { WrongExpectedRevision, type AppendResult } from '../event-store.js';
import type { QueuedAppend } from '../prepare-append.js';

export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: WrongExpectedRevision };

/**
 * The batch as the function's arguments: one JSON array per append (stream, expected kind and revision,
 * its events' ids and types, and where each one's data is), and the data texts apart, in order, so that
 * the server copies them as they are instead of parsing them out of JSON.
 */
export function batchArguments(appends: readonly QueuedAppend[]): { batch: string; data: string[] } {
  const data: string[] = [];
  const batch = JSON.stringify(
    appends.map((append) => [
      append.stream,
      append.expected.kind,
      append.expected.kind === 'exact' ? String(append.expected.revision) : null,
      append.events.map((event) => [event.id, event.type, data.push(event.data)]),
    ]),
  );
  return { batch, data };
}

/** The function's answer, one outcome per append in order. Anything else is a fault of the server or the schema. */
export function outcomesOf(appends: readonly QueuedAppend[], answer: unknown): AppendOutcome[] {
  if (!Array.isArray(answer) || answer.length !== appends.length)
    throw new Error(`the event log answered ${JSON.stringify(answer)?.slice(0, 200)} for ${appends.length} appends`);
  return appends.map((append, i): AppendOutcome => {
    const [verdict, revision, position] = answer[i] as [string, string | null, string | undefined];
    if (verdict === 'ok') return { ok: true, result: { nextRevision: BigInt(revision!), position: BigInt(position!) } };
    if (verdict === 'conflict')
      return {
        ok: false,
        error: new WrongExpectedRevision(append.stream, append.expected, revision === null ? 'no_stream' : BigInt(revision)),
      };
    throw new Error(`the event log answered ${JSON.stringify(answer[i])} for an append to ${append.stream}`);
  });
}

/**
 * A text as an SQL literal, dollar-quoted: the server takes it as it is, with no escape to undo, and it
 * costs a scan for the tag instead of a copy with every quote and backslash doubled (on plans of
 * hundreds of KiB, the copies' garbage was most of an append's time).
 */
export function dollarQuoted(text: string): string {
  for (let attempt = 0; ; attempt++) {
    const tag = `$o${attempt.toString(36)}$`;
    if (!text.includes(tag) && !text.endsWith(tag.slice(0, -1))) return `${tag}${text}${tag}`;
  }
}
