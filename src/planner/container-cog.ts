// The weight figures a planned container reports, from its placements (center-of-gravity.ts).
import { centerOfGravity, type WeightedBox, withinCogLimits } from './center-of-gravity.js';
import type { PlannedContainer } from '../plan-contract/plan-types.js';

export function containerCogFigures(
  placements: readonly WeightedBox[],
  inner: { l: number; w: number },
): Pick<PlannedContainer, 'cargo_weight_g' | 'center_of_gravity_mm' | 'within_cog_limits'> {
  const cog = centerOfGravity(placements);
  return {
    cargo_weight_g: placements.reduce((s, p) => s + p.weight_g, 0),
    center_of_gravity_mm: cog && { x: Math.round(cog.x), y: Math.round(cog.y), z: Math.round(cog.z) },
    within_cog_limits: withinCogLimits(cog, inner),
  };
}
