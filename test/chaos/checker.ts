// The chaos harness's checker, in the Jepsen manner: after the run it reads what is durable (the log,
// the Kafka topic, the replicas' counters) and the history of what clients were told, and says whether
// the promises held. Pure: the harness gathers the inputs, tests feed it histories by hand.
//
// A submit answered 201 or 200 with an order id is acknowledged; one answered otherwise (a 503, a
// reset, a timeout) is indeterminate: it may or may not be stored, and the checker only asks that it
// be stored at most once.
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import type { Operation } from './workload.js';

export interface KafkaRecord {
  key: string;
  eventId: string;
  value: { id?: string; data?: { order_id?: string; reference?: string } };
}

export interface ReplicaRuns {
  stored: number;
  failed: number;
  discarded: number;
  /** Runs whose order was amended or cancelled while they planned: no second planning, so not counted as runs. */
  superseded?: number;
  /** When its counters were last read, and when it was killed (undefined: it ran to the end). */
  countersAt: number;
  killedAt?: number;
}

export interface CheckInput {
  history: readonly Operation[];
  log: readonly RecordedEvent[];
  kafka: readonly KafkaRecord[];
  incarnations: readonly ReplicaRuns[];
}

export interface Finding {
  property: string;
  phase?: string;
  detail: string;
}

export interface CheckResult {
  ok: boolean;
  violations: Finding[];
  /** One line per property with its figures, violated or not. */
  lines: string[];
  /** Per phase: submits, acknowledged, indeterminate, violations. */
  phases: Map<
    string,
    { submits: number; acknowledged: number; indeterminate: number; retrieves: number; violations: number; latencies: number[] }
  >;
}

interface OrderFacts {
  orderId: number;
  stream: string;
  reference: string;
  serviceRef: string;
  submitted: RecordedEvent[];
  results: RecordedEvent[];
  /** Its OrderCancelled events (issue 59): one at most, and no result after it. */
  cancelled: RecordedEvent[];
}

/** The PostgreSQL log's deadline on one call (postgres-connection.ts): an append is answered within it, or fails. */
const LOG_CALL_DEADLINE_MS = 10_000;

const acknowledgedSubmit = (op: Operation) => op.kind === 'submit' && (op.answer === 201 || op.answer === 200) && op.orderId !== undefined;

