// foldOrderDocuments, given/when/then: an order's documents folded from the log's events alone, as a
// repair stores them and the scrubber compares them; other orders' events and events past the read
// model's checkpoint are left out.
import t from 'tap';
import { foldOrderDocuments } from '../../projections/fold-order-documents.js';
import { recorded } from './given.js';

const submittedData = (order_id: number, reference: string) => ({
  order_id,
  service_ref: `SO-00000${order_id}`,
  company_group: 'G',
  submitted_at: '2026-11-20T09:15:02.123456',
  lane: { id: 101 },
  order: {
    reference,
    transportation_mode: 'TruckFTL',
    shipment_type: 'general',
    customer_notes: null,
    order_items: [],
    pre_builts: [],
    loose_boxes: [],
  },
});
const first = recorded({ type: 'OrderSubmitted', data: submittedData(1, 'A') }, 'order:G:A');
const other = recorded({ type: 'OrderSubmitted', data: submittedData(2, 'B') }, 'order:G:B');
const failed = recorded({
  type: 'OrderPlanningFailed',
  data: { order_id: 1, service_ref: 'SO-000001', reason: 'time limit', failed_at: '2026-11-20T09:15:13.000001' },
});
const events = [first, other, failed];

t.test(
  "given an order's events and another order's, when folded up to the last position, then both documents of that order only",
  async (t) => {
    const { order, pallets } = foldOrderDocuments(1, events, failed.position);
    t.equal(order?.view.id, 1);
    t.equal(order?.view.reference, 'A');
    t.equal(order?.stream, 'order:G:A');
    t.equal(order?.view.status, 'planning_failed');
    t.same(pallets, { status: 'failed', reason: 'time limit' });
  },
);

t.test('given events past the checkpoint, when folded up to an earlier position, then the later ones are left out', async (t) => {
  const { order, pallets } = foldOrderDocuments(1, events, other.position);
  t.equal(order?.view.status, 'submitted');
  t.same(pallets, { status: 'pending' });
});

t.test('given no event of the order, when folded, then there are no documents', async (t) => {
  t.same(foldOrderDocuments(7, events, failed.position), { order: undefined, pallets: undefined });
});
