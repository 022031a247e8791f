// The contract every OrderReadModel adapter keeps, run against each of them.
import type { OrderReadModel } from '../../../src/orders/read-model/order-read-model.js';
import type { RecordedEvent } from '../../../src/eventstore/event-store.js';
import type { OrderSubmitted } from '../../../src/orders/order-events.js';
import { DamagedDocument } from '../../../src/orders/read-model/document-checksum.js';

type TapTest = typeof import('tap').default;

export interface OpenedReadModel {
  readModel: OrderReadModel;
  /** Changes the stored document of the order as damage would, leaving its checksum as it was: `from` becomes `to` in its text. */
  damage(id: number, document: 'order' | 'pallet contents', from: string, to: string): Promise<void>;
  cleanup(): Promise<void>;
}

let position = 1000n;
export function recorded(type: string, data: unknown, stream = 'order:g:r'): RecordedEvent {
  position += 1n;
  return { id: `e${position}`, stream, type, data, revision: 0n, position, recordedAt: new Date() };
}

export function submitted(
  order_id: number,
  company_group: string,
  reference: string,
  mode: 'OceanFCL' | 'TruckFTL' = 'OceanFCL',
): RecordedEvent {
  const data: OrderSubmitted['data'] = {
    order_id,
    service_ref: `SO-${String(order_id).padStart(6, '0')}`,
    company_group,
    lane: {
      id: 1,
      supplier: 's',
      consignee: 'c',
      transportation_modes: [mode],
      units: { length: 'cm', weight: 'kg' },
      pallet_types: [],
      container_codes: ['40ft'],
      items: [],
    },
    order: {
      supplier_name: 's',
      consignee_name: 'c',
      reference,
      transportation_mode: mode,
      shipment_type: 'normal',
      order_items: [],
      pre_builts: [],
      loose_boxes: [],
      order_containers: [{ code: '40ft', count: 5 }],
      customer_notes: null,
      send_email: true,
      extra_recipients: [],
      extra_cc_recipients: [],
    },
    submitted_at: '2026-11-20T09:15:02.123456',
  };
  return recorded('OrderSubmitted', data, `order:${company_group}:${reference}`);
}

