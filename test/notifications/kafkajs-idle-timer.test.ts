// Given kafkajs's request queue with nothing waiting and no throttle, when it checks its pending
// requests (as it does after every answered request), then it arms no timer: unpatched, it arms one of
// 1 ms that re-arms itself for as long as the connection is open. With requests waiting, or a broker's
// throttle running, it still looks again, as kafkajs does.
import t from 'tap';
import { kafkajsRequestQueue, stopKafkajsIdleTimer } from '../../src/notifications/kafkajs-idle-timer.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const queue = () => {
  const RequestQueue = kafkajsRequestQueue();
  return new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 't',
    broker: 'b:9092',
    logger: quiet,
  });
};

t.test("kafkajs's own method re-arms a 1 ms timer with nothing to do (what the patch is for)", async (t) => {
  // tap runs each file in a process of its own: nothing has patched kafkajs before this test
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  t.teardown(() => void process.off('warning', onWarning));
  const q = queue();
  let checks = 0;
  const check = q.checkPendingRequests.bind(q);
  q.checkPendingRequests = () => {
    checks++;
    check();
  };
  q.checkPendingRequests();
  await new Promise((resolve) => setTimeout(resolve, 100));
  clearTimeout(q.throttleCheckTimeoutId ?? undefined);
  q.throttleCheckTimeoutId = null;
  // re-armed at least twice: the figure is a timer count, fewer on a busy machine, never none
  t.ok(checks > 2, `${checks} checks in 100 ms of an idle queue`);
  // the line Node 24 prints for it (and this test's output shows): what the CI logs used to carry
  t.ok(warnings.includes('TimeoutNegativeWarning'), 'Node warned of the negative delay');
});

t.test('patched: an idle queue arms nothing; waiting requests and throttles still arm the check', async (t) => {
  t.ok(stopKafkajsIdleTimer(), 'the installed kafkajs is the version this fixes');
  t.ok(stopKafkajsIdleTimer(), 'patching twice is harmless');
  const idle = queue();
  idle.checkPendingRequests();
  t.equal(idle.throttleCheckTimeoutId, null, 'no timer while nothing waits and nothing throttles');

  const waiting = queue();
  waiting.pending.push({});
  waiting.throttledUntil = Date.now() + 60_000; // throttled: the request cannot go yet
  waiting.scheduleCheckPendingRequests();
  t.not(waiting.throttleCheckTimeoutId, null, 'a waiting request arms the check');
  clearTimeout(waiting.throttleCheckTimeoutId ?? undefined);

  const throttled = queue();
  throttled.throttledUntil = Date.now() + 60_000;
  throttled.scheduleCheckPendingRequests();
  t.not(throttled.throttleCheckTimeoutId, null, 'a running throttle arms the check for its end');
  clearTimeout(throttled.throttleCheckTimeoutId ?? undefined);
});
