// The chaos checker on histories written by hand: each property it claims to check, seen to hold on a
// clean run and seen to fail on the run that breaks it.
import t from 'tap';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { check, type CheckInput, type KafkaRecord } from './checker.js';
import type { Operation } from './workload.js';

let position = 0n;
function event(type: string, stream: string, data: unknown, at: number): RecordedEvent {
  position += 1n;
  return {
    id: `00000000-0000-7000-8000-${String(position).padStart(12, '0')}`,
    stream,
    type,
    data,
    revision: 0n,
    position,
    recordedAt: new Date(at),
  };
}

const serviceRef = (id: number) => `SO-${String(id).padStart(6, '0')}`;
const submitted = (id: number, reference: string, at: number) =>
  event('OrderSubmitted', `order:g:${reference}`, { order_id: id, service_ref: serviceRef(id), order: { reference } }, at);
const planned = (reference: string, at: number) => event('OrderPlanned', `order:g:${reference}`, {}, at);
const message = (plannedEvent: RecordedEvent, id: number): KafkaRecord => ({
  key: serviceRef(id),
  eventId: `evt_${plannedEvent.id}`,
  value: {},
});
const submit = (reference: string, orderId: number | undefined, answer: Operation['answer'], start: number): Operation => ({
  kind: 'submit',
  phase: 'p',
  replica: 0,
  reference,
  ...(orderId === undefined ? {} : { orderId }),
  start,
  end: start + 10,
  answer,
  body: orderId === undefined ? {} : { order_id: orderId },
});
const retrieve = (orderId: number, answer: Operation['answer'], start: number, body: unknown = {}): Operation => ({
  kind: 'retrieve',
  phase: 'p',
  replica: 1,
  orderId,
  start,
  end: start + 5,
  answer,
  body,
});

/** Two orders submitted, acknowledged, read back, planned and announced: nothing to find. */
function clean(): CheckInput {
  const a = submitted(1, 'A', 1000);
  const b = submitted(2, 'B', 1100);
  const pa = planned('A', 1500);
  const pb = planned('B', 1600);
  return {
    history: [
      submit('A', 1, 201, 990),
      retrieve(1, 200, 1010, { id: 1, reference: 'A', status: 'submitted' }),
      submit('B', 2, 201, 1090),
      retrieve(2, 200, 2000, { id: 2, reference: 'B', status: 'planned' }),
    ],
    log: [a, b, pa, pb],
    kafka: [message(pa, 1), message(pb, 2)],
    incarnations: [
      { stored: 1, failed: 0, discarded: 0, countersAt: 3000 },
      { stored: 1, failed: 0, discarded: 0, countersAt: 3000 },
    ],
  };
}

t.test('a clean run: every property holds, each line gives its figures', async (t) => {
  const result = check(clean());
  t.strictSame(result.violations, []);
  t.ok(result.ok);
  t.match(result.lines.join('\n'), /2 acknowledged \(2 orders\), 2 orders in the log/);
  t.match(result.lines.join('\n'), /orders_planner_runs_total summed over 2 replica processes = 2 \(equal\)/);
  t.equal(result.phases.get('p')?.acknowledged, 2);
});

t.test('an acknowledged order missing from the log', async (t) => {
  const input = clean();
  const result = check({ ...input, history: [...input.history, submit('C', 3, 201, 1200)] });
  t.match(result.violations, [{ property: 'acknowledged submits in the log', detail: /order 3 \(C\).*not in the log/ }]);
});

t.test('an order stored twice, even one never acknowledged', async (t) => {
  const input = clean();
  const again = submitted(3, 'A', 1300);
  const result = check({ ...input, history: [...input.history, submit('A', undefined, 'timeout', 1290)], log: [...input.log, again] });
  t.match(
    result.violations.map((v) => v.property),
    ['each order stored once', 'planned exactly once'],
  );
  t.match(result.violations[0]?.detail, /reference A is stored as orders 1, 3/);
});

t.test('an indeterminate submit stored once is no violation', async (t) => {
  const input = clean();
  const c = submitted(3, 'C', 1300);
  const pc = planned('C', 1700);
  const result = check({
    ...input,
    history: [...input.history, submit('C', undefined, 503, 1290)],
    log: [...input.log, c, pc],
    kafka: [...input.kafka, message(pc, 3)],
    incarnations: [...input.incarnations, { stored: 1, failed: 0, discarded: 0, countersAt: 3000 }],
  });
  t.strictSame(result.violations, []);
  t.match(result.lines[0], /1 of them never acknowledged/);
  t.equal(result.phases.get('p')?.indeterminate, 1);
});

t.test('a plan made twice shows in the counters, and a result missing in the log', async (t) => {
  const input = clean();
  const twice = check({ ...input, incarnations: [...input.incarnations, { stored: 0, failed: 0, discarded: 1, countersAt: 3000 }] });
  t.match(twice.violations, [{ property: 'planned exactly once', detail: /sums to 3 .* for 2 results \(1 discarded\)/ }]);
  const unplanned = check({
    ...input,
    log: input.log.filter((e) => !(e.type === 'OrderPlanned' && e.stream === 'order:g:B')),
    kafka: input.kafka.slice(0, 1),
    incarnations: input.incarnations.slice(0, 1),
  });
  t.match(unplanned.violations, [{ property: 'planned exactly once', detail: /order 2 \(B\) has 0 planning results/ }]);
});

