// The drawn load plan of one container: a top view (length x width) and a side view (length x
// height) at one scale, back wall on the left and door on the right, each placement a rectangle
// numbered with its loading order. Things that share a spot in a view (a stack seen from above,
// pallets side by side seen from the side) share one rectangle listing all their numbers.
import type { LengthUnit } from '../master-data/master-data-document.js';
import { centerOfGravity, cogLimits, withinCogLimits } from '../planner/center-of-gravity.js';
import { compressRuns, drawLabel, fitLabel, type LabelCandidate } from './box-labels.js';
import { rowName } from './cargo-colours.js';
import { formatLength } from './lane-units.js';
import type { ContainerPlacement, PlacementKind, PlannedContainer } from './order-plan.js';
import { ALERT, drawText, MUTED, textWidth, type PageFlow } from './page-flow.js';
import type { PlanColours } from './placement-colours.js';

const COG_OK = '#1b5e20';
export const KIND_NAME: Record<PlacementKind, string> = {
  pallet: 'Service-built pallet',
  pre_built: 'Pre-built pallet',
  loose_box: 'Loose box',
};

/** Neither view grows taller than this, so both views and the start of the sequence fit one page. */
const MAX_VIEW_HEIGHT = 185;
const CAPTION = 11;
const END_MARKS = 10;
const WALL = '#333333';
const DOOR = ALERT;

/** A box in view units (mm): left edge along the length, top edge measured down from the view's top. */
interface ViewBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Placements that share one spot in a view, drawn in order and numbered together. */
interface ViewSpot {
  members: { placement: ContainerPlacement; box: ViewBox }[];
  /** Around all members: where the numbers go. */
  outline: ViewBox;
}

export interface DrawnViews {
  /** Placements whose rectangle was too small for their number in both views. */
  unnumbered: number;
}

export function drawContainerViews(flow: PageFlow, container: PlannedContainer, unit: LengthUnit, colours: PlanColours): DrawnViews {
  const { l, w, h } = container.inner_mm;
  const scale = Math.min(flow.width / l, MAX_VIEW_HEIGHT / Math.max(w, h));
  const height = 2 * 14 + 20 + 2 * (CAPTION + END_MARKS + 8) + (w + h) * scale + 24;
  flow.ensureRoom(height);

  drawLegend(flow, container, colours);
  const cog = centerOfGravity(container.placements);
  const limits = cogLimits(container.inner_mm);
  const cogColour = withinCogLimits(cog, container.inner_mm) ? COG_OK : ALERT;
  flow.paragraph(
    'Numbers are the loading order. In the side view one box holds everything side by side across the width. ' +
      '"25 +4": 25 is the one in sight, 4 more are under or behind it.',
    { size: 7.5, color: MUTED },
  );
  flow.gap(3);
  const numberedTop = drawView(flow, {
    caption: `Top view, looking down (${formatLength(l, unit)} x ${formatLength(w, unit)} ${unit})`,
    scale,
    size: [l, w],
    spots: topViewSpots(container.placements, w),
    colourOf: colours.placement,
    // The centre of gravity and its allowed box (5 % of the length and width around the middle).
    marks: (toPage) => {
      if (!cog) return;
      drawLimitBox(
        flow.doc,
        toPage({ left: limits.x[0], top: w - limits.y[1], width: limits.x[1] - limits.x[0], height: limits.y[1] - limits.y[0] }),
      );
      drawCross(flow.doc, toPage({ left: cog.x, top: w - cog.y, width: 0, height: 0 }), cogColour);
    },
  });
  const numberedSide = drawView(flow, {
    caption: `Side view, from the lower edge of the top view (${formatLength(l, unit)} x ${formatLength(h, unit)} ${unit})`,
    scale,
    size: [l, h],
    spots: sideViewSpots(container.placements, h),
    colourOf: colours.placement,
    marks: (toPage) => {
      if (!cog) return;
      drawLimitBox(flow.doc, toPage({ left: limits.x[0], top: 0, width: limits.x[1] - limits.x[0], height: h }));
      drawCross(flow.doc, toPage({ left: cog.x, top: h - cog.z, width: 0, height: 0 }), cogColour);
    },
  });
  const unnumbered = container.placements.filter((p) => !numberedTop.has(p) && !numberedSide.has(p)).length;
  if (unnumbered > 0) {
    flow.paragraph(`${unnumbered} placement(s) are too small to number in the drawing: see the loading sequence below.`, {
      size: 7,
      color: MUTED,
    });
  }
  flow.gap(6);
  return { unnumbered };
}

