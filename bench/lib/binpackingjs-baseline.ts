// The same BR instance packed by the binpackingjs npm package, for comparison. Its 3D axes are
// width (our x), height (vertical, our z) and depth (our y).
import { pack3D, RotationType } from 'binpackingjs/3d';
import type { BrInstance, BrPlacement } from '../../src/planner/checks/br-instance.js';

/** Rotations that keep dims[k] vertical, with item width = dims[0], height = dims[1], depth = dims[2]. */
const VERTICAL_ROTATIONS: RotationType[][] = [
  [RotationType.HWD, RotationType.DWH],
  [RotationType.WHD, RotationType.DHW],
  [RotationType.HDW, RotationType.WDH],
];

interface Pack3DAnswer {
  packedBins: { items: { name: string; position: [number, number, number]; dimension: [number, number, number] }[] }[];
}

export function packWithBinpackingjs(instance: BrInstance): BrPlacement[] {
  const items = instance.types.flatMap((t) => {
    const allowedRotations = VERTICAL_ROTATIONS.flatMap((r, k) => (t.verticalOk[k] ? r : []));
    return Array.from({ length: t.count }, (_, i) => ({
      name: `${t.id}#${i}`,
      width: t.dims[0],
      height: t.dims[1],
      depth: t.dims[2],
      weight: 1,
      allowedRotations,
    }));
  });
  const { l, w, h } = instance.container;
  // the package's .d.ts re-exports without extensions, which NodeNext cannot follow: type the answer here
  const result = pack3D({ bins: [{ name: 'container', width: l, height: h, depth: w, maxWeight: 1e9 }], items }) as Pack3DAnswer;
  const bin = result.packedBins[0];
  if (!bin) return [];
  return bin.items.map((it) => ({
    type: Number(it.name.split('#')[0]),
    x: it.position[0],
    y: it.position[2],
    z: it.position[1],
    l: it.dimension[0],
    w: it.dimension[2],
    h: it.dimension[1],
  }));
}
