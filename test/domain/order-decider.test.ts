import t from 'tap';
import { decideSubmitOrder, type SubmitOrder } from '../../src/orders/order-decider.js';
import type { SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';
import { normalizedAcmeOrder, testSeed } from '../support/seed.js';
import { eventsFor, masterDataFrom } from './given.js';

const masterData = masterDataFrom(eventsFor(testSeed()));

const payload = normalizedAcmeOrder;

function when(order: SubmitOrderPayload, companyGroup = 'Acme Group', referenceTaken = false) {
  const command: SubmitOrder = { order, company_group: companyGroup, order_id: 7, service_ref: 'SO-000007', submitted_at: '2026-11-20T09:15:02.123456' };
  return decideSubmitOrder(command, { masterData, referenceTaken });
}

t.test('given the lane, when a valid order is submitted, then OrderSubmitted carries the order and a snapshot of the lane with only its items', async (t) => {
  const decision = when(payload());
  t.ok(decision.ok);
  if (!decision.ok) return;
  const [event] = decision.events;
  t.equal(event.type, 'OrderSubmitted');
  t.match(event.data, { order_id: 7, service_ref: 'SO-000007', company_group: 'Acme Group', submitted_at: '2026-11-20T09:15:02.123456' });
  t.equal(event.data.lane.id, 101);
  t.same(event.data.lane.items.map((item) => item.sku), ['SKU-1001']);
  t.same(event.data.lane.pallet_types[0]?.code, 'EUR');
  t.same(event.data.order, payload());
});

t.test('given an order with only loose boxes, when submitted, then no item master is needed', async (t) => {
  const decision = when(payload({ order_items: [], loose_boxes: [{ name: 'Carton', length: '40.000000', width: '30.000000', height: '20.000000', weight: '5.000000', count: 3, purchase_order: '', line_item_number: '', product_quantity: null, product_packages: null, double_stacked_bottom: false, double_stacked_top: false, rotation_x: true, rotation_y: true, rotation_z: true }] }));
  t.ok(decision.ok);
  if (decision.ok) t.same(decision.events[0].data.lane.items, []);
});

t.test('given the reference is taken, when submitted again, then the reference is rejected', async (t) => {
  t.same(when(payload(), 'Acme Group', true), { ok: false, errors: { reference: ['An order with this reference already exists.'] } });
});

t.test('given no lane with that supplier, when submitted, then supplier_name is named', async (t) => {
  const decision = when(payload({ supplier_name: 'acme supplier ltd' }));
  t.match(decision, { ok: false, errors: { supplier_name: [/case-sensitive/] } });
  t.notOk(!decision.ok && 'consignee_name' in decision.errors);
});

t.test('given no lane with that consignee, when submitted, then consignee_name is named', async (t) => {
  t.match(when(payload({ consignee_name: 'Nobody' })), { ok: false, errors: { consignee_name: [/Nobody/] } });
});

t.test('given supplier and consignee known only on different lanes, when submitted, then the pair is refused under non_field_errors', async (t) => {
  const seed = testSeed();
  const acme = seed.company_groups[0]!;
  acme.lanes.push({ ...acme.lanes[1]!, id: 103, supplier: 'Wayne Supplies', consignee: 'Initech Receiving' });
  const state = masterDataFrom(eventsFor(seed));
  const command: SubmitOrder = { order: payload({ supplier_name: 'Wayne Supplies' }), company_group: 'Acme Group', order_id: 1, service_ref: 'SO-000001', submitted_at: '' };
  t.same(decideSubmitOrder(command, { masterData: state, referenceTaken: false }), {
    ok: false,
    errors: { non_field_errors: ['No lane of your company group connects supplier "Wayne Supplies" to consignee "Globex Consignee GmbH".'] },
  });
});

t.test("given another group's lane, when this group submits on it, then the lane is not found", async (t) => {
  t.match(when(payload({ supplier_name: 'Other Supplier', consignee_name: 'Other Consignee' })), { ok: false, errors: { supplier_name: [/Other Supplier/], consignee_name: [/Other Consignee/] } });
});

t.test('given a lane that only accepts TruckFTL, when an OceanFCL order comes, then transportation_mode is named', async (t) => {
  t.match(when(payload({ consignee_name: 'Initech Receiving', order_items: [], loose_boxes: [], pre_builts: [], order_containers: [{ code: '20ft', count: 5 }] })), { ok: false, errors: { transportation_mode: [/does not accept OceanFCL/] } });
});

t.test('given containers not enabled on the lane, when submitted, then each is named by index', async (t) => {
  const decision = when(payload({ order_containers: [{ code: '40ft', count: 1 }, { code: '45ft-HC', count: 2 }] }));
  t.same(decision, { ok: false, errors: { order_containers: [{}, { code: ['Container code 45ft-HC is not enabled on lane 101; enabled: 20ft, 40ft, 40ft-HC.'] }] } });
});

t.test('given SKUs outside the item master, when submitted, then each is named by index', async (t) => {
  const decision = when(payload({ order_items: [
    { item: 'SKU-1001', quantity: '1.000000', purchase_order: '', line_item_number: '', notes: '' },
    { item: 'SKU-9999', quantity: '1.000000', purchase_order: '', line_item_number: '', notes: '' },
  ] }));
  t.same(decision, { ok: false, errors: { order_items: [{}, { item: ['SKU SKU-9999 is not in the item master of lane 101.'] }] } });
});
