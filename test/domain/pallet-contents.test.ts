// The pallet-contents projection, given/when/then: per order, pending until its plan is recorded, then
// the service-built pallets in planner order with spec 2.2's four fields per line, or why planning failed.
import t from 'tap';
import { projectPalletContents } from '../../projections/pallet-contents.js';
import { recorded } from './given.js';

const submitted = {
  type: 'OrderSubmitted',
  data: { order_id: 3, service_ref: 'SO-000003', company_group: 'G', submitted_at: '2026-11-20T09:15:02.123456' },
};
const line = { sku: 'SKU-1', purchase_order: 'P', line_item_number: 'L', quantity: 4 };
const plan = {
  pallets: [
    {
      pallet_index: 'P1',
      pallet_code: 'EUR',
      length_mm: 1200,
      width_mm: 800,
      height_mm: 900,
      weight_g: 5000,
      units: [],
      contents: [{ ...line, unit_count: 2 }],
    },
    { pallet_index: 'P2', pallet_code: 'EUR', length_mm: 1200, width_mm: 800, height_mm: 400, weight_g: 2000, units: [], contents: [] },
  ],
  containers: [],
};
const planned = {
  type: 'OrderPlanned',
  data: { order_id: 3, service_ref: 'SO-000003', reference: 'PO-3', company_group: 'G', plan, planned_at: '2026-11-20T09:15:03.000001' },
};

t.test('given nothing, when OrderSubmitted, then the contents are pending', async (t) => {
  t.same(projectPalletContents(undefined, recorded(submitted)), { status: 'pending' });
});

t.test('given a submitted order, when OrderPlanned, then the pallets in planner order with the four fields of each line', async (t) => {
  const pending = projectPalletContents(undefined, recorded(submitted));
  t.same(projectPalletContents(pending, recorded(planned)), {
    status: 'planned',
    pallets: [
      { pallet_index: 'P1', pallet_code: 'EUR', contents: [line] },
      { pallet_index: 'P2', pallet_code: 'EUR', contents: [] },
    ],
  });
  t.same(pending, { status: 'pending' }, 'the earlier document is not mutated');
});

t.test('given a submitted order, when OrderPlanningFailed, then failed with the reason', async (t) => {
  const pending = projectPalletContents(undefined, recorded(submitted));
  const failed = { type: 'OrderPlanningFailed', data: { order_id: 3, service_ref: 'SO-000003', reason: 'time limit', failed_at: 'x' } };
  t.same(projectPalletContents(pending, recorded(failed)), { status: 'failed', reason: 'time limit' });
});

t.test('given a document, when an event of no concern or of an unknown type comes, then the document is unchanged', async (t) => {
  const pending = projectPalletContents(undefined, recorded(submitted));
  t.equal(
    projectPalletContents(pending, recorded({ type: 'PackingInstructionsDownloaded', data: { order_id: 3, downloaded_at: 'x' } })),
    pending,
  );
  t.equal(projectPalletContents(pending, recorded({ type: 'SomethingNewer', data: { order_id: 3 } })), pending);
});

t.test(
  'given a planned order, when it is amended, then the contents are pending again until the new plan; cancelled, they are gone',
  async (t) => {
    const before = projectPalletContents(projectPalletContents(undefined, recorded(submitted)), recorded(planned));
    const amended = projectPalletContents(before, recorded({ type: 'OrderAmended', data: { order_id: 3, version: 1 } }));
    t.same(amended, { status: 'pending' });
    t.same(projectPalletContents(amended, recorded({ ...planned, data: { ...planned.data, version: 1 } })), before, 'the new plan');
    t.same(projectPalletContents(before, recorded({ type: 'OrderPlanWithdrawn', data: { order_id: 3, version: 1 } })), {
      status: 'pending',
    });
    t.same(projectPalletContents(before, recorded({ type: 'OrderCancelled', data: { order_id: 3, reason: 'gone', cancelled_at: 'x' } })), {
      status: 'cancelled',
      cancelled_at: 'x',
      reason: 'gone',
    });
  },
);
