// How the document reads the plan: summary figures, pallet layers and keys, what stands on what,
// and which placements share a spot in the container views.
import t from 'tap';
import { compressRuns } from '../../src/packing-instructions/box-labels.js';
import { supportsOf } from '../../src/packing-instructions/container-section.js';
import { sideViewSpots, topViewSpots } from '../../src/packing-instructions/draw-container-views.js';
import type { ContainerPlacement } from '../../src/packing-instructions/order-plan.js';
import { groupContents, keyFor, layerColumns, palletLayers, skuKeys } from '../../src/packing-instructions/pallet-layers.js';
import { locatePallets, summarizePlan } from '../../src/packing-instructions/plan-summary.js';
import { buildPallet, samplePlan, submittedOrder } from './sample-orders.js';

function placement(loading_order: number, at: Partial<ContainerPlacement>): ContainerPlacement {
  return {
    kind: 'loose_box',
    ref: `Box #${loading_order}`,
    x: 0,
    y: 0,
    z: 0,
    l: 600,
    w: 400,
    h: 400,
    weight_g: 1000,
    loading_order,
    ...at,
  };
}

t.test('the summary counts what is loaded against what was submitted', async (t) => {
  const summary = summarizePlan(submittedOrder().order, samplePlan());
  t.same(summary.containersByCode, [
    ['40ft-HC', 1],
    ['20ft', 1],
  ]);
  t.same(summary.loaded, { pallet: 3, pre_built: 2, loose_box: 15 });
  t.equal(summary.palletsBuilt, 3);
  t.equal(summary.preBuiltsSubmitted, 3, 'pre-built rows count their count');
  t.equal(summary.looseBoxesSubmitted, 15);
  t.equal(summary.loadedWeightG, 3 * 25_000 + 48 * 8_000 + 8 * 15_000 + 24 * 2_500 + 2 * 450_000 + 12 * 18_500 + 3 * 6_250);
});

t.test('each service-built pallet knows its container and loading order', async (t) => {
  const located = locatePallets(samplePlan());
  t.same(located.get('AP2'), { containerCode: '40ft-HC', containerIndex: 1, loadingOrder: 2 });
  t.equal(located.get('AP9'), undefined);
});

t.test('contents are grouped by SKU, purchase order and line with quantities summed (spec 2.2)', async (t) => {
  const grouped = groupContents([
    { sku: 'A', purchase_order: 'PO-1', line_item_number: '1', quantity: 2 },
    { sku: 'B', purchase_order: 'PO-1', line_item_number: '1', quantity: 1 },
    { sku: 'A', purchase_order: 'PO-1', line_item_number: '1', quantity: 3 },
    { sku: 'A', purchase_order: 'PO-1', line_item_number: '2', quantity: 4 },
    { sku: 'A', purchase_order: '', line_item_number: '', quantity: 1 },
  ]);
  t.same(grouped, [
    { sku: 'A', purchase_order: 'PO-1', line_item_number: '1', quantity: 5 },
    { sku: 'B', purchase_order: 'PO-1', line_item_number: '1', quantity: 1 },
    { sku: 'A', purchase_order: 'PO-1', line_item_number: '2', quantity: 4 },
    { sku: 'A', purchase_order: '', line_item_number: '', quantity: 1 },
  ]);
});

