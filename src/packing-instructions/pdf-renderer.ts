// Renders packing instructions off the event loop, for downloads and e-mails alike.
import type { RecordedEvent } from '../eventstore/event-store.js';
import { WorkerPool } from '../workers/worker-pool.js';

/** Long enough for the largest plans measured (57 pages) many times over; a stuck render is cut off. */
const RENDER_LIMIT_MS = 60_000;

/** What the main thread sends the PDF worker. */
export interface PdfJob {
  events: RecordedEvent[];
  viewerUrl?: string;
}

export class PdfRenderer {
  private readonly pool: WorkerPool;

  constructor(threads = 1) {
    this.pool = new WorkerPool(new URL('./pdf-worker.js', import.meta.url), threads);
  }

  /**
   * The PDF of an order's stream; rejects when the order has no plan (see renderFromOrderStream).
   * With a viewerUrl, page 1 carries it as text and a QR code.
   */
  async render(orderStream: RecordedEvent[], options: { viewerUrl?: string } = {}): Promise<Buffer> {
    const job: PdfJob = { events: orderStream, viewerUrl: options.viewerUrl };
    // A Buffer crosses the thread boundary as a plain Uint8Array.
    const bytes = await this.pool.run<Uint8Array>(job, RENDER_LIMIT_MS);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
