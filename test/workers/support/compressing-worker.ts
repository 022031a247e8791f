// A worker whose job compresses for the milliseconds it is given, as a PDF render does page by page
// (pdfkit deflates every page): for the pool's close-while-running tests.
import { deflateSync } from 'node:zlib';
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (job: { ms: number }) => {
  const until = performance.now() + job.ms;
  const page = Buffer.alloc(256, 7);
  let pages = 0;
  while (performance.now() < until) {
    deflateSync(page);
    pages += 1;
  }
  parentPort?.postMessage({ ok: true, result: pages });
});
parentPort?.postMessage({ ready: true });
