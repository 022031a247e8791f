// One container: what it is and how full, its drawn load plan, and the order to load it in.
import type { LaneUnits } from './lane-units.js';
import { formatLength, formatPercent, formatSize, formatTotalWeight, formatWeight } from './lane-units.js';
import { drawContainerViews, KIND_NAME } from './draw-container-views.js';
import type { ContainerPlacement, PlannedContainer } from './order-plan.js';
import { MUTED, type PageFlow } from './page-flow.js';
import { drawTable } from './tables.js';

export function containerTitle(container: PlannedContainer): string {
  return `${container.code} #${container.index}`;
}

export function drawContainerSection(flow: PageFlow, container: PlannedContainer, position: string, units: LaneUnits): void {
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
  flow.gap(6);

  drawContainerViews(flow, container, units.length);

  const sequence = container.placements.slice().sort((a, b) => a.loading_order - b.loading_order);
  const below = supportsOf(sequence);
  drawTable(flow, {
    title: `Loading sequence, ${title} (1 goes in first, against the back wall)`,
    columns: [
      { header: '#', weight: 4, align: 'right' },
      { header: 'What', weight: 16 },
      { header: 'Kind', weight: 12 },
      { header: `Position x / y / z (${units.length})`, weight: 17 },
      { header: `Size L x W x H (${units.length})`, weight: 17 },
      { header: `Weight (${units.weight})`, weight: 9, align: 'right' },
      { header: 'Stands on', weight: 11 },
    ],
    rows: sequence.map((p) => [
      String(p.loading_order),
      p.ref,
      KIND_NAME[p.kind],
      [p.x, p.y, p.z].map((v) => formatLength(v, units.length)).join(' / '),
      formatSize(p.l, p.w, p.h, units.length),
      formatWeight(p.weight_g, units.weight),
      p.z === 0 ? 'floor' : (below.get(p) ?? []).map((s) => `#${s.loading_order}`).join(', ') || 'see drawing',
    ]),
    empty: 'Nothing is loaded in this container.',
  });
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
