import t from 'tap';
import { renderPackingInstructions } from '../../src/packing-instructions/render-packing-instructions.js';
import { outOfBounds, readPdfText, renderInspected } from './inspect-pdf.js';
import { GENERATED_AT, largeOrder, samplePlan, submittedOrder } from './sample-orders.js';

/**
 * Cells in this order, with any white space between and inside them: pdf-parse separates cells
 * by a space or a tab, and a cell's text may wrap onto a second line.
 */
function row(...cells: string[]): RegExp {
  const words = cells.flatMap((c) => c.split(/\s+/)).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(words.join('\\s+'));
}

t.test('a realistic order renders as a readable packing-instructions PDF', async (t) => {
  const pdf = await renderPackingInstructions({ submitted: submittedOrder(), plan: samplePlan(), generatedAt: GENERATED_AT });
  t.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-', 'a PDF file');
  const { text, total, pages } = await readPdfText(pdf);

  t.ok(total >= 9 && total <= 14, `header, two containers, pallets, submitted cargo and 3 placards on 9 to 14 pages (got ${total})`);
  const first = pages[0] ?? '';
  for (const expected of [
    'Packing instructions',
    'SO-000042',
    'PO-2026-0042',
    'Acme Supplier Ltd -> Globex Consignee GmbH',
    'OceanFCL',
    'Normal',
    '101 (lengths in mm, weights in kg)',
    '2026-11-20 09:15:02 UTC',
    '2026-11-20 10:00:00 UTC',
    'Ramp 4, call the dock office',
  ]) {
    t.match(first, expected, `page 1 shows ${expected}`);
  }
  t.match(first, row('Containers used', '2 (1 x 40ft-HC, 1 x 20ft)'));
  t.match(first, row('Service-built pallets', '3 built, 3 loaded'));
  t.match(first, row('Pre-built pallets', '2 loaded of 3 submitted'), 'the press frame left behind shows as a shortfall');
  t.match(first, row('Loose boxes', '15 loaded of 15 submitted'));
  // 3 pallets 217 + 205 + 217 kg, 2 crates of 450 kg, 12 x 18.5 kg and 3 x 6.25 kg.
  t.match(first, row('Total loaded weight', '1,779.8 kg'));
  t.match(first, 'NOT LOADED: 1 item(s) could not be placed');
  t.match(
    first,
    row('Pre-built pallet', 'Tall press frame', '1', 'Too large for every container type of the order.'),
    'the unplaced reason is on page 1',
  );

  t.match(text, 'Container 40ft-HC #1');
  t.match(text, 'Container 20ft #1');
  t.match(text, row('Volume used 9.2%', '|', 'Weight used 6.6%'));
  t.match(text, 'BACK WALL (load first)');
  t.match(text, 'DOOR');
  const container1 = pages.find((p) => p.includes('Container 40ft-HC #1')) ?? '';
  t.match(container1, /14-17/, 'the top view numbers a stack of cartons with its loading orders');
  t.match(container1, row('Centre of gravity 1626 mm from the back wall (allowed 5414-6618)'), 'the centre of gravity with its limits');
  t.match(container1, 'OUTSIDE the limits', 'a load all at the back is flagged');
  t.match(text, row('Row 1: 2 pallets AP1, AP2, left and centre, on the floor, against the back wall'), 'steps in words');
  t.match(text, row('Row 3: 12 boxes Spare parts carton #1-12, 3 side by side, 4 high, against row 2'));
  t.match(text, row('1', 'AP1', 'Service-built pallet', 'row 1, left, floor', '1200 x 800 x 1144', '217'));
  t.match(text, row('5', 'Machine parts crate #2', 'Pre-built pallet', 'row 2, in the middle, on #4', '1200 x 1000 x 1100', '450'));
  t.match(text, row('17', 'Spare parts carton #12', 'Loose box', 'row 3, in the middle, on #16', '600 x 400 x 400', '18.5'));
  t.match(text, row('3', 'Manuals box #3', 'Loose box', 'row 1, left, on #2'));
  t.notMatch(text, '0 / 0 / 0', 'no coordinates');

  for (const pallet of ['AP1', 'AP2', 'AP3']) t.match(text, `Pallet ${pallet} (EUR)`);
  t.match(text, 'Goes into container 40ft-HC #1 as loading #2.');
  t.match(text, row('A', 'SKU-1001', 'PO-77', '1', '24'), 'AP1 holds 24 x SKU-1001');
  t.match(text, row('A', 'SKU-2002', 'PO-78', '1', '8'));
  t.match(text, row('B', 'SKU-3003', 'PO-78', '2', '24'));
  t.match(text, row('Total', '32'));
  t.match(text, row('Layer 4: base 750 mm above deck'));
  t.match(text, '8 units: SKU-3003 x 8', 'the top layer of AP2 is a part layer of 8');

  t.match(text, row('Machine parts crate', '1200 x 1000 x 1100', '450', '2', '2', 'PO-90 / 3: 12, 4 pkg'));
  t.match(text, row('Tall press frame', '1400 x 1100 x 2800', '900', '1', '0'), 'the cargo list shows what stays behind');
  t.match(text, row('Spare parts carton', '600 x 400 x 400', '18.5', '12', '12', 'PO-91 / 7', '24 / -'));
  t.match(text, row('Manuals box', '400 x 300 x 250', '6.25', '3', '3'));
  t.match(text, row('Turn on the floor only'), 'a box that may only turn on the floor says so');
  t.match(pages[total - 1] ?? '', `Page ${total} of ${total}`);
});

