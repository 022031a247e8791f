// One container: what it is and how full, its drawn load plan, and the order to load it in.
import type { LaneUnits } from './lane-units.js';
import { formatLength, formatPercent, formatSize, formatTotalWeight, formatWeight } from './lane-units.js';
import { drawContainerViews, KIND_NAME } from './draw-container-views.js';
import type { ContainerPlacement, PlannedContainer } from './order-plan.js';
import { ALERT, drawText, INK, MUTED, textHeight, type PageFlow } from './page-flow.js';
import { centerOfGravity, cogLimits, withinCogLimits } from '../planner/center-of-gravity.js';
import { drawIsometric, isometricHeight } from './draw-isometric.js';
import { paintingOrder } from './isometric.js';
import { loadingRows, loadingSteps, whereIs, type LoadingStep } from './loading-steps.js';
import type { PlanColours } from './placement-colours.js';
import { drawTable } from './tables.js';

export function containerTitle(container: PlannedContainer): string {
  return `${container.code} #${container.index}`;
}

export function drawContainerSection(
  flow: PageFlow,
  container: PlannedContainer,
  position: string,
  units: LaneUnits,
  colours: PlanColours,
): void {
  const title = containerTitle(container);
  if (!flow.atPageTop) flow.newPage();
  flow.startSection(`Container ${title}`);
  flow.paragraph(`Container ${title}`, { size: 18, bold: true });
  flow.paragraph(position, { size: 8, color: MUTED });
  flow.gap(2);
  const loadedG = container.placements.reduce((sum, p) => sum + p.weight_g, 0);
  const { l, w, h } = container.inner_mm;
  flow.paragraph(`Inner size ${formatSize(l, w, h, units.length)} ${units.length}   |   ${container.placements.length} placements`, {
    size: 10,
    bold: true,
  });
  flow.paragraph(
    `Volume used ${formatPercent(container.volume_utilization)}   |   ` +
      `Weight used ${formatPercent(container.weight_utilization)} ` +
      `(${formatTotalWeight(loadedG, units.weight)} of ${formatTotalWeight(container.payload_g, units.weight)} payload)`,
    { size: 10, bold: true },
  );
  const cog = centerOfGravity(container.placements);
  if (cog) {
    const limits = cogLimits(container.inner_mm);
    const within = withinCogLimits(cog, container.inner_mm);
    const range = ([a, b]: [number, number]): string => `${formatLength(a, units.length)}-${formatLength(b, units.length)}`;
    flow.paragraph(
      `Centre of gravity ${formatLength(cog.x, units.length)} ${units.length} from the back wall (allowed ${range(limits.x)}), ` +
        `${formatLength(cog.y, units.length)} from the left wall (allowed ${range(limits.y)}), ${formatLength(cog.z, units.length)} above the floor: ` +
        (within ? 'within the limits.' : 'OUTSIDE the limits: check the load before it leaves.'),
      { size: 9, bold: !within, color: within ? INK : ALERT },
    );
  }
  if (container.road) drawRoadLine(flow, container.road, units);
  const owners = new Map<string, number>();
  for (const p of container.placements) if (p.order) owners.set(p.order, (owners.get(p.order) ?? 0) + 1);
  if (owners.size > 0) {
    // a consolidated shipment: every order's cargo is named, so each consignee finds its own
    flow.paragraph(
      `Shared container of a consolidated shipment: ${[...owners].map(([ref, n]) => `${ref} ${n} placement${n === 1 ? '' : 's'}`).join(', ')}. ` +
        'The loading sequence names the order of each item.',
      { size: 9, bold: true },
    );
  }
  if (container.placements.length === 0) {
    // a container the order booked by count (spec 2.8) and the cargo does not need
    flow.paragraph(
      'Booked by the order, not needed: the cargo fits in the other containers. Nothing to load; the booking can be released.',
      { size: 10, bold: true },
    );
    return;
  }
  flow.gap(6);

  const order = paintingOrder(container.placements);
  drawPicture3d(flow, container, order, colours);
  drawContainerViews(flow, container, units.length, colours);
  const steps = loadingSteps(container, MAX_STEP_PICTURES, units.length);
  drawStepPictures(flow, container, order, colours, steps, title);

  const sequence = container.placements.slice().sort((a, b) => a.loading_order - b.loading_order);
  const below = supportsOf(sequence);
  const rowOf = new Map<ContainerPlacement, number>();
  loadingRows(container).forEach((row, i) => row.forEach((p) => rowOf.set(p, i + 1)));
  drawTable(flow, {
    title: `Loading sequence, ${title} (1 goes in first; left and right as seen from the door)`,
    columns: [
      { header: '#', weight: 4, align: 'right' },
      { header: 'What', weight: 18 },
      { header: 'Kind', weight: 12 },
      { header: 'Where', weight: 22 },
      { header: `Size L x W x H (${units.length})`, weight: 16 },
      { header: `Weight (${units.weight})`, weight: 9, align: 'right' },
    ],
    rows: sequence.map((p) => [
      String(p.loading_order),
      p.order ? `${p.ref} (${p.order})` : p.ref,
      KIND_NAME[p.kind],
      whereIs(p, rowOf.get(p) ?? 0, w, below.get(p) ?? []),
      formatSize(p.l, p.w, p.h, units.length),
      formatWeight(p.weight_g, units.weight),
    ]),
    empty: 'Nothing is loaded in this container.',
  });
}