export function check(input: CheckInput): CheckResult {
  const violations: Finding[] = [];
  const lines: string[] = [];
  const violate = (property: string, detail: string, phase?: string) => violations.push({ property, detail, ...(phase ? { phase } : {}) });

  // The log, order by order.
  const byId = new Map<number, OrderFacts>();
  const byReference = new Map<string, OrderFacts[]>();
  const byStream = new Map<string, OrderFacts>();
  for (const event of input.log) {
    if (event.type === 'OrderSubmitted') {
      const data = event.data as { order_id: number; service_ref: string; order: { reference: string } };
      const existing = byId.get(data.order_id);
      if (existing) {
        existing.submitted.push(event);
        continue;
      }
      const facts: OrderFacts = {
        orderId: data.order_id,
        stream: event.stream,
        reference: data.order.reference,
        serviceRef: data.service_ref,
        submitted: [event],
        results: [],
        cancelled: [],
      };
      byId.set(data.order_id, facts);
      byStream.set(event.stream, facts);
      byReference.set(facts.reference, [...(byReference.get(facts.reference) ?? []), facts]);
    } else if (event.type === 'OrderPlanned' || event.type === 'OrderPlanningFailed') {
      const facts = byStream.get(event.stream);
      if (facts) facts.results.push(event);
    } else if (event.type === 'OrderCancelled') {
      const facts = byStream.get(event.stream);
      if (facts) facts.cancelled.push(event);
    }
  }

  // 1. Every acknowledged submit is in the log exactly once, under the id it was answered with; no
  //    submit, acknowledged or not, is stored twice.
  const acknowledged = input.history.filter(acknowledgedSubmit);
  const ackedIds = new Set<number>();
  for (const op of acknowledged) {
    ackedIds.add(op.orderId!);
    const facts = byId.get(op.orderId!);
    if (!facts)
      violate(
        'acknowledged submits in the log',
        `order ${op.orderId} (${op.reference}) was answered ${op.answer} by replica ${op.replica + 1} but is not in the log`,
        op.phase,
      );
    else if (facts.reference !== op.reference)
      violate(
        'acknowledged submits in the log',
        `order ${op.orderId} was answered for ${op.reference} but the log has it for ${facts.reference}`,
        op.phase,
      );
  }
  const twice = [...byId.values()].filter((facts) => facts.submitted.length > 1);
  for (const facts of twice) violate('each order stored once', `order ${facts.orderId} has ${facts.submitted.length} OrderSubmitted`);
  for (const [reference, orders] of byReference)
    if (orders.length > 1)
      violate('each order stored once', `reference ${reference} is stored as orders ${orders.map((o) => o.orderId).join(', ')}`);
  const submittedReferences = new Set(input.history.filter((op) => op.kind === 'submit').map((op) => op.reference));
  const indeterminateStored = [...byReference.keys()].filter(
    (reference) => submittedReferences.has(reference) && !acknowledged.some((op) => op.reference === reference),
  ).length;
  lines.push(
    `acknowledged submits in the log exactly once: ${acknowledged.length} acknowledged (${ackedIds.size} orders), ${byId.size} orders in the log (${indeterminateStored} of them never acknowledged: stored, the client was not told), ${twice.length} stored twice`,
  );

  // 2. Planned exactly once: one result per order in the log (a cancelled one: at most one, none after
  //    its cancel), and the replicas' planner runs add up to it.
  let results = 0;
  for (const facts of byId.values()) {
    results += facts.results.length;
    const cancel = facts.cancelled[0];
    if (cancel ? facts.results.length > 1 : facts.results.length !== 1)
      violate(
        'planned exactly once',
        `order ${facts.orderId} (${facts.reference}) has ${facts.results.length} planning results in the log${cancel ? ' (cancelled)' : ''}`,
      );
    if (cancel && facts.results.some((event) => event.position > cancel.position))
      violate('planned exactly once', `order ${facts.orderId} (${facts.reference}) was planned after its cancel`);
  }
  // 2b. Every acknowledged cancel is in the log, once.
  const cancels = input.history.filter((op) => op.kind === 'cancel' && op.answer === 200);
  for (const op of cancels) {
    const facts = byId.get(op.orderId!);
    if (!facts || facts.cancelled.length === 0)
      violate(
        'acknowledged cancels in the log',
        `order ${op.orderId} was answered 200 to its cancel by replica ${op.replica + 1} but the log has no OrderCancelled`,
        op.phase,
      );
  }
  const cancelledTwice = [...byId.values()].filter((facts) => facts.cancelled.length > 1).length;
  if (cancelledTwice > 0) violate('acknowledged cancels in the log', `${cancelledTwice} order(s) with more than one OrderCancelled`);
  // after the other properties' lines, which keep their places
  const cancelLine = `acknowledged cancels in the log once, nothing planned after one: ${cancels.length} acknowledged, ${[...byId.values()].filter((f) => f.cancelled.length > 0).length} cancelled in the log`;
  const runs = input.incarnations.reduce((sum, i) => sum + i.stored + i.failed + i.discarded, 0);
  const discarded = input.incarnations.reduce((sum, i) => sum + i.discarded, 0);
  const superseded = input.incarnations.reduce((sum, i) => sum + (i.superseded ?? 0), 0);
  // A killed replica's runs counted after its counters were last read are lost with it. Such a run's
  // result was written at most one call deadline of the log before its counter moved, and before the
  // kill: at most the results recorded in that window can be such runs.
  const unseenAtMost = input.incarnations
    .filter((i) => i.killedAt !== undefined)
    .reduce(
      (sum, i) =>
        sum +
        input.log.filter(
          (e) =>
            (e.type === 'OrderPlanned' || e.type === 'OrderPlanningFailed') &&
            e.recordedAt.getTime() >= i.countersAt - LOG_CALL_DEADLINE_MS &&
            e.recordedAt.getTime() <= i.killedAt! + 1,
        ).length,
      0,
    );
  if (runs > results)
    violate(
      'planned exactly once',
      `orders_planner_runs_total sums to ${runs} over the replicas, for ${results} results (${discarded} discarded): some order was planned more than once`,
    );
  if (runs < results - unseenAtMost)
    violate(
      'planned exactly once',
      `orders_planner_runs_total sums to ${runs}, for ${results} results: more runs missing than a killed replica can explain (${unseenAtMost})`,
    );
  lines.push(
    `planned exactly once: ${results} results for ${byId.size} orders; orders_planner_runs_total summed over ${input.incarnations.length} replica processes = ${runs}${runs === results ? ' (equal)' : ` (${results - runs} run(s) of a killed replica finished after its counters were read)`}, ${discarded} discarded, ${superseded} superseded by a cancel or an amend`,
  );

  // 3. Kafka: every planned order's readiness is on the topic under its OrderPlanned's id, a cancelled
  //    order's cancel under its OrderCancelled's, and nothing else is.
  const planned = new Map<string, { facts: OrderFacts; eventIds: Set<string> }>();
  for (const facts of byId.values()) {
    const announced = [...facts.results.filter((event) => event.type === 'OrderPlanned'), ...facts.cancelled];
    if (announced.length > 0) planned.set(facts.serviceRef, { facts, eventIds: new Set(announced.map((event) => `evt_${event.id}`)) });
  }
  const perOrder = new Map<string, KafkaRecord[]>();
  for (const record of input.kafka) perOrder.set(record.key, [...(perOrder.get(record.key) ?? []), record]);
  let duplicates = 0;
  for (const [serviceRef, { facts, eventIds }] of planned) {
    const records = perOrder.get(serviceRef) ?? [];
    if (records.length === 0) violate('readiness on Kafka', `order ${facts.orderId} (${serviceRef}) is planned but no message arrived`);
    const ids = new Set(records.map((record) => record.eventId));
    if (records.length > 0 && (ids.size !== eventIds.size || [...ids].some((id) => !eventIds.has(id))))
      violate(
        'readiness on Kafka',
        `order ${serviceRef}: messages under event ids ${[...ids].join(', ')}, the log's OrderPlanned and OrderCancelled are ${[...eventIds].join(', ')}`,
      );
    duplicates += Math.max(0, records.length - eventIds.size);
  }
  for (const serviceRef of perOrder.keys())
    if (!planned.has(serviceRef)) violate('readiness on Kafka', `a message for ${serviceRef}, which the log has not planned`);
  lines.push(
    `one readiness message per event id on Kafka: ${input.kafka.length} messages for ${planned.size} planned orders, ${[...planned.keys()].filter((ref) => perOrder.has(ref)).length} of them with a message, ${duplicates} duplicate deliveries of the same event id`,
  );

  // 4. No retrieve after an acknowledgement answered 404.
  const ackedAt = new Map<number, number>();
  for (const op of acknowledged) ackedAt.set(op.orderId!, Math.min(op.end, ackedAt.get(op.orderId!) ?? Infinity));
  const retrieves = input.history.filter((op) => op.kind === 'retrieve');
  let notFound = 0;
  for (const op of retrieves) {
    const at = ackedAt.get(op.orderId!);
    if (op.answer === 404 && at !== undefined && op.start >= at) {
      notFound++;
      violate(
        'no 404 after a 201',
        `order ${op.orderId}: replica ${op.replica + 1} answered 404 ${op.start - at} ms after it was acknowledged (${JSON.stringify(op.body)})`,
        op.phase,
      );
    }
  }
  const answered = retrieves.filter((op) => op.answer === 200).length;
  lines.push(
    `no retrieve after a 201 answered 404: ${retrieves.length} retrieves (${retrieves.filter((op) => op.afterOwnSubmit).length} right after their own submit), ${answered} answered 200, ${retrieves.filter((op) => typeof op.answer !== 'number' || op.answer >= 500).length} unavailable, ${notFound} answered 404`,
  );

  // 5. No answer showed what the log does not hold: the order, its reference, and a status the log had reached when the answer was sent.
  let shown = 0;
  for (const op of input.history) {
    if (op.answer !== 200 && op.answer !== 201) continue;
    if (op.kind === 'retrieve') {
      const body = op.body as { id?: number; reference?: string; status?: string } | undefined;
      const facts = body?.id === undefined ? undefined : byId.get(body.id);
      shown++;
      if (!facts) {
        violate('answers the log explains', `replica ${op.replica + 1} showed order ${body?.id}, which the log does not hold`, op.phase);
        continue;
      }
      if (facts.reference !== body?.reference)
        violate(
          'answers the log explains',
          `replica ${op.replica + 1} showed order ${facts.orderId} as ${body?.reference}, the log has ${facts.reference}`,
          op.phase,
        );
      const submittedAt = facts.submitted[0]!.recordedAt.getTime();
      if (submittedAt > op.end + 1)
        violate('answers the log explains', `replica ${op.replica + 1} showed order ${facts.orderId} before the log held it`, op.phase);
      if (body?.status === 'planned' || body?.status === 'planning_failed') {
        const type = body.status === 'planned' ? 'OrderPlanned' : 'OrderPlanningFailed';
        const result = facts.results.find((event) => event.type === type);
        if (!result)
          violate(
            'answers the log explains',
            `replica ${op.replica + 1} showed order ${facts.orderId} ${body.status}, the log has no ${type}`,
            op.phase,
          );
        else if (result.recordedAt.getTime() > op.end + 1)
          violate(
            'answers the log explains',
            `replica ${op.replica + 1} showed order ${facts.orderId} ${body.status} before the log held its ${type}`,
            op.phase,
          );
      }
    }
  }
  lines.push(
    `no answer showed what the log does not hold: ${shown} orders shown, ${violations.filter((v) => v.property === 'answers the log explains').length} unexplained`,
  );

  lines.push(cancelLine);

  const phases: CheckResult['phases'] = new Map();
  for (const op of input.history) {
    const phase = phases.get(op.phase) ?? { submits: 0, acknowledged: 0, indeterminate: 0, retrieves: 0, violations: 0, latencies: [] };
    phases.set(op.phase, phase);
    if (op.kind === 'retrieve') phase.retrieves++;
    else if (op.kind === 'submit') {
      phase.submits++;
      if (acknowledgedSubmit(op)) {
        phase.acknowledged++;
        phase.latencies.push(op.end - op.start);
      } else if (!(typeof op.answer === 'number' && op.answer >= 400 && op.answer < 500)) phase.indeterminate++;
    }
  }
  for (const violation of violations) {
    const phase = violation.phase && phases.get(violation.phase);
    if (phase) phase.violations++;
  }
  return { ok: violations.length === 0, violations, lines, phases };
}
