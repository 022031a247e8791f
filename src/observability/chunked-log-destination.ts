// Log lines reach the file descriptor as UTF-8 copied straight into 64 KiB chunks, a full chunk
// handed to the operating system in one asynchronous write. A line costs one copy: no string joined
// per turn, no byte length measured over a growing buffer, no string encoded again inside fs.write
// (what the access line paid through sonic-boom: 1.7 against 0.5 µs a line, docs/benchmarks.md).
// Order is kept: one write in flight at a time, chunks in the order their lines came.
import { write as fsWrite, writeSync as fsWriteSync } from 'node:fs';

export interface FlushableDestination {
  write(line: string): void;
  /** Calls back once every line written so far has been handed to the operating system (or dropped). */
  flush(callback?: (error?: Error) => void): void;
  /** Hands every queued line over now, for the last moments of a process. */
  flushSync(): void;
}

/** The file operations used, replaceable so that tests can play a full pipe or a closed one. */
export interface ChunkIo {
  write(fd: number, buffer: Buffer, offset: number, length: number, callback: (error: NodeJS.ErrnoException | null, written: number) => void): void;
  writeSync(fd: number, buffer: Buffer, offset: number, length: number): number;
}

export interface ChunkedOptions {
  chunkBytes?: number;
  /** A line waits at most this long for its chunk to be handed over, when lines come slowly. */
  maxDelayMs?: number;
  /** Past this much waiting to be written (stdout not drained), lines are dropped and counted, not kept in memory. */
  maxQueuedBytes?: number;
  /** The line written once lines were dropped and the queue has drained again. */
  droppedNotice?: (count: number) => string;
  /** Wait before writing again into a non-blocking pipe that was full (EAGAIN). */
  retryMs?: number;
  io?: ChunkIo;
}

const nodeIo: ChunkIo = {
  write: (fd, buffer, offset, length, callback) => fsWrite(fd, buffer, offset, length, null, callback),
  writeSync: (fd, buffer, offset, length) => fsWriteSync(fd, buffer, offset, length),
};

interface Chunk {
  bytes: Buffer;
  lines: number;
}

export function chunkedLogDestination(fd: number, options: ChunkedOptions = {}): FlushableDestination {
  const size = options.chunkBytes ?? 64 * 1024;
  const maxDelayMs = options.maxDelayMs ?? 200;
  const maxQueuedBytes = options.maxQueuedBytes ?? 32 * 1024 * 1024;
  const retryMs = options.retryMs ?? 10;
  const io = options.io ?? nodeIo;
  const notice = options.droppedNotice ?? ((count: number) => `${count} log lines dropped: the log destination did not take them\n`);

  let current = Buffer.allocUnsafe(size);
  let used = 0;
  let linesInCurrent = 0;
  const queue: Chunk[] = [];
  let queuedBytes = 0;
  let written = 0; // bytes of queue[0] already handed over
  let writing = false; // an asynchronous write, or the wait before retrying one, is under way
  let retrying = false; // the wait: no write of queue[0] is in flight
  let timer: NodeJS.Timeout | undefined;
  let dropped = 0;
  let waiters: ((error?: Error) => void)[] = [];

  const enqueue = (bytes: Buffer, lines: number) => {
    queue.push({ bytes, lines });
    queuedBytes += bytes.length;
  };

  const seal = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (used === 0) return;
    enqueue(current.subarray(0, used), linesInCurrent);
    current = Buffer.allocUnsafe(size);
    used = 0;
    linesInCurrent = 0;
  };

  const sealAndPump = () => {
    seal();
    pump();
  };

  const shift = () => {
    queuedBytes -= queue.shift()!.bytes.length;
    written = 0;
  };

  const pump = () => {
    if (writing) return;
    const head = queue[0];
    if (head === undefined) {
      if (dropped > 0) {
        // Said once the destination takes lines again, in the stream itself, where the gap is.
        const count = dropped;
        dropped = 0;
        enqueue(Buffer.from(notice(count)), 1);
        return pump();
      }
      const settled = waiters;
      waiters = [];
      for (const waiter of settled) waiter();
      return;
    }
    writing = true;
    io.write(fd, head.bytes, written, head.bytes.length - written, afterWrite);
  };

  const afterWrite = (error: NodeJS.ErrnoException | null, count: number) => {
    if (error && (error.code === 'EAGAIN' || error.code === 'EBUSY')) {
      // A full non-blocking pipe: the lines wait for the reader, they are not lost. The timer keeps
      // the process up: a shutdown waiting on flush() must not end before the lines are out.
      retrying = true;
      setTimeout(() => {
        retrying = false;
        writing = false;
        pump();
      }, retryMs);
      return;
    }
    writing = false;
    if (error) {
      // No reader (EPIPE) or no descriptor: this chunk cannot be delivered; count its lines.
      dropped += queue[0]!.lines;
      shift();
    } else {
      written += count;
      if (written >= queue[0]!.bytes.length) shift();
    }
    pump();
  };

  return {
    write(line) {
      // line.length * 3 bounds its UTF-8 length without measuring it.
      if (line.length * 3 > size - used) {
        seal();
        if (line.length * 3 > size) {
          if (queuedBytes > maxQueuedBytes) dropped++;
          else enqueue(Buffer.from(line), 1);
          return pump();
        }
        pump();
      }
      if (queuedBytes > maxQueuedBytes) {
        dropped++;
        return;
      }
      used += current.write(line, used);
      linesInCurrent++;
      if (timer === undefined) timer = setTimeout(sealAndPump, maxDelayMs).unref();
    },
    flush(callback) {
      seal();
      if (callback) waiters.push(callback);
      pump();
    },
    flushSync() {
      seal();
      // A chunk an asynchronous write is handing over right now is left to it: writing it here too
      // would write its lines twice. What is queued behind it goes now, in order.
      const inFlight = writing && !retrying;
      const chunks = queue.splice(inFlight ? 1 : 0);
      let offset = inFlight ? 0 : written;
      if (!inFlight) written = 0;
      for (const chunk of chunks) {
        queuedBytes -= chunk.bytes.length;
        writeAllSync(chunk.bytes, offset);
        offset = 0;
      }
    },
  };

  function writeAllSync(bytes: Buffer, from: number): void {
    const deadline = Date.now() + 1000;
    let offset = from;
    while (offset < bytes.length) {
      try {
        offset += io.writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A full pipe gets a second to drain (the process is ending); anything else loses the rest.
        if ((code !== 'EAGAIN' && code !== 'EBUSY') || Date.now() > deadline) return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  }
}
