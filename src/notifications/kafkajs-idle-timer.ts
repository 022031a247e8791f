// kafkajs 2.2.4, its latest stable release, re-arms the timer of its pending-request check at every
// check, with the delay `throttledUntil - Date.now()`. With no broker throttling, throttledUntil is -1
// and the delay about minus the epoch, which Node runs after 1 ms (and on Node 24 warns about:
// TimeoutNegativeWarning). So every open broker connection woke the event loop
// about a thousand times a second, for as long as it was open, busy or idle (tulios/kafkajs#1751).
// The check is needed only while requests wait in its queue or a throttle is running: this replaces the
// method with kafkajs's own but for that case, in which it arms nothing. A request queued later arms it
// (push), and every answered or timed-out request runs the check (fulfillRequest, the timeout).
import { createRequire } from 'node:module';

/** What the patch reads and writes of kafkajs's RequestQueue (src/network/requestQueue/index.js). */
interface RequestQueue {
  throttledUntil: number;
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's CHECK_PENDING_REQUESTS_INTERVAL: how soon a queue with requests waiting looks again. */
const CHECK_PENDING_MS = 10;

const require = createRequire(import.meta.url);

/** kafkajs's internal RequestQueue class, as the driver loads it. */
export function kafkajsRequestQueue(): new (options: Record<string, unknown>) => RequestQueue {
  return require('kafkajs/src/network/requestQueue/index.js');
}

function scheduleCheckPendingRequests(this: RequestQueue): void {
  if (this.throttleCheckTimeoutId) return;
  const throttledFor = this.throttledUntil - Date.now();
  let delay: number;
  if (this.pending.length > 0) delay = throttledFor > 0 ? throttledFor : CHECK_PENDING_MS;
  else if (throttledFor > 0) delay = throttledFor;
  else return; // nothing waits and nothing throttles: nothing to look at
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delay);
}

/**
 * Replaces the method on kafkajs's class, once, when it is the version that re-arms without end (its
 * source subtracts the clock from throttledUntil and arms unconditionally). Another version is left as
 * it is. Returns whether the class now has the fixed method.
 */
export function stopKafkajsIdleTimer(): boolean {
  const proto = kafkajsRequestQueue().prototype;
  if (proto.scheduleCheckPendingRequests === scheduleCheckPendingRequests) return true;
  const source = String(proto.scheduleCheckPendingRequests);
  if (!source.includes('this.throttledUntil - Date.now()') || !source.includes('throttleCheckTimeoutId = setTimeout')) return false;
  proto.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  return true;
}