t.test('keys run A..Z then AA, AB, one per SKU', async (t) => {
  t.same([0, 1, 25, 26, 27, 51, 52, 701, 702].map(keyFor), ['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  const pallet = samplePlan().pallets[1];
  t.ok(pallet);
  if (pallet)
    t.same(
      [...skuKeys(pallet)],
      [
        ['SKU-2002', 'A'],
        ['SKU-3003', 'B'],
      ],
    );
});

t.test('units sharing a base height form a layer, bottom first, filled row by row', async (t) => {
  const unit = { sku: 'S', purchase_order: '', line_item_number: '', l: 400, w: 400, h: 250 };
  const layers = palletLayers([
    { ...unit, x: 400, y: 0, z: 250 },
    { ...unit, x: 0, y: 400, z: 0 },
    { ...unit, x: 0, y: 0, z: 0 },
    { ...unit, x: 0, y: 0, z: 250 },
  ]);
  t.same(
    layers.map((l) => [l.number, l.baseZ, l.units.map((u) => [u.x, u.y])]),
    [
      [
        1,
        0,
        [
          [0, 0],
          [0, 400],
        ],
      ],
      [
        2,
        250,
        [
          [0, 0],
          [400, 0],
        ],
      ],
    ],
  );
  const ap2 = buildPallet('AP2', [
    { unit: { sku: 'X', purchase_order: '', line_item_number: '', l: 600, w: 400, h: 300, g: 1 }, layers: 2 },
    { unit: { sku: 'Y', purchase_order: '', line_item_number: '', l: 300, w: 200, h: 150, g: 1 }, layers: 1, take: 5 },
  ]);
  t.same(
    palletLayers(ap2.units).map((l) => [l.baseZ, l.units.length]),
    [
      [0, 4],
      [300, 4],
      [600, 5],
    ],
  );
});

t.test('a layer with a strip of smaller cartons in columns as tall as the layer is one layer to build', async (t) => {
  const big = { sku: 'BIG', purchase_order: '', line_item_number: '', l: 500, w: 500, h: 400 };
  const small = { sku: 'SMALL', purchase_order: '', line_item_number: '', l: 150, w: 300, h: 200 };
  const layer = (z: number) => [
    { ...big, x: 0, y: 0, z },
    { ...big, x: 500, y: 0, z },
    { ...small, x: 1000, y: 0, z },
    { ...small, x: 1000, y: 0, z: z + 200 },
    { ...small, x: 1000, y: 300, z },
    { ...small, x: 1000, y: 300, z: z + 200 },
  ];
  const layers = palletLayers([...layer(0), ...layer(400)]);
  t.same(
    layers.map((l) => [l.number, l.baseZ, l.units.length]),
    [
      [1, 0, 6],
      [2, 400, 6],
    ],
    'two layers of 400 mm, not four',
  );
  t.same(
    layerColumns(layers[0]!.units).map((c) => [c.unit.sku, c.high]),
    [
      ['BIG', 1],
      ['BIG', 1],
      ['SMALL', 2],
      ['SMALL', 2],
    ],
  );

  // a carton on two others of another footprint is not a column: drawn by base height as before
  const bridging = [
    { ...big, x: 0, y: 0, z: 0 },
    { ...small, x: 500, y: 0, z: 0 },
    { ...small, x: 500, y: 0, z: 200 },
    { ...small, x: 500, y: 300, z: 200, l: 300, w: 150 },
  ];
  t.same(
    palletLayers(bridging).map((l) => l.baseZ),
    [0, 200],
    'by base height when a cut layer is not whole columns',
  );
});

t.test('what a placement stands on: overlapping footprints whose top is its base', async (t) => {
  const floor = placement(1, {});
  const beside = placement(2, { y: 400 });
  const onFloor = placement(3, { z: 400 });
  const bridging = placement(4, { x: 300, y: 200, z: 400, h: 200 });
  const onBoth = placement(5, { z: 800 });
  const supports = supportsOf([floor, beside, onFloor, bridging, onBoth]);
  t.equal(supports.has(floor), false, 'what stands on the floor stands on nothing');
  t.same(supports.get(onFloor), [floor]);
  t.same(supports.get(bridging), [floor, beside], 'a box across two others stands on both');
  t.same(supports.get(onBoth), [onFloor], 'only what ends exactly at its base carries it');
});

t.test('top view: a stack is one spot; side view: a row across the width is one spot', async (t) => {
  const a = placement(1, {});
  const b = placement(2, { z: 400 });
  const c = placement(3, { y: 400 });
  const d = placement(4, { y: 400, z: 400, h: 300 });
  const top = topViewSpots([a, b, c, d], 2352);
  t.same(
    top.map((s) => s.members.map((m) => m.placement.loading_order)),
    [
      [1, 2],
      [3, 4],
    ],
  );
  t.same(top[0]?.outline, { left: 0, top: 2352 - 400, width: 600, height: 400 }, 'y = 0 is the lower edge of the top view');

  const side = sideViewSpots([a, b, c, d], 2698);
  t.same(
    side.map((s) => s.members.map((m) => m.placement.loading_order)),
    [
      [3, 1],
      [4, 2],
    ],
    'the far side first, so the near one is drawn over it',
  );
  t.same(side[1]?.outline, { left: 0, top: 2698 - 800, width: 600, height: 400 }, 'the spot spans the taller member');
});

t.test('loading orders print as runs', async (t) => {
  t.equal(compressRuns([5]), '5');
  t.equal(compressRuns([4, 5]), '4,5');
  t.equal(compressRuns([9, 3, 4, 5, 12, 13]), '3-5,9,12,13');
});
