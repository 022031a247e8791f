// The 3D picture's painting order, the loading steps in words, the placards and the viewer link.
import t from 'tap';
import { paintingOrder } from '../../src/packing-instructions/isometric.js';
import { loadingRows, loadingSteps } from '../../src/packing-instructions/loading-steps.js';
import type { ContainerPlacement, PlannedContainer } from '../../src/packing-instructions/order-plan.js';
import { planColours } from '../../src/packing-instructions/placement-colours.js';
import { containerCogFigures } from '../../src/planner/container-cog.js';
import { readPdfText, renderInspected } from './inspect-pdf.js';
import { GENERATED_AT, samplePlan, submittedOrder } from './sample-orders.js';

const box = (x: number, y: number, z: number, l = 1000, w = 1000, h = 1000) => ({ x, y, z, l, w, h });

t.test('boxes are painted far to near: back before door, far side before near side, below before above', async (t) => {
  const back = box(0, 0, 0);
  const door = box(1000, 0, 0);
  const far = box(0, 1000, 0);
  const above = box(0, 0, 1000);
  const order = paintingOrder([door, above, back, far]);
  const at = (i: number) => order.indexOf(i);
  t.ok(at(2) < at(0), 'the back box before the one nearer the door');
  t.ok(at(3) < at(2), 'the far-side box before the near-side one');
  t.ok(at(2) < at(1), 'the bottom box before the one on it');
  // A long box beside a short one: a single depth key gets this wrong, the pairwise order does not.
  const long = box(0, 1000, 0, 3000, 1000, 500);
  const short = box(2000, 0, 0, 500, 1000, 2000);
  const pair = paintingOrder([short, long]);
  t.same(pair, [1, 0], 'the long far box first');
  t.same(paintingOrder([]), []);
});

function placement(
  loading_order: number,
  kind: ContainerPlacement['kind'],
  ref: string,
  at: Partial<ContainerPlacement>,
): ContainerPlacement {
  return { kind, ref, x: 0, y: 0, z: 0, l: 1200, w: 800, h: 1000, weight_g: 1000, loading_order, ...at };
}

function containerOf(placements: ContainerPlacement[]): PlannedContainer {
  const inner_mm = { l: 12000, w: 2350, h: 2390 };
  return {
    code: '40ft',
    index: 1,
    inner_mm,
    payload_g: 26_000_000,
    placements,
    volume_utilization: 0,
    weight_utilization: 0,
    ...containerCogFigures(placements, inner_mm),
  };
}

t.test('loading steps say what goes where in words, row by row from the back wall', async (t) => {
  const c = containerOf([
    placement(1, 'pallet', 'AP1', {}),
    placement(2, 'pallet', 'AP2', { y: 1550 }),
    placement(3, 'pallet', 'AP3', { x: 1200 }),
    placement(4, 'pallet', 'AP4', { x: 1200, y: 1550 }),
    placement(5, 'pallet', 'AP5', { x: 1200, z: 1000 }),
    placement(6, 'loose_box', 'Carton #1', { x: 2400, y: 775, l: 600, w: 800, h: 400 }),
  ]);
  t.same(
    loadingRows(c).map((r) => r.map((p) => p.loading_order)),
    [[1, 2], [3, 4, 5], [6]],
  );
  t.same(
    loadingSteps(c).map((s) => s.description),
    [
      'Row 1: 2 pallets AP1, AP2, left and right, on the floor, against the back wall',
      'Row 2: 3 pallets AP3, AP4, AP5, left and right, 2 high, against row 1',
      'Row 3: 1 box Carton #1, in the middle, on the floor, against row 2',
    ],
  );
  const blocks = loadingSteps(c, 2);
  t.same(
    blocks.map((s) => s.name),
    ['Rows 1-2', 'Row 3'],
    'past the limit, rows merge into blocks',
  );
});

t.test('a load moved off the back wall (its centre of gravity kept within limits): the steps say how far, in the lane unit', async (t) => {
  const c = containerOf([
    placement(1, 'pallet', 'AP1', { x: 4054 }),
    placement(2, 'pallet', 'AP2', { x: 5254 }),
    placement(3, 'pallet', 'AP3', { x: 6954 }),
  ]);
  t.same(
    loadingSteps(c, Infinity, 'cm').map((s) => s.description),
    [
      'Row 1: 1 pallet AP1, on the left, on the floor, 405.4 cm from the back wall',
      'Row 2: 1 pallet AP2, on the left, on the floor, against row 1',
      'Row 3: 1 pallet AP3, on the left, on the floor, 50 cm from row 2',
    ],
  );
});

t.test('colours: a pallet wears its SKU colour, rows their own, the same as the viewer gets', async (t) => {
  const plan = samplePlan();
  const colours = planColours(plan);
  const [ap1, ap2] = plan.containers[0]?.placements ?? [];
  t.ok(ap1 && ap2);
  if (!ap1 || !ap2) return;
  t.equal(colours.placement(ap1), colours.sku('SKU-1001'));
  t.equal(colours.placement(ap2), '#bab0ac', 'AP2 holds two SKUs: grey');
});

t.test('the viewer link prints as text and a QR code; each pallet gets a placard', async (t) => {
  const viewerUrl = 'http://127.0.0.1:8000/plans/SO-000042?token=1767225600.abc';
  const render = await renderInspected({ submitted: submittedOrder(), plan: samplePlan(), generatedAt: GENERATED_AT, viewerUrl });
  const { pages, total } = await readPdfText(render.pdf);
  t.match(pages[0] ?? '', viewerUrl);
  for (const ref of ['AP1', 'AP2', 'AP3']) {
    const placard = pages.find((p) => p.includes(`SO-000042/${ref}`));
    t.ok(placard, `${ref} has a placard`);
    t.match(placard ?? '', 'Order SO-000042 · PO-2026-0042');
  }
  t.match(pages[total - 2] ?? '', 'Container 40ft-HC #1, loading #2', 'the placard says where the pallet goes');
  const without = await renderInspected({ submitted: submittedOrder(), plan: samplePlan(), generatedAt: GENERATED_AT });
  const first = (await readPdfText(without.pdf, { partial: [1] })).pages[0] ?? '';
  t.notMatch(first, '3D load plan', 'no link, no line');
});
