// Orders and load plans built by hand, shaped like the planner's: a realistic small order (two
// containers, layered pallets, pre-builts, loose boxes, one thing left behind) and a large one.
import { containerCogFigures } from '../../src/planner/container-cog.js';
import type { OrderPlanned, OrderSubmitted } from '../../src/orders/order-events.js';
import type { LooseBox, PreBuilt, SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';
import type {
  ContainerPlacement,
  OrderPlan,
  PalletUnit,
  PlannedContainer,
  PlannedPallet,
} from '../../src/packing-instructions/order-plan.js';

export const GENERATED_AT = new Date('2026-11-20T10:00:00.000Z');

const HC40 = { code: '40ft-HC', inner_mm: { l: 12032, w: 2352, h: 2698 }, payload_g: 26_500_000 };
const FT20 = { code: '20ft', inner_mm: { l: 5898, w: 2352, h: 2393 }, payload_g: 28_200_000 };
const EUR = { code: 'EUR', length_mm: 1200, width_mm: 800, deck_mm: 144, deck_g: 25_000 };

function decimal(n: number): string {
  return n.toFixed(6);
}

function preBuilt(name: string, l: number, w: number, h: number, kg: number, count: number, extra: Partial<PreBuilt> = {}): PreBuilt {
  return {
    name,
    length: decimal(l),
    width: decimal(w),
    height: decimal(h),
    weight: decimal(kg),
    count,
    prebuiltitem_set: [],
    double_stacked_bottom: false,
    double_stacked_top: false,
    rotation_x: true,
    ...extra,
  };
}

function looseBox(name: string, l: number, w: number, h: number, kg: number, count: number, extra: Partial<LooseBox> = {}): LooseBox {
  return {
    name,
    length: decimal(l),
    width: decimal(w),
    height: decimal(h),
    weight: decimal(kg),
    count,
    purchase_order: '',
    line_item_number: '',
    product_quantity: null,
    product_packages: null,
    double_stacked_bottom: true,
    double_stacked_top: true,
    rotation_x: true,
    rotation_y: true,
    rotation_z: true,
    ...extra,
  };
}

export function submittedOrder(order: Partial<SubmitOrderPayload> = {}): OrderSubmitted['data'] {
  return {
    order_id: 42,
    service_ref: 'SO-000042',
    company_group: 'acme',
    submitted_at: '2026-11-20T09:15:02.123456',
    lane: {
      id: 101,
      supplier: 'Acme Supplier Ltd',
      consignee: 'Globex Consignee GmbH',
      transportation_modes: ['OceanFCL', 'TruckFTL'],
      units: { length: 'mm', weight: 'kg' },
      pallet_types: [{ code: 'EUR', length: 1200, width: 800, height: 144, weight: 25, max_height: 1800, max_weight: 1000 }],
      container_codes: ['20ft', '40ft-HC'],
      items: [
        { sku: 'SKU-1001', length: 400, width: 300, height: 250, weight: 8, upright: true },
        { sku: 'SKU-2002', length: 600, width: 400, height: 300, weight: 15, upright: true },
        { sku: 'SKU-3003', length: 300, width: 200, height: 150, weight: 2.5, upright: false },
      ],
    },
    order: {
      supplier_name: 'Acme Supplier Ltd',
      consignee_name: 'Globex Consignee GmbH',
      reference: 'PO-2026-0042',
      transportation_mode: 'OceanFCL',
      shipment_type: 'normal',
      order_items: [
        { item: 'SKU-1001', quantity: '48.000000', purchase_order: 'PO-77', line_item_number: '1', notes: '' },
        { item: 'SKU-2002', quantity: '8.000000', purchase_order: 'PO-78', line_item_number: '1', notes: '' },
        { item: 'SKU-3003', quantity: '32.000000', purchase_order: 'PO-78', line_item_number: '2', notes: 'fragile' },
      ],
      pre_builts: [
        preBuilt('Machine parts crate', 1200, 1000, 1100, 450, 2, {
          prebuiltitem_set: [{ purchase_order: 'PO-90', line_item_number: '3', quantity: 12, packages: 4 }],
          double_stacked_bottom: true,
          double_stacked_top: true,
        }),
        preBuilt('Tall press frame', 1400, 1100, 2800, 900, 1, { rotation_x: false }),
      ],
      loose_boxes: [
        looseBox('Spare parts carton', 600, 400, 400, 18.5, 12, { purchase_order: 'PO-91', line_item_number: '7', product_quantity: 24 }),
        looseBox('Manuals box', 400, 300, 250, 6.25, 3, { rotation_x: true, rotation_y: false, rotation_z: false }),
      ],
      order_containers: [
        { code: '40ft-HC', count: 1 },
        { code: '20ft', count: 1 },
      ],
      customer_notes: 'Ramp 4, call the dock office 30 minutes before arrival.',
      send_email: true,
      extra_recipients: [],
      extra_cc_recipients: [],
      ...order,
    },
  };
}

interface UnitSpec {
  sku: string;
  purchase_order: string;
  line_item_number: string;
  l: number;
  w: number;
  h: number;
  g: number;
}

/** Fills layers of whole rows of one unit size each: `layers` lists the unit and how many layers of it. */
export function buildPallet(index: string, layers: { unit: UnitSpec; layers: number; take?: number }[]): PlannedPallet {
  const units: PalletUnit[] = [];
  let z = 0;
  let grams = EUR.deck_g;
  for (const { unit, layers: count, take } of layers) {
    const across = Math.floor(EUR.width_mm / unit.w);
    const along = Math.floor(EUR.length_mm / unit.l);
    for (let layer = 0; layer < count; layer++) {
      let placed = 0;
      for (let i = 0; i < along; i++) {
        for (let j = 0; j < across; j++) {
          if (take !== undefined && placed >= take) continue;
          units.push({
            sku: unit.sku,
            purchase_order: unit.purchase_order,
            line_item_number: unit.line_item_number,
            x: i * unit.l,
            y: j * unit.w,
            z,
            l: unit.l,
            w: unit.w,
            h: unit.h,
          });
          grams += unit.g;
          placed += 1;
        }
      }
      z += unit.h;
    }
  }
  const contents = new Map<string, { sku: string; purchase_order: string; line_item_number: string; quantity: number }>();
  for (const u of units) {
    const key = `${u.sku}|${u.purchase_order}|${u.line_item_number}`;
    const line = contents.get(key) ?? { sku: u.sku, purchase_order: u.purchase_order, line_item_number: u.line_item_number, quantity: 0 };
    line.quantity += 1;
    contents.set(key, line);
  }
  return {
    pallet_index: index,
    pallet_code: EUR.code,
    length_mm: EUR.length_mm,
    width_mm: EUR.width_mm,
    height_mm: EUR.deck_mm + z,
    weight_g: grams,
    units,
    contents: [...contents.values()],
  };
}

const SKU_1001 = { sku: 'SKU-1001', purchase_order: 'PO-77', line_item_number: '1', l: 400, w: 300, h: 250, g: 8000 };
const SKU_2002 = { sku: 'SKU-2002', purchase_order: 'PO-78', line_item_number: '1', l: 600, w: 400, h: 300, g: 15000 };
const SKU_3003 = { sku: 'SKU-3003', purchase_order: 'PO-78', line_item_number: '2', l: 300, w: 200, h: 150, g: 2500 };

function container(spec: typeof HC40, index: number, placements: Omit<ContainerPlacement, 'loading_order'>[]): PlannedContainer {
  const { l, w, h } = spec.inner_mm;
  const volume = placements.reduce((sum, p) => sum + p.l * p.w * p.h, 0) / (l * w * h);
  const weight = placements.reduce((sum, p) => sum + p.weight_g, 0);
  return {
    ...spec,
    index,
    placements: placements.map((p, i) => ({ ...p, loading_order: i + 1 })),
    volume_utilization: volume,
    weight_utilization: weight / spec.payload_g,
    ...containerCogFigures(placements, spec.inner_mm),
  };
}

function palletPlacement(pallet: PlannedPallet, x: number, y: number): Omit<ContainerPlacement, 'loading_order'> {
  return {
    kind: 'pallet',
    ref: pallet.pallet_index,
    x,
    y,
    z: 0,
    l: pallet.length_mm,
    w: pallet.width_mm,
    h: pallet.height_mm,
    weight_g: pallet.weight_g,
  };
}

/** Boxes in columns of `perStack`, `across` columns wide, from x0 towards the door. */
function boxStacks(
  name: string,
  count: number,
  size: { l: number; w: number; h: number; g: number },
  x0: number,
  perStack: number,
  across: number,
  firstNumber = 1,
): Omit<ContainerPlacement, 'loading_order'>[] {
  return Array.from({ length: count }, (_, i) => {
    const column = Math.floor(i / perStack);
    return {
      kind: 'loose_box' as const,
      ref: `${name} #${firstNumber + i}`,
      x: x0 + Math.floor(column / across) * size.l,
      y: (column % across) * size.w,
      z: (i % perStack) * size.h,
      l: size.l,
      w: size.w,
      h: size.h,
      weight_g: size.g,
    };
  });
}

/** Two containers, three layered pallets, two stacked pre-builts, loose boxes, one crate left behind. */
export function samplePlan(): OrderPlan {
  const ap1 = buildPallet('AP1', [{ unit: SKU_1001, layers: 4 }]);
  const ap2 = buildPallet('AP2', [
    { unit: SKU_2002, layers: 2 },
    { unit: SKU_3003, layers: 1 },
    { unit: SKU_3003, layers: 1, take: 8 },
  ]);
  const ap3 = buildPallet('AP3', [{ unit: SKU_1001, layers: 4 }]);
  const crate = { l: 1200, w: 1000, h: 1100, g: 450_000 };
  const first = container(HC40, 1, [
    palletPlacement(ap1, 0, 0),
    palletPlacement(ap2, 0, 800),
    palletPlacement(ap3, 1200, 0),
    { kind: 'pre_built', ref: 'Machine parts crate #1', x: 1200, y: 800, z: 0, ...crate, weight_g: crate.g },
    { kind: 'pre_built', ref: 'Machine parts crate #2', x: 1200, y: 800, z: 1100, ...crate, weight_g: crate.g },
    ...boxStacks('Spare parts carton', 12, { l: 600, w: 400, h: 400, g: 18_500 }, 2400, 4, 3),
  ]);
  const second = container(FT20, 1, boxStacks('Manuals box', 3, { l: 400, w: 300, h: 250, g: 6_250 }, 0, 3, 1));
  return {
    pallets: [ap1, ap2, ap3],
    containers: [first, second],
    unplaced: [{ kind: 'pre_built', ref: 'Tall press frame', count: 1, reason: 'too_large_for_every_type' }],
  };
}

/** The OrderPlanned of the sample order (42, SO-000042) with this plan. */
export function plannedOrder(plan: OrderPlan): OrderPlanned<OrderPlan> {
  return {
    type: 'OrderPlanned',
    data: {
      order_id: 42,
      service_ref: 'SO-000042',
      reference: 'PO-2026-0042',
      company_group: 'acme',
      plan,
      planned_at: '2026-11-20T09:16:00.000000',
    },
  };
}

/** Three 40ft-HC: 40 pallets, 300 loose boxes in 120 submitted rows, pre-builts, one very mixed pallet. */
export function largeOrder(): { submitted: OrderSubmitted['data']; plan: OrderPlan } {
  const pallets: PlannedPallet[] = [];
  for (let i = 1; i <= 40; i++) {
    const sku = (n: number): UnitSpec => ({
      ...SKU_1001,
      sku: `SKU-${1000 + ((i * 7 + n) % 90)}`,
      purchase_order: `PO-${100 + i}`,
      line_item_number: String(n),
    });
    pallets.push(
      i === 40
        ? // One pallet of 64 different lines: its contents table has to run onto the next page.
          buildPallet(
            `AP${i}`,
            Array.from({ length: 8 }, (_, n) => ({
              unit: { ...SKU_3003, sku: `MIXED-ASSORTMENT-SKU-${n}`, line_item_number: String(n) },
              layers: 1,
            })),
          )
        : buildPallet(`AP${i}`, [
            { unit: sku(1), layers: 2 },
            { unit: { ...SKU_2002, sku: sku(2).sku, purchase_order: `PO-${100 + i}` }, layers: 1 },
            { unit: { ...SKU_3003, sku: sku(3).sku, purchase_order: `PO-${100 + i}` }, layers: 2, take: 10 },
          ]),
    );
  }
  // The mixed pallet: every unit its own purchase-order line.
  const mixed = pallets[39];
  if (mixed) {
    mixed.units.forEach((u, n) => {
      u.purchase_order = `PO-MIX-${Math.floor(n / 16)}`;
      u.line_item_number = String(n);
    });
    mixed.contents = mixed.units.map((u) => ({
      sku: u.sku,
      purchase_order: u.purchase_order,
      line_item_number: u.line_item_number,
      quantity: 1,
    }));
  }

  const rows = (offset: number) => (pallet: PlannedPallet, n: number) =>
    palletPlacement(pallet, Math.floor(n / 2) * 1200, (n % 2) * 800 + offset);
  const containers = [
    container(HC40, 1, pallets.slice(0, 20).map(rows(0))),
    container(HC40, 2, pallets.slice(20, 40).map(rows(0))),
    container(HC40, 3, boxStacks('Carton', 300, { l: 600, w: 400, h: 400, g: 12_000 }, 0, 6, 5)),
  ];
  const looseBoxes = Array.from({ length: 120 }, (_, i) =>
    looseBox(`Carton type ${i + 1}`, 600, 400, 400, 12, i < 60 ? 3 : 2, {
      purchase_order: `PO-${500 + i}`,
      line_item_number: String(i % 9),
    }),
  );
  const submitted = submittedOrder({
    reference: 'BIG-2026-7',
    order_items: [],
    pre_builts: [preBuilt('Crate', 1200, 1000, 1100, 450, 1)],
    loose_boxes: looseBoxes,
    order_containers: [{ code: '40ft-HC', count: 3 }],
  });
  return {
    submitted,
    plan: { pallets, containers, unplaced: [{ kind: 'pre_built', ref: 'Crate', count: 1, reason: 'out_of_containers' }] },
  };
}