export function orderReadModelContract(t: TapTest, name: string, open: () => Promise<OpenedReadModel>): void {
  t.test(`${name}: order read model contract`, async (t) => {
    t.test('starts with no checkpoint and no orders', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      t.equal(await readModel.checkpoint(), undefined);
      t.equal(await readModel.getById(1), undefined);
      t.equal(await readModel.getViewJson(1), undefined);
      t.same(await readModel.list({ companyGroup: 'g', offset: 0, limit: 10 }), { count: 0, results: [] });
    });

    t.test('applies a batch and moves the checkpoint to its last event; a replayed batch changes nothing', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      const batch = [
        submitted(1, 'g', 'A'),
        recorded('OrderIdAllocated', { order_id: 2, service_ref: 'SO-000002' }),
        submitted(2, 'g', 'B'),
      ];
      t.equal(await readModel.apply(batch), 3, 'every event of the first batch applied');
      t.equal(await readModel.checkpoint(), batch[2]!.position);
      const downloaded = recorded('PackingInstructionsDownloaded', { order_id: 1, downloaded_at: '2026-11-21T00:00:00.000000' });
      t.equal(await readModel.apply([downloaded]), 1);
      t.equal(await readModel.apply([...batch, downloaded]), 0, 'a replayed batch applies nothing: no write counted');
      const order = await readModel.getById(1);
      t.equal(order?.view.packing_instructions_downloaded, true);
      t.equal(order?.view.updated_at, '2026-11-21T00:00:00.000000', 'the replayed OrderSubmitted did not reset the document');
      t.equal(await readModel.checkpoint(), downloaded.position);
      t.equal((await readModel.list({ companyGroup: 'g', offset: 0 })).count, 2);
      const asJson = await readModel.getViewJson(1);
      t.same(
        asJson && { ...asJson, viewJson: JSON.parse(asJson.viewJson) },
        { company_group: order!.company_group, viewJson: order!.view },
        'the view as JSON text is the same view',
      );
    });

    t.test('a cached view is the one getViewJson gives, and never what the model itself has since changed', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      await readModel.apply([submitted(1, 'g', 'A')]);
      const read = await readModel.getViewJson(1);
      const ready = readModel.readyViewJson(1);
      // an adapter that cannot answer synchronously answers undefined: retrieve then reads
      if (ready !== undefined) t.same(ready, read, 'the view given at once is the one read');
      t.equal(readModel.readyViewJson(2), undefined, 'no view of an order that is not there');
      await readModel.apply([
        recorded('PackingInstructionsDownloaded', { order_id: 1, downloaded_at: '2026-11-21T00:00:00.000000' }, 'order:g:A'),
      ]);
      const after = readModel.readyViewJson(1);
      t.ok(
        after === undefined || JSON.parse(after.viewJson).packing_instructions_downloaded === true,
        'its own write is never hidden by the cache',
      );
      t.same(await readModel.getViewJson(1), after ?? (await readModel.getViewJson(1)));
    });

    t.test('finds the newest order by reference, and by service_ref, within a group only', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      await readModel.apply([submitted(1, 'g', 'SAME'), submitted(2, 'other', 'SAME'), submitted(3, 'g', 'SAME')]);
      t.equal((await readModel.findNewest('g', 'SAME'))?.view.id, 3);
      t.equal((await readModel.findNewest('g', 'SO-000001'))?.view.id, 1);
      t.equal(await readModel.findNewest('g', 'SO-000002'), undefined, "another group's service_ref is not found");
      t.equal((await readModel.findNewest('other', 'SAME'))?.view.id, 2);
    });

    t.test('lists newest first with offset and limit, scoped and searched case-insensitively', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      const events = Array.from({ length: 12 }, (_, i) =>
        submitted(i + 1, i % 3 === 2 ? 'other' : 'g', `Ref-${i + 1}`, i % 2 ? 'TruckFTL' : 'OceanFCL'),
      );
      await readModel.apply(events);
      const page = await readModel.list({ companyGroup: 'g', offset: 2, limit: 3 });
      t.equal(page.count, 8);
      t.same(
        page.results.map((order) => order.view.id),
        [8, 7, 5],
      );
      const all = await readModel.list({ companyGroup: 'g', offset: 0 });
      t.same(
        all.results.map((order) => order.view.id),
        [11, 10, 8, 7, 5, 4, 2, 1],
      );
      t.same(
        (await readModel.list({ companyGroup: 'g', search: 'REF-1', offset: 0 })).results.map((order) => order.view.id),
        [11, 10, 1],
      );
      t.same(
        (await readModel.list({ companyGroup: 'g', search: 'truck', offset: 0 })).results.map((order) => order.view.id),
        [10, 8, 4, 2],
      );
      t.same(
        (await readModel.list({ companyGroup: 'g', search: 'so-000005', offset: 0 })).results.map((order) => order.view.id),
        [5],
      );
      t.equal(
        (await readModel.list({ companyGroup: 'g', search: 'so-000003', offset: 0 })).count,
        0,
        "another group's order is not found by search",
      );
    });

    t.test('keeps pallet contents per order: pending, planned, failed', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      await readModel.apply([submitted(1, 'g', 'A'), submitted(2, 'g', 'B')]);
      t.same(await readModel.palletContents(1), { status: 'pending' });
      const pallets = [
        { pallet_index: 'AP1', pallet_code: 'EUR', contents: [{ sku: 'S', purchase_order: '', line_item_number: '', quantity: 4 }] },
      ];
      await readModel.apply([
        recorded('OrderPlanned', {
          order_id: 1,
          service_ref: 'SO-000001',
          reference: 'A',
          company_group: 'g',
          plan: { pallets, containers: [] },
          planned_at: '2026-11-20T09:16:00.000000',
        }),
        recorded('OrderPlanningFailed', {
          order_id: 2,
          service_ref: 'SO-000002',
          reason: 'time limit',
          failed_at: '2026-11-20T09:16:00.000000',
        }),
      ]);
      t.same(await readModel.palletContents(1), { status: 'planned', pallets });
      t.same(await readModel.palletContents(2), { status: 'failed', reason: 'time limit' });
      t.equal(await readModel.palletContents(3), undefined);
    });

    t.test('the list filtered by status (issue 59); a child back in the list and its count once it leaves its shipment', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      const cancel = (id: number, reference: string) =>
        recorded(
          'OrderCancelled',
          {
            order_id: id,
            service_ref: `SO-00000${id}`,
            reference,
            company_group: 'g',
            reason: 'r',
            cancelled_at: '2026-11-20T10:00:00.000000',
            status_before: 'planned',
            packing_instructions_downloaded: false,
          },
          `order:g:${reference}`,
        );
      const planned = (id: number, reference: string, consolidated_into?: string) =>
        recorded('OrderPlanned', {
          order_id: id,
          service_ref: `SO-00000${id}`,
          reference,
          company_group: 'g',
          plan: { pallets: [], containers: [] },
          planned_at: '2026-11-20T09:16:00.000000',
          ...(consolidated_into ? { consolidated_into } : {}),
        });
      await readModel.apply([
        submitted(1, 'g', 'A'),
        submitted(2, 'g', 'B'),
        submitted(3, 'g', 'C'),
        planned(2, 'B'),
        planned(3, 'C', 'SO-000009'),
      ]);
      t.equal((await readModel.list({ companyGroup: 'g', offset: 0 })).count, 2, 'the child is not listed');
      await readModel.apply([cancel(1, 'A'), cancel(3, 'C')]);
      const ids = async (statuses?: ('submitted' | 'planned' | 'planning_failed' | 'cancelled')[], search?: string) => {
        const { count, results } = await readModel.list({
          companyGroup: 'g',
          offset: 0,
          ...(statuses ? { statuses } : {}),
          ...(search ? { search } : {}),
        });
        return { count, ids: results.map((o) => o.view.id) };
      };
      t.same(await ids(), { count: 3, ids: [3, 2, 1] }, 'every status by default; the cancelled child is listed again, and counted');
      t.same(await ids(['cancelled']), { count: 2, ids: [3, 1] });
      t.same(await ids(['planned', 'submitted']), { count: 1, ids: [2] });
      t.same(await ids(['cancelled'], 'so-000003'), { count: 1, ids: [3] }, 'with a search too');
      t.same(
        (await readModel.list({ companyGroup: 'g', statuses: ['cancelled'], offset: 1, limit: 1 })).results.map((o) => o.view.id),
        [1],
      );
    });

    t.test('a consolidated child leaves the list and its count, and is still found by id and reference', async (t) => {
      const { readModel, cleanup } = await open();
      t.teardown(cleanup);
      await readModel.apply([submitted(1, 'g', 'A'), submitted(2, 'g', 'B')]);
      t.equal((await readModel.list({ companyGroup: 'g', offset: 0 })).count, 2);
      const parent = submitted(3, 'g', 'CONSOLIDATED-SO-000003');
      (parent.data as OrderSubmitted['data']).consolidated_orders = ['SO-000001'];
      await readModel.apply([
        parent,
        recorded('OrderPlanned', {
          order_id: 1,
          service_ref: 'SO-000001',
          reference: 'A',
          company_group: 'g',
          plan: { pallets: [], containers: [] },
          planned_at: '2026-11-20T09:16:00.000000',
          consolidated_into: 'SO-000003',
        }),
      ]);
      const list = await readModel.list({ companyGroup: 'g', offset: 0 });
      t.same(
        list.results.map((o) => o.view.id),
        [3, 2],
        'newest first, without the child',
      );
      t.equal(list.count, 2, 'the count without the child');
      t.same(list.results[0]!.view.consolidated_orders, ['SO-000001'], 'the parent names its children');
      t.equal(
        (await readModel.list({ companyGroup: 'g', search: 'so-000001', offset: 0 })).count,
        0,
        'a search does not find the child either',
      );
      t.equal((await readModel.getById(1))?.view.consolidated_into, 'SO-000003', 'retrieve shows it with its parent');
      t.equal((await readModel.findNewest('g', 'A'))?.view.id, 1, 'found by reference');
    });

    t.test(
      'a document that does not match its checksum is never returned: every read and apply throw DamagedDocument naming it',
      async (t) => {
        const { readModel, damage, cleanup } = await open();
        t.teardown(cleanup);
        const events = [submitted(1, 'g', 'A'), submitted(2, 'g', 'B')];
        await readModel.apply(events);
        await damage(1, 'order', '"reference":"A"', '"reference":"X"');
        const damaged = { name: 'DamagedDocument', orderId: 1, document: 'order', streamHint: 'order:g:A' };
        await t.rejects(readModel.getById(1), damaged);
        await t.rejects(readModel.getViewJson(1), damaged);
        await t.rejects(readModel.findNewest('g', 'SO-000001'), damaged);
        await t.rejects(readModel.list({ companyGroup: 'g', offset: 0 }), damaged);
        t.equal((await readModel.getById(2))?.view.reference, 'B', 'the other order is served');
        const checkpoint = await readModel.checkpoint();
        const later = recorded('PackingInstructionsDownloaded', { order_id: 1, downloaded_at: '2026-11-21T00:00:00.000000' });
        await t.rejects(readModel.apply([later]), damaged, 'nothing is folded onto a damaged document');
        t.equal(await readModel.checkpoint(), checkpoint, 'and the checkpoint stays');

        await damage(2, 'pallet contents', 'pending', 'pendinG');
        await t.rejects(readModel.palletContents(2), {
          name: 'DamagedDocument',
          orderId: 2,
          document: 'pallet contents',
          streamHint: 'order:g:B',
        });
        t.equal((await readModel.getById(2))?.view.reference, 'B', 'its order document is still served');
      },
    );

    t.test('repair replaces both documents of the order by the fold of its events up to the checkpoint', async (t) => {
      const { readModel, damage, cleanup } = await open();
      t.teardown(cleanup);
      const pallets = [
        { pallet_index: 'AP1', pallet_code: 'EUR', contents: [{ sku: 'S', purchase_order: '', line_item_number: '', quantity: 34 }] },
      ];
      const order = [
        submitted(1, 'g', 'A'),
        recorded(
          'OrderPlanned',
          {
            order_id: 1,
            service_ref: 'SO-000001',
            reference: 'A',
            company_group: 'g',
            plan: { pallets, containers: [] },
            planned_at: '2026-11-20T09:16:00.000000',
          },
          'order:g:A',
        ),
      ];
      await readModel.apply([...order, submitted(2, 'g', 'B')]);
      const before = {
        order: await readModel.getById(1),
        view: await readModel.getViewJson(1),
        pallets: await readModel.palletContents(1),
        list: await readModel.list({ companyGroup: 'g', offset: 0 }),
      };
      await damage(1, 'order', '"reference":"A"', '"reference":"X"');
      await damage(1, 'pallet contents', '"quantity":34', '"quantity":84');
      await t.rejects(readModel.palletContents(1), DamagedDocument);
      const notYetApplied = recorded(
        'PackingInstructionsDownloaded',
        { order_id: 1, downloaded_at: '2026-11-21T00:00:00.000000' },
        'order:g:A',
      );
      await readModel.repair(1, [...order, notYetApplied]);
      t.same(await readModel.getById(1), before.order, 'the order as it was, without the event past the checkpoint');
      t.same(await readModel.getViewJson(1), before.view);
      t.same(await readModel.palletContents(1), before.pallets);
      t.same(await readModel.list({ companyGroup: 'g', offset: 0 }), before.list, 'the list and its count as they were');
      await readModel.apply([notYetApplied]);
      t.equal((await readModel.getById(1))?.view.packing_instructions_downloaded, true, 'the later event is applied once it comes');

      await readModel.repair(2, []);
      t.equal(await readModel.getById(2), undefined, 'an order the log does not hold is removed');
      t.equal(await readModel.palletContents(2), undefined);
    });
  });
}