/** Colour key of what is in this container: each SKU, pre-built row and loose-box row, then the marks. */
function drawLegend(flow: PageFlow, container: PlannedContainer, colours: PlanColours): void {
  const doc = flow.doc;
  const entries = new Map<string, string>();
  for (const p of container.placements) {
    const name = p.kind === 'pallet' ? palletKey(p, colours) : `${rowName(p.ref)}`;
    if (!entries.has(name)) entries.set(name, colours.placement(p));
  }
  const shown = [...entries].slice(0, 24);
  const items: [string, (x: number, y: number) => void][] = shown.map(([name, colour]) => [
    name,
    (x, y) =>
      doc
        .lineWidth(0.5)
        .rect(x, y + 1, 14, 8)
        .fillAndStroke(colour, WALL),
  ]);
  if (entries.size > shown.length) items.push([`+${entries.size - shown.length} more`, () => undefined]);
  items.push([
    'Door end',
    (x, y) =>
      doc
        .lineWidth(3)
        .strokeColor(DOOR)
        .moveTo(x, y + 5)
        .lineTo(x + 14, y + 5)
        .stroke(),
  ]);
  items.push([
    'Centre of gravity and its limits',
    (x, y) => {
      drawLimitBox(doc, [x, y + 1, 14, 8]);
      drawCross(doc, [x + 7, y + 5, 0, 0], COG_OK);
    },
  ]);
  let x = flow.left;
  for (const [name, mark] of items) {
    const width = 18 + textWidth(doc, name, { size: 7.5 }) + 10;
    if (x + width > flow.right) {
      x = flow.left;
      flow.y += 12;
    }
    mark(x, flow.y);
    drawText(doc, name, x + 18, flow.y + 0.5, width, { size: 7.5, noWrap: true });
    x += width;
  }
  flow.y += 14;
}

function palletKey(p: ContainerPlacement, colours: PlanColours): string {
  const colour = colours.placement(p);
  const sku = colours.cargo.entries().find(([key, c]) => c === colour && key.startsWith('sku:'));
  return sku ? `${sku[0].slice(4)} pallets` : 'Mixed pallets';
}

function drawLimitBox(doc: PDFKit.PDFDocument, [x, y, w, h]: [number, number, number, number]): void {
  doc.lineWidth(0.8).strokeColor(COG_OK).dash(2, { space: 1.5 }).rect(x, y, w, h).stroke().undash();
}

function drawCross(doc: PDFKit.PDFDocument, [x, y]: [number, number, number, number], colour: string): void {
  const r = 4;
  doc
    .lineWidth(2.2)
    .strokeColor('#ffffff')
    .moveTo(x - r, y)
    .lineTo(x + r, y)
    .moveTo(x, y - r)
    .lineTo(x, y + r)
    .stroke();
  doc
    .lineWidth(1.2)
    .strokeColor(colour)
    .moveTo(x - r, y)
    .lineTo(x + r, y)
    .moveTo(x, y - r)
    .lineTo(x, y + r)
    .stroke();
  doc
    .lineWidth(0.8)
    .circle(x, y, r * 0.6)
    .stroke();
}

interface View {
  caption: string;
  scale: number;
  /** Width and height of the view in mm. */
  size: [number, number];
  spots: ViewSpot[];
  colourOf: (p: ContainerPlacement) => string;
  /** Drawn over the placements, with the view's mm-to-page mapping. */
  marks?: (toPage: (b: ViewBox) => [number, number, number, number]) => void;
}