t.test('the layout keeps every text on its page and never lets pdfkit break a page', async (t) => {
  const render = await renderInspected({ submitted: submittedOrder(), plan: samplePlan(), generatedAt: GENERATED_AT });
  t.equal(render.pagesInDocument, render.pagesStarted);
  t.same(outOfBounds(render), []);
  t.equal(render.drawn.filter((d) => d.footer).length, 2 * render.pagesInDocument, 'a footer on every page');
});

t.test('a large plan (3 containers, 40 pallets, 300 loose boxes) continues its tables on new pages', async (t) => {
  const large = largeOrder();
  const render = await renderInspected({ ...large, generatedAt: GENERATED_AT });
  t.equal(render.pagesInDocument, render.pagesStarted, 'no page was added by pdfkit on overflow');
  t.same(outOfBounds(render), [], 'no text outside the content area');

  const drawnOn = (text: string): number[] => render.drawn.filter((d) => d.text === text).map((d) => d.page);
  const continued = render.drawn.filter((d) => d.text.startsWith('Loading sequence, 40ft-HC #3') && d.text.includes('(continued)'));
  t.ok(continued.length >= 3, `the 300-row loading sequence runs over ${continued.length + 1} pages, titled on each`);
  t.same(drawnOn('Carton #300').length, 1, 'its last row is drawn');
  t.ok(drawnOn('#').length > 3 + continued.length - 1, 'column headers repeat on every continued page');
  t.equal(drawnOn('Carton type 120').length, 1, 'the last submitted loose box row is drawn');
  t.ok(
    render.drawn.some((d) => d.text === 'Contents of AP40 (continued)'),
    'a 128-line pallet continues its contents table',
  );
  t.ok(
    render.drawn.some((d) => d.text.endsWith('footprints show the key of the contents table.')),
    'SKUs too long for their footprints are drawn by key',
  );
  t.ok(
    render.drawn.some((d) => d.text === '16 units: H x 16'),
    'and the layer captions count by key',
  );
  for (let i = 1; i <= 40; i++) t.equal(drawnOn(`Pallet AP${i} (EUR)`).length, 1, `AP${i} has its section`);

  t.equal(render.drawn.filter((d) => /^AP\d+$/.test(d.text) && d.text.length > 0).length >= 40, true, 'a placard per pallet');
  const { pages } = await readPdfText(render.pdf, { last: 1 });
  const last = pages[0] ?? '';
  t.match(last, 'AP40', "the last page is the last pallet's placard");
  t.match(last, 'SO-000042/AP40', 'with its code under the QR code');
  t.match(last, `Page ${render.pagesInDocument} of ${render.pagesInDocument}`);
});

