// What the road's reasons for leaving cargo behind say to a person (an unplaced row's `detail`):
// the item's weight against what the road leaves the best container type for it, or the axle that
// is over its limit wherever along the container the item stands.
import type { UnplacedReason } from '../plan-contract/plan-types.js';
import type { ContainerSpec } from './containers.js';
import { axleLoads, type ContainerRoadSpec, roadCargoRoomG } from './road-loads.js';
import type { BoxType } from './wasm-wire.js';

const kg = (g: number): string => `${Math.round(g / 1000).toLocaleString('en-US')} kg`;

/** Orientation bits (wasm-wire.ts, assembly/cargo.ts orientedX): the size each puts along the container. */
const ALONG: ((b: BoxType) => number)[] = [(b) => b.l, (b) => b.w, (b) => b.l, (b) => b.h, (b) => b.w, (b) => b.h];

export function roadReasonDetail(
  reason: UnplacedReason,
  item: BoxType,
  rows: readonly { spec: ContainerSpec; road: ContainerRoadSpec | undefined }[],
): string | undefined {
  if (reason !== 'over_road_gross' && reason !== 'over_axle_limits') return undefined;
  const onRoad = rows.filter((r): r is { spec: ContainerSpec; road: ContainerRoadSpec } => r.road !== undefined);
  if (onRoad.length === 0) return undefined;
  const roomOf = (r: (typeof onRoad)[number]) => roadCargoRoomG(r.road, r.spec.payload_kg * 1000);
  const best = onRoad.reduce((a, b) => (roomOf(b) > roomOf(a) ? b : a));
  const { spec, road } = best;
  if (reason === 'over_road_gross') {
    const tares = `${kg(road.grossLimitG)} gross less the tractor's ${kg(road.steerTareG + road.driveTareG)}, the chassis' ${kg(road.chassisTareG)} and the box's ${kg(road.containerTareG)}`;
    return `${kg(item.weightG)}: over the ${kg(roomOf(best))} a ${spec.code} may carry on the ${road.profile} road (${tares}).`;
  }
  // the item as far forward and as far back as it goes: the drive axles are heaviest at the front, the chassis' axles at the back
  const along = Math.min(...ALONG.filter((_, o) => (item.orientations & (1 << o)) !== 0).map((size) => size(item)));
  const front = axleLoads(road, item.weightG, along / 2);
  const back = axleLoads(road, item.weightG, spec.inner_mm.l - along / 2);
  const over: string[] = [];
  if (front.drive > road.driveLimitG)
    over.push(`at the front wall the drive axles would carry ${kg(front.drive)} (limit ${kg(road.driveLimitG)})`);
  if (front.steer > road.steerLimitG)
    over.push(`at the front wall the steer axle would carry ${kg(front.steer)} (limit ${kg(road.steerLimitG)})`);
  if (back.trailer > road.axleGroupLimitG)
    over.push(`at the doors the chassis' axles would carry ${kg(back.trailer)} (limit ${kg(road.axleGroupLimitG)})`);
  if (back.drive < road.driveMinShare * back.gross)
    over.push(`at the doors the drive axles would carry ${kg(back.drive)}, under ${Math.round(road.driveMinShare * 100)} % of the gross`);
  return `${kg(item.weightG)} in one piece: wherever it stands in a ${spec.code}, the ${road.profile} truck's axles are not all within their limits (${over.join('; ') || 'the window the axles allow is narrower than the piece'}).`;
}