/** The weight distribution on the road: gross and each axle against its limit, as the plan computed them. */
function drawRoadLine(flow: PageFlow, road: NonNullable<PlannedContainer['road']>, units: LaneUnits): void {
  const weight = (g: number) => formatTotalWeight(g, units.weight);
  const { axle_loads_g: load, axle_limits_g: limit } = road;
  const driveMin = road.drive_min_g > 0 ? `, at least ${weight(road.drive_min_g)}` : '';
  flow.paragraph(
    `Road (${road.profile}): gross ${weight(road.gross_g)} of ${weight(road.gross_limit_g)}; steer axle ${weight(load.steer)} of ${weight(limit.steer)}; ` +
      `drive axles ${weight(load.drive)} of ${weight(limit.drive)}${driveMin}; trailer axles ${weight(load.trailer)} of ${weight(limit.trailer)}: ` +
      (road.within_road_limits ? 'within the limits.' : 'OVER the limits: do not drive it loaded so.'),
    { size: 9, bold: !road.within_road_limits, color: road.within_road_limits ? INK : ALERT },
  );
}

/** More rows than this are shown in blocks, so one container's pictures stay within two pages. */
const MAX_STEP_PICTURES = 30;
const STEP_COLUMNS = 3;
const STEP_GUTTER = 10;
const STEP_CAPTION = { size: 7, maxHeight: 7 * 1.2 * 3 };

function drawPicture3d(flow: PageFlow, container: PlannedContainer, order: number[], colours: PlanColours): void {
  const height = Math.min(isometricHeight(container, flow.width), 160);
  flow.ensureRoom(height + 16);
  flow.paragraph('3D view from above the door, the near side open (as the side view below)', { size: 8, bold: true });
  flow.gap(2);
  drawIsometric(flow.doc, { container, order, colourOf: colours.placement }, { x: flow.left, y: flow.y, width: flow.width, height });
  flow.y += height;
  flow.gap(8);
}

function drawStepPictures(
  flow: PageFlow,
  container: PlannedContainer,
  order: number[],
  colours: PlanColours,
  steps: LoadingStep[],
  title: string,
): void {
  if (steps.length === 0) return;
  const cellWidth = (flow.width - STEP_GUTTER * (STEP_COLUMNS - 1)) / STEP_COLUMNS;
  const pictureHeight = isometricHeight(container, cellWidth);
  flow.ensureRoom(pictureHeight + 60);
  flow.heading(`Loading steps, ${title}: what goes in at each step (bright), on what is already in (pale)`, 10);
  // Each picture shows the container up to a little past the step: early rows stay large enough to see.
  const { l } = container.inner_mm;
  const reach = (step: LoadingStep): number => Math.max(...step.placements.map((p) => p.x + p.l));
  for (let start = 0; start < steps.length; start += STEP_COLUMNS) {
    const row = steps.slice(start, start + STEP_COLUMNS);
    const captionHeight = Math.max(...row.map((s) => textHeight(flow.doc, s.description, cellWidth, STEP_CAPTION)));
    flow.ensureRoom(pictureHeight + captionHeight + 8);
    const top = flow.y;
    row.forEach((step, i) => {
      const x = flow.left + i * (cellWidth + STEP_GUTTER);
      const last = Math.max(...step.placements.map((p) => p.loading_order));
      const inStep = new Set(step.placements);
      drawIsometric(
        flow.doc,
        {
          container,
          order,
          colourOf: colours.placement,
          shown: (p) => p.loading_order <= last,
          bright: (p) => inStep.has(p),
          length: Math.max(l * 0.4, reach(step) + l * 0.1),
        },
        { x, y: top, width: cellWidth, height: pictureHeight },
      );
      drawText(flow.doc, step.description, x, top + pictureHeight + 2, cellWidth, STEP_CAPTION);
    });
    flow.y = top + pictureHeight + captionHeight + 8;
  }
  flow.gap(4);
}

/** What each placement rests on: the placements whose top is its base and whose footprint overlaps. */
export function supportsOf(placements: readonly ContainerPlacement[]): Map<ContainerPlacement, ContainerPlacement[]> {
  const byTop = new Map<number, ContainerPlacement[]>();
  for (const p of placements) {
    const top = p.z + p.h;
    const list = byTop.get(top);
    if (list) list.push(p);
    else byTop.set(top, [p]);
  }
  const supports = new Map<ContainerPlacement, ContainerPlacement[]>();
  for (const p of placements) {
    if (p.z === 0) continue;
    const under = (byTop.get(p.z) ?? []).filter((s) => s.x < p.x + p.l && p.x < s.x + s.l && s.y < p.y + p.w && p.y < s.y + s.w);
    supports.set(p, under);
  }
  return supports;
}
