// Structured JSON logs (pino). Keys and secrets never reach a log: the Authorization header is
// never logged, and the redaction below catches them should an object carrying one be logged.
import { pino, type DestinationStream, type Logger } from 'pino';
import { chunkedLogDestination, type FlushableDestination } from './chunked-log-destination.js';

export type { Logger };

/** Fields on every line. */
const BASE = { service: 'orders' };

export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: BASE,
    // Exact paths only: wildcard redaction costs more per line than the rest of a request's logging.
    // Nothing logs these fields on purpose (test/api/logging.test.ts checks); this catches accidents.
    redact: {
      paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'key', 'secret', 'api_keys', 'webhooks'],
      censor: '[redacted]',
    },
  };
  // Without a destination: stdout, in chunks of 64 KiB written asynchronously, or after 200 ms when
  // lines come slowly (chunked-log-destination.ts). A write per line cost more than the request it
  // logged (docs/benchmarks.md). Shutdown flushes them (flushLogs); an exit writes what is queued
  // synchronously; a crash the operating system ends (SIGKILL, OOM) loses at most the last 200 ms of lines.
  return pino(options, destination ?? stdout());
}

// One per process, shared by every logger on it: lines to one descriptor keep one order.
let sharedStdout: FlushableDestination | undefined;
function stdout(): FlushableDestination {
  if (sharedStdout) return sharedStdout;
  const created = chunkedLogDestination(1, {
    droppedNotice: (count) =>
      `${JSON.stringify({ level: pino.levels.values.warn, time: Date.now(), ...BASE, dropped_lines: count, msg: 'log lines dropped: stdout did not take them' })}\n`,
  });
  process.on('exit', () => created.flushSync());
  return (sharedStdout = created);
}

/**
 * A writer of one hand-serialized line per call, at info level, in the logger's format and to its
 * destination. For the access line every request writes: pino's general path (redaction, serializers,
 * value-by-value stringify) costs far more than this does (docs/benchmarks.md). Callers pass fields that are JSON
 * already, so redaction has nothing to do: nothing here can leak what the caller did not put in.
 */
export function infoLineWriter(logger: Logger): (fieldsJson: string, message: string) => void {
  const destination = (logger as unknown as Record<symbol, DestinationStream | undefined>)[pino.symbols.streamSym];
  if (destination === undefined) throw new Error('This pino version keeps its destination elsewhere: infoLineWriter needs updating');
  const bound = JSON.stringify(logger.bindings()).slice(1, -1);
  const prefix = `{"level":${logger.levels.values.info}`;
  const bindings = bound === '' ? '' : `,${bound}`;
  // A writer's message is a constant in practice (the access line's 'request'): escaped once, not per line.
  let lastMessage: string | undefined;
  let lastMessageJson = '';
  return (fieldsJson, message) => {
    if (!logger.isLevelEnabled('info')) return;
    if (message !== lastMessage) lastMessageJson = JSON.stringify((lastMessage = message));
    destination.write(`${prefix},"time":${Date.now()}${bindings},${fieldsJson},"msg":${lastMessageJson}}\n`);
  };
}

/**
 * Resolves once every line logged so far has been handed to the operating system. Never rejects:
 * a destination a caller gave may report an error (sonic-boom's fsync on a pipe fails with EINVAL
 * though every line was written), and a shutdown must not fail over its logs.
 */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

/** The `(message, error?, level?)` shape the rest of the service logs with: error level when an error is given, else info, unless a level is named. */
export function serviceLog(logger: Logger): (message: string, error?: unknown, level?: 'info' | 'warn' | 'error') => void {
  return (message, error, level) => {
    const chosen = level ?? (error === undefined ? 'info' : 'error');
    if (error === undefined) logger[chosen](message);
    else logger[chosen]({ err: error }, message);
  };
}
