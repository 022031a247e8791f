// The viewer's input, read from the JSON data block the server put in the page, and the loading
// sequence the step slider walks through.
import type { ViewerData } from '../viewer-data.js';
import type { LoadPlanContainer, LoadPlanPlacement } from '../../load-plan/load-plan.js';

export type { ViewerData, LoadPlanContainer, LoadPlanPlacement };

export interface Step {
  container: LoadPlanContainer;
  /** Position of the container in the plan (0-based). */
  containerIndex: number;
  placement: LoadPlanPlacement;
}

export function readViewerData(): ViewerData {
  const element = document.getElementById('viewer-data');
  if (!element?.textContent) throw new Error('the page holds no load plan');
  return JSON.parse(element.textContent) as ViewerData;
}

/** Container by container, each in its loading order: what the step slider adds one at a time. */
export function loadingSequence(data: ViewerData): Step[] {
  return data.load_plan.containers.flatMap((container, containerIndex) =>
    [...container.placements]
      .sort((a, b) => a.loading_order - b.loading_order)
      .map((placement) => ({ container, containerIndex, placement })),
  );
}

const KIND: Record<LoadPlanPlacement['kind'], string> = {
  pallet: 'Service-built pallet',
  pre_built: 'Pre-built pallet',
  loose_box: 'Loose box',
};

export function kindName(kind: LoadPlanPlacement['kind']): string {
  return KIND[kind];
}

export function mm(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')} mm`;
}

export function kg(value: number): string {
  return `${value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : 1 })} kg`;
}
