// Lines logged during one turn of the event loop reach the destination as one write. sonic-boom
// measures its whole pending buffer (Buffer.byteLength of a growing string) on every write, which
// under load cost more than building the access line itself (docs/benchmarks.md); joined per
// turn, it measures once for the dozen lines a busy turn logs. Order is kept: every line, pino's
// and the access line alike, goes through the same queue.
import type { DestinationStream } from 'pino';

export interface FlushableDestination extends DestinationStream {
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

export function batchedPerTurn(destination: FlushableDestination): FlushableDestination {
  let pending: string[] = [];
  const writePending = () => {
    if (pending.length === 0) return;
    const lines = pending.join('');
    pending = [];
    destination.write(lines);
  };
  return {
    write(line: string) {
      if (pending.push(line) === 1) setImmediate(writePending);
    },
    flush(callback) {
      writePending();
      destination.flush(callback);
    },
    flushSync() {
      writePending();
      destination.flushSync();
    },
  };
}
