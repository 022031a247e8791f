// LISTEN on the log's commit channel: a commit by any replica wakes this replica's followers at once,
// rather than at their next poll. It is only a hint. Followers still poll, so a connection that breaks
// (a restart, a partition) costs latency, never an event; it is opened again with a growing pause, and
// on reconnection every follower is woken, since commits may have gone unheard meanwhile.
import type pg from 'pg';
import { backoffDelay } from './retry-with-backoff.js';
import { COMMIT_CHANNEL } from './postgres-schema.js';

export interface CommitListener {
  close(): Promise<void>;
}

/** `wake(types)`: the event types of a commit, or undefined when unknown (wake every follower). */
export function listenForCommits(newClient: () => pg.Client, wake: (types: ReadonlySet<string> | undefined) => void, log: (message: string, error?: unknown) => void): CommitListener {
  let closed = false;
  let client: pg.Client | undefined;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const current = newClient();
    client = current;
    const lost = (error?: unknown) => {
      if (client !== current) return;
      client = undefined;
      current.removeAllListeners('notification');
      void current.end().catch(() => {});
      if (closed) return;
      failures += 1;
      const delay = backoffDelay(failures, { firstDelayMs: 200, maxDelayMs: 5_000, jitter: 0.5 }, Math.random);
      if (failures === 1) log(`event log: listening for commits stopped; followers poll meanwhile, listening again in ${delay} ms`, error);
      timer = setTimeout(() => void connect(), delay);
    };
    current.on('error', lost);
    current.on('end', () => lost());
    current.on('notification', (message) => {
      const payload = message.payload ?? '';
      wake(payload === '' ? undefined : new Set(payload.split(',')));
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${COMMIT_CHANNEL}`);
      if (failures > 0) log(`event log: listening for commits again after ${failures} failed attempt(s)`);
      failures = 0;
      wake(undefined);
    } catch (error) {
      lost(error);
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
