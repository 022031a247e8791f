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

// nodemailer's composer costs a thread noticeable CPU to load: loaded with the first e-mail, not by a
// thread that only draws downloads, nor before the thread says it is ready
let mailMessage: Promise<typeof import('../notifications/mail-message.js')> | undefined;

const port = parentPort;
if (!port) throw new Error('pdf-worker must run in a worker thread');
port.on('message', ({ events, options, mail }: PdfRenderRequest) => {
  renderFromOrderStream(events, options)
    .then(async (pdf) => {
      if (!mail) return port.postMessage({ ok: true, result: pdf } satisfies WorkerReply);
      // an e-mail's message is composed here too; its bytes move to the main thread rather than being
      // copied, when they are a buffer of their own (a small Buffer shares Node's pool)
      mailMessage ??= import('../notifications/mail-message.js');
      const composed = await (await mailMessage).composeMessage(mail, pdf);
      const { raw } = composed;
      const own = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength && raw.buffer instanceof ArrayBuffer;
      port.postMessage({ ok: true, result: composed } satisfies WorkerReply, own ? [raw.buffer as ArrayBuffer] : []);
    })
    .catch((error: unknown) =>
      port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
    );
});
prepareFonts();
port.postMessage({ ready: true } satisfies WorkerReply);
