// Structured JSON logs (pino). Keys and secrets never reach a log: the Authorization header is
// never logged, and the redaction below catches them should an object carrying one be logged.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'orders' },
    redact: {
      paths: ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'key', '*.key', 'secret', '*.secret', '*.api_keys', 'webhooks[*].secret'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The `(message, error?)` shape the rest of the service logs failures with. */
export function errorLog(logger: Logger): (message: string, error?: unknown) => void {
  return (message, error) => logger.error(error === undefined ? {} : { err: error }, message);
}
