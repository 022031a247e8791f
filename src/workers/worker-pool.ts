// A small pool of worker threads, one job at a time each, so that CPU-bound work (plans, PDFs)
// never blocks the event loop. A worker gets jobs once it says it is ready (start-up is not the job's time). A job past
// its hard time limit has its worker terminated (WebAssembly, for one, cannot be interrupted otherwise)
// and replaced; the job fails with JobTimeoutError.
import { Worker } from 'node:worker_threads';
import { FairQueue } from './fair-queue.js';

export class JobTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`worker job exceeded its time limit of ${limitMs} ms`);
    this.name = 'JobTimeoutError';
  }
}

interface Job {
  payload: unknown;
  hardLimitMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Set by close() while it waits for the running job to end. */
  onIdle?: () => void;
}

/** Messages from a worker: { ready: true } once, then per job { ok: true, result } or { ok: false, error }. */
export type WorkerReply = { ready: true } | { ok: true; result: unknown } | { ok: false; error: string };

export class WorkerPool {
  private readonly slots: Slot[] = [];
  // one line per company group, served in turn: one group's hundred jobs do not stand in front of
  // another group's one
  private readonly queue = new FairQueue<Job>();
  private closed = false;
  /** Set when a worker died before it was ready (a broken build): respawning would only loop. */
  private broken: Error | undefined;

  /** `workerData`: given to every worker the pool starts (and restarts). */
  constructor(
    private readonly script: URL,
    size: number,
    private readonly workerData?: unknown,
  ) {
    for (let i = 0; i < Math.max(1, size); i++) this.slots.push(this.spawn());
  }

  /** `group`: whose work it is; jobs of different groups take turns for the workers. */
  run<T>(payload: unknown, hardLimitMs: number, group = ''): Promise<T> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<T>((resolve, reject) => {
      this.queue.push(group, { payload, hardLimitMs, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  /**
   * Fails the queued jobs and stops the workers. `finishRunningMs`: how long a running job may take to
   * end before its worker is terminated (0: at once, failing it). Terminating a thread in the middle of
   * its work can abort the whole process: Node 24 asserts ("close before init") when a worker is torn
   * down between creating a zlib stream and initialising it, which PDF rendering does all the time
   * (reproduced here in most runs that terminate workers repeatedly). A worker waited for is terminated idle.
   */
  async close(finishRunningMs = 0): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) job.reject(new Error('worker pool closed'));
    await Promise.all(
      this.slots.map(async (s) => {
        if (s.job && finishRunningMs > 0) await this.idle(s, finishRunningMs);
        if (s.timer) clearTimeout(s.timer);
        s.job?.reject(new Error('worker pool closed'));
        s.job = undefined;
        await s.worker.terminate();
      }),
    );
  }

  /**
   * The threads' memory as their isolates count it: V8 heaps, and what lives outside them (WebAssembly
   * memories, buffers). A thread being replaced or not yet started counts nothing.
   */
  async memoryBytes(): Promise<{ heap: number; external: number }> {
    const stats = await Promise.all(this.slots.map((s) => s.worker.getHeapStatistics().catch(() => undefined)));
    let heap = 0;
    let external = 0;
    for (const s of stats) {
      heap += s?.total_heap_size ?? 0;
      external += (s as { external_memory?: number } | undefined)?.external_memory ?? 0;
    }
    return { heap, external };
  }

  /** Resolves when the slot's job has ended (answered, failed, or its worker replaced), or after `ms`. */
  private idle(slot: Slot, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      slot.onIdle = done;
      function done(): void {
        clearTimeout(timer);
        slot.onIdle = undefined;
        resolve();
      }
    });
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.script, { workerData: this.workerData }), ready: false };
    slot.worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        slot.ready = true;
        this.dispatch();
      } else this.finish(slot, reply.ok ? undefined : new Error(reply.error), reply.ok ? reply.result : undefined);
    });
    slot.worker.on('error', (err) => this.replace(slot, err));
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new Error(`worker thread exited with code ${code}`));
    });
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => this.replace(slot, new JobTimeoutError(job.hardLimitMs)), job.hardLimitMs);
      slot.worker.postMessage(job.payload);
    }
  }

  private finish(slot: Slot, error: Error | undefined, result: unknown): void {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    if (job) {
      if (error) job.reject(error);
      else job.resolve(result);
    }
    slot.onIdle?.();
    this.dispatch();
  }

  /** Drops a worker that timed out or died, fails its job, and starts a fresh one in its place. */
  private replace(slot: Slot, error: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    this.slots.splice(i, 1);
    void slot.worker.terminate();
    job?.reject(error);
    slot.onIdle?.();
    if (this.closed) return;
    if (!slot.ready) {
      this.broken = new Error(`worker thread failed to start: ${error.message}`);
      for (const queued of this.queue.drain()) queued.reject(this.broken);
      return;
    }
    this.slots.splice(i, 0, this.spawn());
    this.dispatch();
  }
}
