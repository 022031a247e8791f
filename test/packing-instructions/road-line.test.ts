// Issue 57 in the PDF: each container of a TruckFTL order on a road gives the gross and each axle
// against its limit, and what the road left behind says why with its figures. The plan is the
// planner's own, made here.
import t from 'tap';
import { renderPackingInstructions } from '../../src/packing-instructions/render-packing-instructions.js';
import { DEFAULT_EFFORT, planOrder } from '../../src/planner/plan-order.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { plannerInput } from '../../src/planning/planner-input.js';
import { readPdfText } from './inspect-pdf.js';
import { GENERATED_AT, submittedOrder } from './sample-orders.js';

const row = (text: string) =>
  new RegExp(
    text
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
  );

t.test('a container on the EU road: its weight distribution line; a piece the road cannot take: the sentence why', async (t) => {
  const submitted = submittedOrder({
    transportation_mode: 'TruckFTL',
    order_items: [],
    loose_boxes: [],
    pre_builts: [
      {
        name: 'PB',
        length: '120.000000',
        width: '100.000000',
        height: '150.000000',
        weight: '1300.000000',
        count: 18,
        prebuiltitem_set: [],
        double_stacked_bottom: false,
        double_stacked_top: false,
        rotation_x: true,
      },
      {
        name: 'Press',
        length: '300.000000',
        width: '200.000000',
        height: '200.000000',
        weight: '25000.000000',
        count: 1,
        prebuiltitem_set: [],
        double_stacked_bottom: false,
        double_stacked_top: false,
        rotation_x: true,
      },
    ],
    order_containers: [{ code: '40ft', count: 1, exact: true }],
  });
  submitted.lane = { ...submitted.lane, units: { length: 'cm', weight: 'kg' }, road_profile: 'EU', container_codes: ['40ft'] };
  const plan = planOrder(new PlannerWasm(), plannerInput(submitted), { timeLimitMs: 10_000, effort: DEFAULT_EFFORT });
  const road = plan.containers[0]!.road!;
  t.ok(road.within_road_limits);
  const pdf = await renderPackingInstructions({ submitted, plan, generatedAt: GENERATED_AT });
  const { text } = await readPdfText(pdf);
  const kg = (g: number) => `${(g / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} kg`;
  t.match(
    text,
    row(
      `Road (EU): gross ${kg(road.gross_g)} of 40,000 kg; steer axle ${kg(road.axle_loads_g.steer)} of 10,000 kg; ` +
        `drive axles ${kg(road.axle_loads_g.drive)} of 11,500 kg, at least ${kg(road.drive_min_g)}; trailer axles ${kg(road.axle_loads_g.trailer)} of 24,000 kg: within the limits.`,
    ),
  );
  t.match(text, row("25,000 kg: over the 23,720 kg a 40ft may carry on the EU road (40,000 kg gross less the tractor's 7,700 kg"));
});