/** Draws one view and returns the placements whose number is printed in it. */
function drawView(flow: PageFlow, view: View): Set<ContainerPlacement> {
  const doc = flow.doc;
  const [length, depth] = view.size;
  const frameWidth = length * view.scale;
  const frameHeight = depth * view.scale;
  const x0 = flow.left + (flow.width - frameWidth) / 2;

  drawText(doc, view.caption, flow.left, flow.y, flow.width, { size: 8, bold: true, noWrap: true });
  flow.y += CAPTION;
  drawText(doc, 'BACK WALL (load first)', x0, flow.y, 150, { size: 7, color: MUTED, noWrap: true });
  const doorText = 'DOOR';
  drawText(doc, doorText, x0 + frameWidth - textWidth(doc, doorText, { size: 7, bold: true }), flow.y, 60, {
    size: 7,
    bold: true,
    color: DOOR,
    noWrap: true,
  });
  flow.y += END_MARKS;
  const y0 = flow.y;

  doc.rect(x0, y0, frameWidth, frameHeight).fill('#fafafa');
  const numbered = new Set<ContainerPlacement>();
  const toPage = (b: ViewBox): [number, number, number, number] => [
    x0 + b.left * view.scale,
    y0 + b.top * view.scale,
    b.width * view.scale,
    b.height * view.scale,
  ];
  for (const spot of view.spots) {
    for (const { placement, box } of spot.members) {
      doc
        .lineWidth(0.5)
        .rect(...toPage(box))
        .fillAndStroke(view.colourOf(placement), '#444444');
    }
    const [x, y, w, h] = toPage(spot.outline);
    const placements = spot.members.map((m) => m.placement);
    const label = fitLabel(doc, labelCandidates(placements), w, h);
    if (!label) continue;
    drawLabel(doc, label, x, y, w, h);
    for (const p of placements) numbered.add(p);
  }

  view.marks?.(toPage);
  doc.lineWidth(1.5).strokeColor(WALL).rect(x0, y0, frameWidth, frameHeight).stroke();
  doc
    .lineWidth(3)
    .strokeColor(WALL)
    .moveTo(x0, y0)
    .lineTo(x0, y0 + frameHeight)
    .stroke();
  doc
    .lineWidth(3)
    .strokeColor(DOOR)
    .moveTo(x0 + frameWidth, y0)
    .lineTo(x0 + frameWidth, y0 + frameHeight)
    .stroke();
  flow.y = y0 + frameHeight + 8;
  return numbered;
}

/**
 * Pallets and pre-builts also show their names (AP3) when that is still readable; then all the
 * numbers; when even those do not fit, the number of the one in sight and how many hide under or
 * behind it ("25 +4").
 */
function labelCandidates(membersInDrawOrder: ContainerPlacement[]): LabelCandidate[] {
  const byOrder = membersInDrawOrder.slice().sort((a, b) => a.loading_order - b.loading_order);
  const numbers = compressRuns(byOrder.map((m) => m.loading_order));
  const candidates: LabelCandidate[] = [];
  if (byOrder.length <= 3 && byOrder.every((m) => m.kind !== 'loose_box')) {
    candidates.push({ lines: [numbers, byOrder.map((m) => shortRef(m.ref)).join(' / ')], minSize: 6 });
  }
  candidates.push({ lines: [numbers], minSize: byOrder.length > 1 ? 5 : 4 });
  const inSight = membersInDrawOrder[membersInDrawOrder.length - 1];
  if (inSight && byOrder.length > 1) candidates.push({ lines: [`${inSight.loading_order} +${byOrder.length - 1}`] });
  return candidates;
}

function shortRef(ref: string): string {
  return ref.length > 14 ? `${ref.slice(0, 13)}.` : ref;
}

/** Top view: y = 0 is the lower edge, so the side view below is seen from that edge. A stack is one spot. */
export function topViewSpots(placements: readonly ContainerPlacement[], innerWidth: number): ViewSpot[] {
  return spotsOf(
    placements,
    (p) => [p.x, p.y, p.l, p.w],
    // Lower first, so that what sits on top is drawn over what it stands on.
    (p) => p.z,
    (p) => ({ left: p.x, top: innerWidth - p.y - p.w, width: p.l, height: p.w }),
  );
}

/**
 * Side view: what stands at the same length and height across the width (pallets side by side,
 * a row of cartons) is one spot; the far side is drawn first, so the nearest row shows on top.
 */
export function sideViewSpots(placements: readonly ContainerPlacement[], innerHeight: number): ViewSpot[] {
  return spotsOf(
    placements,
    (p) => [p.x, p.z, p.l],
    (p) => -p.y,
    (p) => ({ left: p.x, top: innerHeight - p.z - p.h, width: p.l, height: p.h }),
  );
}

function spotsOf(
  placements: readonly ContainerPlacement[],
  spot: (p: ContainerPlacement) => number[],
  drawOrder: (p: ContainerPlacement) => number,
  box: (p: ContainerPlacement) => ViewBox,
): ViewSpot[] {
  const groups = new Map<string, ContainerPlacement[]>();
  for (const placement of placements) {
    const key = spot(placement).join(',');
    const group = groups.get(key);
    if (group) group.push(placement);
    else groups.set(key, [placement]);
  }
  const first = (members: ContainerPlacement[]): number => Math.min(...members.map(drawOrder));
  return [...groups.values()]
    .sort((a, b) => first(a) - first(b))
    .map((group) => {
      const members = group.sort((a, b) => drawOrder(a) - drawOrder(b)).map((placement) => ({ placement, box: box(placement) }));
      return { members, outline: around(members.map((m) => m.box)) };
    });
}

function around(boxes: ViewBox[]): ViewBox {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}
