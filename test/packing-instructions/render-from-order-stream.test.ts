import t from 'tap';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import type { OrderPlanningFailed, OrderSubmitted } from '../../src/orders/order-events.js';
import { OrderNotPlannedError, renderFromOrderStream } from '../../src/packing-instructions/render-from-order-stream.js';
import { readPdfText } from './inspect-pdf.js';
import { GENERATED_AT, plannedOrder, samplePlan, submittedOrder } from './sample-orders.js';

const STREAM = 'order:acme:PO-2026-0042';

function recorded<E extends { type: string; data: unknown }>(revision: number, event: E): RecordedEvent {
  return {
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    stream: STREAM,
    type: event.type,
    data: event.data,
    revision: BigInt(revision),
    position: BigInt(100 + revision),
    recordedAt: new Date('2026-11-20T09:15:03Z'),
  };
}

const submitted = (): OrderSubmitted => ({ type: 'OrderSubmitted', data: submittedOrder() });
const planned = plannedOrder;
const failed = (reason: string): OrderPlanningFailed => ({
  type: 'OrderPlanningFailed',
  data: { order_id: 42, service_ref: 'SO-000042', reason, failed_at: '2026-11-20T09:16:00.000000' },
});

t.test('renders the order as submitted with the latest plan of its stream', async (t) => {
  const first = samplePlan();
  const replanned = samplePlan();
  const [hc] = replanned.containers;
  if (hc) hc.code = '40ft';
  const events = [
    recorded(0, submitted()),
    recorded(1, planned(first)),
    recorded(2, { type: 'PackingInstructionsDownloaded', data: { order_id: 42, downloaded_at: '2026-11-20T09:20:00.000000' } }),
    recorded(3, planned(replanned)),
  ];
  // Given out of order on purpose: the stream's revisions decide which plan is the latest.
  const pdf = await renderFromOrderStream(
    [events[3], events[0], events[2], events[1]].filter((e) => e !== undefined),
    {
      generatedAt: GENERATED_AT,
    },
  );
  const { text } = await readPdfText(pdf, { first: 2 });
  t.match(text, 'Container 40ft #1');
  t.notMatch(text, 'Container 40ft-HC #1', 'the earlier plan is not used');
  t.match(text, 'PO-2026-0042');
  t.match(text, '2026-11-20 10:00:00 UTC');
});

t.test('an order without a plan has no packing instructions, and says why', async (t) => {
  await t.rejects(renderFromOrderStream([recorded(0, submitted())]), {
    name: 'OrderNotPlannedError',
    serviceRef: 'SO-000042',
    message: 'order SO-000042 has no load plan yet: planning has not finished',
  });
  const error = await renderFromOrderStream([recorded(0, submitted()), recorded(1, failed('planner timed out'))]).catch((e: unknown) => e);
  t.type(error, OrderNotPlannedError);
  t.match(error, { planningFailure: 'planner timed out', message: /planning failed: planner timed out/ });
});

t.test('events that are not an order stream, or a stored plan of another shape, fail with their reason', async (t) => {
  await t.rejects(renderFromOrderStream([]), /no OrderSubmitted/);
  const broken = recorded(1, { type: 'OrderPlanned', data: { plan: { containers: [] } } });
  await t.rejects(
    renderFromOrderStream([recorded(0, submitted()), broken]),
    /SO-000042: the stored plan has no pallets, containers and unplaced lists/,
  );
});
