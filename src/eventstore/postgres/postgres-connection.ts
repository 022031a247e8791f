// The connections of the PostgreSQL event log: a pool for queries, bigints for int8, and a deadline on
// every call. A network that stops answering (a partition, a server that froze) would otherwise hold a
// request for as long as TCP retransmits, minutes; past the deadline the connection is destroyed, not
// returned to the pool, because whatever it was doing is unknown, and the caller hears that the log
// is unavailable (an HTTP 503), which a retry may cure.
import pg from 'pg';
import { StorageUnavailable } from '../../storage/unavailable-storage.js';
import { POSTGRES_LOG } from './postgres-log-name.js';

const INT8 = 20;

// Per pool, not pg.types.setTypeParser: that would change every other pg user in the process.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => BigInt(value)
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PostgresConnectionOptions {
  /** Connections per process. */
  maxConnections?: number;
  /** Deadline of one call (a query, or taking a connection for it). */
  callTimeoutMs?: number;
}

export interface LogConnection {
  query<Row extends object>(text: string, values?: unknown[]): Promise<Row[]>;
  /** A new client outside the pool (LISTEN holds its connection for as long as it listens). */
  dedicatedClient(): pg.Client;
  readonly callTimeoutMs: number;
  end(): Promise<void>;
}

/** SQLSTATE classes and codes that mean the server or the way to it is gone, not that the statement is wrong. */
const UNREACHABLE_CODES = /^(08|57P0[123]|53300|53000)/;

export function isUnreachable(error: unknown): boolean {
  if (error instanceof StorageUnavailable) return true;
  const code = (error as { code?: unknown })?.code;
  // A SQLSTATE is five characters; node's socket errors have their own codes (ECONNREFUSED, ECONNRESET...).
  if (typeof code === 'string' && code.length === 5 && !code.startsWith('E')) return UNREACHABLE_CODES.test(code);
  const message = String((error as Error)?.message ?? '');
  return (
    typeof code === 'string' ||
    /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error|not queryable|socket/i.test(message)
  );
}

export function unavailable(error: unknown): StorageUnavailable {
  return error instanceof StorageUnavailable ? error : new StorageUnavailable(POSTGRES_LOG, (error as Error)?.message ?? String(error));
}

export function connectLog(
  url: string,
  options: PostgresConnectionOptions = {},
  onIdleError: (error: Error) => void = () => {},
): LogConnection {
  const callTimeoutMs = options.callTimeoutMs ?? 10_000;
  const config = poolConfig(url, options.maxConnections ?? 10, callTimeoutMs);
  const pool = new pg.Pool(config);
  // An idle connection that breaks (a server restart) is an event on the pool; unheard, it would end the process.
  pool.on('error', onIdleError);

  // A connection that breaks while checked out also says so as an 'error' event, beside failing its
  // query; the pool listens only to idle ones, and an unheard 'error' would end the process.
  const heard = new WeakSet<pg.PoolClient>();

  async function query<Row extends object>(text: string, values?: unknown[]): Promise<Row[]> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw unavailable(error);
    }
    if (!heard.has(client)) {
      heard.add(client);
      client.on('error', () => {});
    }
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    try {
      const result = await Promise.race([
        client.query<Row>(text, values),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            timedOut = true;
            reject(new StorageUnavailable(POSTGRES_LOG, `no answer within ${callTimeoutMs} ms`));
          }, callTimeoutMs);
        }),
      ]);
      client.release();
      return result.rows;
    } catch (error) {
      // A connection that timed out or broke is destroyed: its state is unknown.
      const broken = timedOut || isUnreachable(error);
      client.release(broken ? (error as Error) : undefined);
      throw broken ? unavailable(error) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    query,
    callTimeoutMs,
    dedicatedClient: () => new pg.Client({ ...config, keepAlive: true }),
    end: () => pool.end(),
  };
}

/** The pool's settings: the URL's, a durable commit, keep-alives, and the call deadline for a new connection. */
function poolConfig(url: string, maxConnections: number, callTimeoutMs: number): pg.PoolConfig {
  // The URL's own `options` (a search_path, say) are kept: node-postgres lets them replace the pool's.
  const parsed = new URL(url);
  const urlOptions = parsed.searchParams.get('options');
  parsed.searchParams.delete('options');
  return {
    connectionString: parsed.toString(),
    max: maxConnections,
    // The log's acknowledgement is a durable commit; a server or role configured otherwise is overruled here.
    options: [urlOptions, '-c synchronous_commit=on'].filter(Boolean).join(' '),
    application_name: 'orders-service',
    keepAlive: true,
    keepAliveInitialDelayMillis: 5_000,
    connectionTimeoutMillis: callTimeoutMs,
    idleTimeoutMillis: 30_000,
    types,
  };
}
