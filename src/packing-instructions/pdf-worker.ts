// A worker thread that renders packing-instructions PDFs: pdfkit is synchronous CPU work that
// would otherwise hold up every HTTP request while a document is drawn. Like the planners, it runs
// nicer than the main thread (the niceness its pool is given): every planned order's e-mail has a
// PDF drawn, and at the main thread's priority those renders took the core that submits needed
// (docs/benchmarks.md).
import { parentPort, workerData } from 'node:worker_threads';
import type { PdfRenderRequest } from './pdf-renderer.js';
import type { WorkerReply } from '../workers/worker-pool.js';
import { renderFromOrderStream } from './render-from-order-stream.js';
import { prepareFonts } from './unicode-fonts.js';
import { lowerPriorityAsAsked } from '../workers/lower-thread-priority.js';
import { releaseHeapWhenIdle } from '../memory/release-heap-when-idle.js';

lowerPriorityAsAsked(workerData);
// A burst of renders leaves this thread's heap grown past the fonts it keeps.
releaseHeapWhenIdle();

const port = parentPort;
if (!port) throw new Error('pdf-worker must run in a worker thread');
port.on('message', ({ events, options }: PdfRenderRequest) => {
  renderFromOrderStream(events, options).then(
    (pdf) => port.postMessage({ ok: true, result: pdf } satisfies WorkerReply),
    (error: unknown) =>
      port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
  );
});
prepareFonts();
port.postMessage({ ready: true } satisfies WorkerReply);
