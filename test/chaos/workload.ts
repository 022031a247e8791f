// What clients do to the cluster while the faults run, written down as a history the checker reads
// (in the Jepsen manner): every request with its start, end and answer, whatever it was. Submits go to
// the replicas in turn; one that gets no clear answer is sent again with the same reference to the next
// replica, as an ERP would (a retry of a stored order is answered with its ids and records nothing).
// Every acknowledged order is read back at once from the replica that took it, and a reader keeps
// asking random replicas for random acknowledged orders. Every fifth order is cancelled right after
// (issue 59), sent again to the next replica until it has a clear answer, as a client would.
import { acmeOrder, ACME_KEY } from '../support/seed.js';

export type Answer = number | 'timeout' | 'error';

/** Every this many orders of a burst, one is cancelled once acknowledged. */
export const CANCEL_EVERY = 5;

export interface Operation {
  kind: 'submit' | 'retrieve' | 'cancel';
  phase: string;
  replica: number;
  reference?: string;
  /** The order id asked for (retrieve) or answered (submit). */
  orderId?: number;
  start: number;
  end: number;
  answer: Answer;
  /** The answer's JSON body, when it had one. */
  body?: unknown;
  /** A retrieve sent right after this client's own acknowledged submit. */
  afterOwnSubmit?: boolean;
}

export interface Workload {
  readonly history: Operation[];
  /** Submits `orders` new orders, `concurrency` at a time, and resolves when each has its final answer. */
  burst(phase: string, orders: number, concurrency: number): Promise<void>;
  /** Random reads of acknowledged orders from random replicas, until stopped. */
  startReader(phase: () => string): { stop(): Promise<void> };
}

/** `replicaUrl(i)`: the replica's URL now, undefined while it is down. */
export function workload(
  replicaUrl: (replica: number) => string | undefined,
  replicas: number,
  options: { timeoutMs?: number; attempts?: number } = {},
): Workload {
  const history: Operation[] = [];
  const acknowledged: { orderId: number; replica: number }[] = [];
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 4;
  let next = 0;
  let turn = 0;

  async function call(method: string, replica: number, path: string, body?: unknown): Promise<{ answer: Answer; body?: unknown }> {
    const url = replicaUrl(replica);
    if (!url) return { answer: 'error', body: 'replica down' };
    try {
      const response = await fetch(url + path, {
        method,
        headers: { authorization: `Api-Key ${ACME_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      return { answer: response.status, body: parsed };
    } catch (error) {
      return { answer: (error as Error).name === 'TimeoutError' ? 'timeout' : 'error', body: String((error as Error).message) };
    }
  }

  async function retrieve(phase: string, replica: number, orderId: number, afterOwnSubmit: boolean): Promise<void> {
    const start = Date.now();
    const { answer, body } = await call('GET', replica, `/api/v1/orders/detailed-orders/${orderId}/`);
    history.push({ kind: 'retrieve', phase, replica, orderId, start, end: Date.now(), answer, body, afterOwnSubmit });
  }

  async function submitOne(phase: string, reference: string): Promise<void> {
    const order = acmeOrder({ reference, send_email: false });
    for (let attempt = 0; attempt < attempts; attempt++) {
      const replica = turn++ % replicas;
      const start = Date.now();
      const { answer, body } = await call('POST', replica, '/api/v1/orders/submit-order/', order);
      const orderId = typeof (body as { order_id?: unknown })?.order_id === 'number' ? (body as { order_id: number }).order_id : undefined;
      history.push({
        kind: 'submit',
        phase,
        replica,
        reference,
        start,
        end: Date.now(),
        answer,
        body,
        ...(orderId === undefined ? {} : { orderId }),
      });
      if ((answer === 201 || answer === 200) && orderId !== undefined) {
        acknowledged.push({ orderId, replica });
        await retrieve(phase, replica, orderId, true);
        if (Number(reference.slice(reference.lastIndexOf('-') + 1)) % CANCEL_EVERY === 0) await cancelOne(phase, reference, orderId);
        return;
      }
      // A 4xx is the order's own fault and final; anything else may pass on another replica a little later.
      if (typeof answer === 'number' && answer >= 400 && answer < 500) return;
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }

  async function cancelOne(phase: string, reference: string, orderId: number): Promise<void> {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const replica = turn++ % replicas;
      const start = Date.now();
      const { answer, body } = await call('POST', replica, `/api/v1/orders/detailed-orders/${orderId}/cancel/`, { reason: 'chaos' });
      history.push({ kind: 'cancel', phase, replica, reference, orderId, start, end: Date.now(), answer, body });
      if (answer === 200 || (typeof answer === 'number' && answer >= 400 && answer < 500)) return;
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }

  return {
    history,
    async burst(phase, orders, concurrency) {
      const references = Array.from({ length: orders }, () => `CHAOS-${++next}`);
      let index = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (index < references.length) await submitOne(phase, references[index++]!);
        }),
      );
    },
    startReader(phase) {
      let stopped = false;
      const loop = (async () => {
        while (!stopped) {
          const pick = acknowledged[Math.floor(Math.random() * acknowledged.length)];
          if (pick) await retrieve(phase(), Math.floor(Math.random() * replicas), pick.orderId, false);
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
      })();
      return {
        async stop() {
          stopped = true;
          await loop;
        },
      };
    },
  };
}
