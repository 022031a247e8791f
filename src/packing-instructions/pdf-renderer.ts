// Renders packing instructions off the event loop, for downloads and e-mails alike.
import type { RecordedEvent } from '../eventstore/event-store.js';
import { WorkerPool } from '../workers/worker-pool.js';
import type { NicenessData } from '../workers/lower-thread-priority.js';
import type { ComposedMail, MailFields } from '../notifications/mail-message.js';

export interface PdfRenderOptions {
  /** The share link to the order's 3D load plan, printed on the document. */
  viewerUrl?: string;
}

/** What the renderer thread is sent. */
export interface PdfRenderRequest {
  events: RecordedEvent[];
  options: PdfRenderOptions;
  /** An e-mail's: the answer is the message with the PDF attached (mail-message.ts), not the PDF. */
  mail?: MailFields;
}

/** Long enough for the largest plans' PDFs many times over (docs/benchmarks.md, bench:pdf); a stuck render is cut off. */
const RENDER_LIMIT_MS = 60_000;
/**
 * On close a render under way may finish for this long before its thread is terminated: terminating a
 * thread inside zlib (pdfkit compresses every page) aborts the process on Node 24 (worker-pool.ts).
 * Well within the service's shutdown timeout (10 s by default), and far longer than a render takes.
 */
const FINISH_ON_CLOSE_MS = 5_000;

/**
 * Company groups take turns for the render threads: one group's burst of downloads and e-mails does
 * not hold up another's.
 */
function groupOf(orderStream: RecordedEvent[]): string {
  return (orderStream[0]?.data as { company_group?: string } | undefined)?.company_group ?? '';
}

export class PdfRenderer {
  #pool: WorkerPool | undefined;
  #closed = false;
  readonly #threads: number;
  readonly #niceness: number;

  constructor(threads = 1, niceness = 0) {
    this.#threads = threads;
    this.#niceness = niceness;
  }

  /** The PDF of an order's stream; rejects when the order has no plan (see renderFromOrderStream). */
  async render(orderStream: RecordedEvent[], options: PdfRenderOptions = {}): Promise<Buffer> {
    // A Buffer crosses the thread boundary as a plain Uint8Array.
    const bytes = await this.#started().run<Uint8Array>(
      { events: orderStream, options } satisfies PdfRenderRequest,
      RENDER_LIMIT_MS,
      groupOf(orderStream),
    );
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /**
   * The e-mail of an order's stream, its PDF attached, composed in the renderer's thread: the main
   * thread is handed the message's bytes (their buffer moved, not copied) and sends or writes them.
   */
  async renderMessage(orderStream: RecordedEvent[], options: PdfRenderOptions, mail: MailFields): Promise<ComposedMail> {
    return this.#started().run<ComposedMail>(
      { events: orderStream, options, mail } satisfies PdfRenderRequest,
      RENDER_LIMIT_MS,
      groupOf(orderStream),
    );
  }

  /** Its threads' memory (WorkerPool.memoryBytes); none before the first render. */
  memoryBytes(): Promise<{ heap: number; external: number }> {
    return this.#pool?.memoryBytes() ?? Promise.resolve({ heap: 0, external: 0 });
  }

  close(): Promise<void> {
    this.#closed = true;
    return this.#pool?.close(FINISH_ON_CLOSE_MS) ?? Promise.resolve();
  }

  /**
   * The threads start with the first render, not with the service: loading pdfkit and preparing the fonts
   * cost each start a good part of its CPU (docs/benchmarks.md), which a replica or a restart that is never
   * asked for a PDF would spend for nothing. The first render waits for it instead.
   */
  #started(): WorkerPool {
    if (this.#closed) throw new Error('worker pool is closed');
    this.#pool ??= new WorkerPool(new URL('./pdf-worker.js', import.meta.url), this.#threads, {
      niceness: this.#niceness,
    } satisfies NicenessData);
    return this.#pool;
  }
}
