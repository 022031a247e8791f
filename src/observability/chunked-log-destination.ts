// Log lines reach the file descriptor as UTF-8 copied straight into 64 KiB chunks, a full chunk
// handed to the operating system in one asynchronous write. A line costs one copy: no string joined
// per turn, no byte length measured over a growing buffer, no string encoded again inside fs.write
// (what the access line paid through sonic-boom, far more than this: docs/benchmarks.md).
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
  write(
    fd: number,
    buffer: Buffer,
    offset: number,
    length: number,
    callback: (error: NodeJS.ErrnoException | null, written: number) => void,
  ): void;
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
  return new ChunkedLogDestination(fd, options);
}

class ChunkedLogDestination implements FlushableDestination {
  private readonly size: number;
  private readonly maxDelayMs: number;
  private readonly maxQueuedBytes: number;
  private readonly retryMs: number;
  private readonly io: ChunkIo;
  private readonly notice: (count: number) => string;

  // The chunk being filled.
  private current: Buffer;
  private used = 0;
  private linesInCurrent = 0;
  private timer: NodeJS.Timeout | undefined;
  // The chunks sealed and not yet handed over, oldest first.
  private readonly queue: Chunk[] = [];
  private queuedBytes = 0;
  private written = 0; // bytes of queue[0] already handed over
  private writing = false; // an asynchronous write, or the wait before retrying one, is under way
  private retrying = false; // the wait: no write of queue[0] is in flight
  private dropped = 0;
  private waiters: ((error?: Error) => void)[] = [];

  constructor(
    private readonly fd: number,
    options: ChunkedOptions,
  ) {
    this.size = options.chunkBytes ?? 64 * 1024;
    this.maxDelayMs = options.maxDelayMs ?? 200;
    this.maxQueuedBytes = options.maxQueuedBytes ?? 32 * 1024 * 1024;
    this.retryMs = options.retryMs ?? 10;
    this.io = options.io ?? nodeIo;
    this.notice = options.droppedNotice ?? ((count: number) => `${count} log lines dropped: the log destination did not take them\n`);
    this.current = Buffer.allocUnsafe(this.size);
  }

  write(line: string): void {
    // line.length * 3 bounds its UTF-8 length without measuring it.
    if (line.length * 3 > this.size - this.used) {
      this.seal();
      if (line.length * 3 > this.size) {
        if (this.queuedBytes > this.maxQueuedBytes) this.dropped++;
        else this.enqueue(Buffer.from(line), 1);
        return this.pump();
      }
      this.pump();
    }
    if (this.queuedBytes > this.maxQueuedBytes) {
      this.dropped++;
      return;
    }
    this.used += this.current.write(line, this.used);
    this.linesInCurrent++;
    if (this.timer === undefined) this.timer = setTimeout(this.sealAndPump, this.maxDelayMs).unref();
  }

  flush(callback?: (error?: Error) => void): void {
    this.seal();
    if (callback) this.waiters.push(callback);
    this.pump();
  }

  flushSync(): void {
    this.seal();
    // A chunk an asynchronous write is handing over right now is left to it: writing it here too
    // would write its lines twice. What is queued behind it goes now, in order.
    const inFlight = this.writing && !this.retrying;
    const chunks = this.queue.splice(inFlight ? 1 : 0);
    let offset = inFlight ? 0 : this.written;
    if (!inFlight) this.written = 0;
    for (const chunk of chunks) {
      this.queuedBytes -= chunk.bytes.length;
      this.writeAllSync(chunk.bytes, offset);
      offset = 0;
    }
  }

  private enqueue(bytes: Buffer, lines: number): void {
    this.queue.push({ bytes, lines });
    this.queuedBytes += bytes.length;
  }

  private seal(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.used === 0) return;
    this.enqueue(this.current.subarray(0, this.used), this.linesInCurrent);
    this.current = Buffer.allocUnsafe(this.size);
    this.used = 0;
    this.linesInCurrent = 0;
  }

  private readonly sealAndPump = (): void => {
    this.seal();
    this.pump();
  };

  private shift(): void {
    this.queuedBytes -= this.queue.shift()!.bytes.length;
    this.written = 0;
  }

  private pump(): void {
    if (this.writing) return;
    const head = this.queue[0];
    if (head === undefined) {
      if (this.dropped > 0) {
        // Said once the destination takes lines again, in the stream itself, where the gap is.
        const count = this.dropped;
        this.dropped = 0;
        this.enqueue(Buffer.from(this.notice(count)), 1);
        return this.pump();
      }
      const settled = this.waiters;
      this.waiters = [];
      for (const waiter of settled) waiter();
      return;
    }
    this.writing = true;
    this.io.write(this.fd, head.bytes, this.written, head.bytes.length - this.written, this.afterWrite);
  }

  private readonly afterWrite = (error: NodeJS.ErrnoException | null, count: number): void => {
    if (error && (error.code === 'EAGAIN' || error.code === 'EBUSY')) {
      // A full non-blocking pipe: the lines wait for the reader, they are not lost. The timer keeps
      // the process up: a shutdown waiting on flush() must not end before the lines are out.
      this.retrying = true;
      setTimeout(() => {
        this.retrying = false;
        this.writing = false;
        this.pump();
      }, this.retryMs);
      return;
    }
    this.writing = false;
    if (error) {
      // No reader (EPIPE) or no descriptor: this chunk cannot be delivered; count its lines.
      this.dropped += this.queue[0]!.lines;
      this.shift();
    } else {
      this.written += count;
      if (this.written >= this.queue[0]!.bytes.length) this.shift();
    }
    this.pump();
  };

  private writeAllSync(bytes: Buffer, from: number): void {
    const deadline = Date.now() + 1000;
    let offset = from;
    while (offset < bytes.length) {
      try {
        offset += this.io.writeSync(this.fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A full pipe gets a second to drain (the process is ending); anything else loses the rest.
        if ((code !== 'EAGAIN' && code !== 'EBUSY') || Date.now() > deadline) return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  }
}