t.test('an order with neither pre-builts, loose boxes nor a plan that loads anything still renders', async (t) => {
  const submitted = submittedOrder({ pre_builts: [], loose_boxes: [] });
  const render = await renderInspected({
    submitted,
    plan: { pallets: [], containers: [], unplaced: [{ kind: 'unit', ref: 'SKU-1001', count: 48, reason: 'no_pallet_type' }] },
    generatedAt: GENERATED_AT,
  });
  t.equal(render.pagesInDocument, 1, 'just the order and its summary');
  const { text } = await readPdfText(render.pdf);
  t.match(text, row('Containers used', '0 (none)'));
  t.match(
    text,
    row('SKU units', 'SKU-1001', '48', 'The lane has no pallet type to build pallets on.'),
    'planner reason codes read as sentences',
  );
});

t.test('lane units: lengths and weights are shown in the lane units', async (t) => {
  const submitted = submittedOrder();
  submitted.lane.units = { length: 'in', weight: 'lb' };
  const pdf = await renderPackingInstructions({ submitted, plan: samplePlan(), generatedAt: GENERATED_AT });
  const { text } = await readPdfText(pdf, { first: 4 });
  t.match(text, '101 (lengths in inches, weights in pounds)');
  t.match(text, row('Total loaded weight', '3,923.7 lb'));
  t.match(text, 'Inner size 473.7 x 92.6 x 106.2 in');
  t.match(text, row('1', 'AP1', 'Service-built pallet', 'row 1, left, floor', '47.2 x 31.5 x 45', '478.4'));
  t.match(text, row('Centre of gravity 64 in from the back wall (allowed 213.2-260.5)'));
});

t.test('placements too small to number in the drawing are pointed to the loading sequence', async (t) => {
  const plan = samplePlan();
  const small = plan.containers[1];
  t.ok(small);
  if (!small) return;
  // 60 mm cubes: under 5 pt on the page, too small for any number.
  small.placements = Array.from({ length: 120 }, (_, i) => ({
    kind: 'loose_box' as const,
    ref: `Sample cube #${i + 1}`,
    x: (i % 40) * 60,
    y: 0,
    z: Math.floor(i / 40) * 60,
    l: 60,
    w: 60,
    h: 60,
    weight_g: 500,
    loading_order: i + 1,
  }));
  const render = await renderInspected({ submitted: submittedOrder(), plan, generatedAt: GENERATED_AT });
  const note = render.drawn.find((d) => d.text.endsWith('too small to number in the drawing: see the loading sequence below.'));
  t.ok(note, 'the container page says where the missing numbers are');
  t.match(note?.text ?? '', /^120 placement\(s\)/);
  t.ok(
    render.drawn.some((d) => d.text === 'Sample cube #120'),
    'and the sequence lists every one',
  );
  t.same(outOfBounds(render), []);
});

t.test('a booked container the cargo does not need gets a page that says so, and the summary counts it', async (t) => {
  const plan = samplePlan();
  const spare = {
    ...structuredClone(plan.containers[1]!),
    index: 3,
    placements: [],
    volume_utilization: 0,
    weight_utilization: 0,
    cargo_weight_g: 0,
    center_of_gravity_mm: null,
    within_cog_limits: true,
  };
  plan.containers.push(spare);
  const pdf = await renderPackingInstructions({ submitted: submittedOrder(), plan, generatedAt: GENERATED_AT });
  const { text, pages } = await readPdfText(pdf);
  t.match(text, /3 \(1 x 40ft-HC, 2 x 20ft\), 1 booked and not needed/, 'the summary');
  const page = pages.find((p) => /Container 20ft #3/.test(p)) ?? '';
  t.match(page, /0 placements/);
  t.match(
    page,
    /Booked by the order, not needed: the cargo fits in the other containers\. Nothing to load; the booking can\s+be released\./,
  );
  t.notMatch(page, /Loading sequence|Centre of gravity/, 'no drawings, steps or sequence for an empty container');
});