t.test(
  "a killed replica's runs after its counters were read: forgiven only as far as results written before its kill explain them",
  async (t) => {
    const input = clean();
    // The second replica was killed at 1650 having last been read at 1550: B's result (1600) may be its unseen run.
    const killed = check({
      ...input,
      incarnations: [input.incarnations[0]!, { stored: 0, failed: 0, discarded: 0, countersAt: 1550, killedAt: 1650 }],
    });
    t.strictSame(killed.violations, []);
    t.match(killed.lines[1], /1 run\(s\) of a killed replica finished after its counters were read/);
    const unexplained = check({ ...input, incarnations: [{ stored: 1, failed: 0, discarded: 0, countersAt: 3000 }] });
    t.match(unexplained.violations, [
      { property: 'planned exactly once', detail: /more runs missing than a killed replica can explain \(0\)/ },
    ]);
  },
);

t.test('Kafka: a planned order without a message, a message under another id, a message for an order not planned', async (t) => {
  const input = clean();
  const [, pb] = [input.log[2]!, input.log[3]!];
  const result = check({
    ...input,
    kafka: [
      { ...message(pb, 2), eventId: 'evt_other' },
      { key: serviceRef(9), eventId: 'evt_x', value: {} },
    ],
  });
  t.match(
    result.violations.map((v) => v.detail),
    [/SO-000001\) is planned but no message arrived/, /SO-000002: messages under event ids evt_other/, /a message for SO-000009/],
  );
  const duplicated = check({ ...input, kafka: [...input.kafka, input.kafka[1]!] });
  t.strictSame(duplicated.violations, [], 'the same event id delivered twice is allowed (consumers dedupe on it)');
  t.match(duplicated.lines[2], /1 duplicate deliveries/);
});

t.test('a 404 after the acknowledgement is a violation; one before it is not', async (t) => {
  const input = clean();
  const result = check({
    ...input,
    history: [...input.history, retrieve(1, 404, 1001, { detail: 'Not found.' }), retrieve(2, 404, 1050, { detail: 'Not found.' })],
  });
  t.equal(result.violations.length, 1);
  t.match(result.violations[0], { property: 'no 404 after a 201', detail: /order 1: replica 2 answered 404 1 ms after/ });
});

t.test('answers the log cannot explain: an order it lacks, another reference, a status reached later', async (t) => {
  const input = clean();
  const result = check({
    ...input,
    history: [
      ...input.history,
      retrieve(7, 200, 1200, { id: 7, reference: 'Z', status: 'submitted' }),
      retrieve(1, 200, 1200, { id: 1, reference: 'not-A', status: 'submitted' }),
      retrieve(2, 200, 1200, { id: 2, reference: 'B', status: 'planned' }),
    ],
  });
  t.match(
    result.violations.map((v) => v.detail),
    [/order 7, which the log does not hold/, /as not-A, the log has A/, /order 2 planned before the log held its OrderPlanned/],
  );
});

t.test('cancels (issue 59): one acknowledged and in the log holds; lost, planned after, or its message missing does not', async (t) => {
  const input = clean();
  const c = submitted(3, 'C', 1200);
  const cancelled = event('OrderCancelled', 'order:g:C', {}, 1300);
  const cancel = (answer: Operation['answer']): Operation => ({ ...submit('C', 3, answer, 1250), kind: 'cancel' });
  const withCancel: CheckInput = {
    ...input,
    history: [...input.history, submit('C', 3, 201, 1190), cancel(200)],
    log: [...input.log, c, cancelled],
    kafka: [...input.kafka, message(cancelled, 3)],
  };
  t.strictSame(check(withCancel).violations, [], 'cancelled before its plan: no result, its cancel on Kafka');
  const lost = check({ ...withCancel, log: [...input.log, c] }).violations;
  t.ok(
    lost.some((v) => v.property === 'acknowledged cancels in the log' && /order 3 was answered 200 to its cancel/.test(v.detail)),
    'a lost cancel',
  );
  const late = planned('C', 1400);
  t.match(
    check({
      ...withCancel,
      log: [...withCancel.log, late],
      kafka: [...withCancel.kafka, message(late, 3)],
      incarnations: [...input.incarnations, { stored: 1, failed: 0, discarded: 0, countersAt: 3000 }],
    }).violations,
    [{ property: 'planned exactly once', detail: /order 3 \(C\) was planned after its cancel/ }],
  );
  t.match(check(withCancel).lines.at(-1), /1 acknowledged, 1 cancelled in the log/);
  t.match(check({ ...withCancel, kafka: input.kafka }).violations, [{ property: 'readiness on Kafka', detail: /SO-000003/ }]);
});
