// LISTEN on the log's commit channel: a commit by any replica wakes this replica's followers at once,
// rather than at their next poll. It is only a hint. Followers still poll, so a connection that breaks
// (a restart, a partition) costs latency, never an event; it is opened again with a growing pause, and
// on reconnection every follower is woken, since commits may have gone unheard meanwhile. A connection
// that goes silent without breaking (a partition, a peer gone without a reset) would look like a quiet
// log for as long as TCP takes to notice: it is asked a question every few seconds, and given up on
// when it does not answer.
import type pg from 'pg';
import { backoffDelay } from '../../storage/retry-with-backoff.js';
import { COMMIT_CHANNEL, PROGRESS_CHANNEL } from './postgres-schema.js';

const HEARTBEAT_MS = 5_000;
const ANSWER_WITHIN_MS = 3_000;

function withinDeadline<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    call,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the LISTEN connection did not answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface CommitListener {
  /** Whether commits are being heard now: while they are, followers need to poll only rarely. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * `wake(types, head)`: the event types of a commit (undefined when unknown: wake every follower) and the
 * log's head after it (undefined when unknown). `progress(name, position)`: an announcement on the
 * progress channel (ProgressSignals), heard on the same connection. Only announcements that name
 * `schema` are this log's: the channels are the database's, and other logs may share the database.
 */
export function listenForCommits(
  newClient: () => pg.Client,
  schema: string,
  wake: (types: ReadonlySet<string> | undefined, head: bigint | undefined) => void,
  log: (message: string, error?: unknown) => void,
  progress: (name: string, position: bigint) => void = () => {},
): CommitListener {
  let closed = false;
  let client: pg.Client | undefined;
  let failures = 0;
  let listening = false;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const current = newClient();
    client = current;
    const lost = (error?: unknown) => {
      if (client !== current) return;
      client = undefined;
      listening = false;
      clearInterval(heartbeat);
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
    current.on('notification', (message) => heard(message, schema, wake, progress));
    try {
      await current.connect();
      await withinDeadline(current.query(`LISTEN ${COMMIT_CHANNEL}; LISTEN ${PROGRESS_CHANNEL}`));
      if (failures > 0) log(`event log: listening for commits again after ${failures} failed attempt(s)`);
      failures = 0;
      listening = true;
      heartbeat = setInterval(() => {
        withinDeadline(current.query('SELECT 1')).catch((error: unknown) => lost(error));
      }, HEARTBEAT_MS);
      heartbeat.unref();
      wake(undefined, undefined);
    } catch (error) {
      lost(error);
    }
  };
  void connect();

  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(timer);
      clearInterval(heartbeat);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}

/** A notification on either channel, handed to `wake` or `progress` when it is this log's. */
function heard(
  message: pg.Notification,
  schema: string,
  wake: (types: ReadonlySet<string> | undefined, head: bigint | undefined) => void,
  progress: (name: string, position: bigint) => void,
): void {
  // A schema name may hold ';': it is the last field, and whatever follows the fields before it.
  const [first = '', second = '', ...rest] = (message.payload ?? '').split(';');
  const from = rest.length > 0 ? rest.join(';') : undefined;
  if (message.channel === PROGRESS_CHANNEL) {
    // Another log's, or a replica's from before announcements named their log: not this log's progress.
    if (from === schema && /^\d+$/.test(second)) progress(first, BigInt(second));
    return;
  }
  if (from !== undefined && from !== schema) return;
  // Without a schema (a replica from before): a commit of some log; its head is looked up, not taken.
  wake(first === '' ? undefined : new Set(first.split(',')), from !== undefined && /^\d+$/.test(second) ? BigInt(second) : undefined);
}
