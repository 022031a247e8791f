// The container catalog: standard published inner dimensions (mm) and maximum payload (kg) of
// the eight codes of orders-api.md 2.8. Individual boxes vary by maker by a few millimetres.
// What the road's lever rule needs of a box (docs/road-profiles.md): its outer length (ISO 668:
// 6,058, 12,192 and 13,716 mm), how far the inside of its front wall lies behind the outer front
// face (half the difference of outer and inner length for dry and open-top boxes; for a reefer,
// whose machinery is at the front, that difference less the 80 mm of its door end), and its tare:
// the maximum gross it is rated for less the payload above.
import { CHASSIS_CLASS_OF, type ChassisClass, type ContainerCode } from '../plan-contract/container-codes.js';

export interface ContainerSpec {
  code: ContainerCode;
  inner_mm: { l: number; w: number; h: number };
  payload_kg: number;
  outer_length_mm: number;
  /** From the outer front face to the inside of the front wall, where the plan's x is 0. */
  front_wall_mm: number;
  tare_kg: number;
  /** The chassis a truck carries it on (a road profile's geometry is per class). */
  chassis: ChassisClass;
}

/** A reefer's door end, the rest of its length difference being the machinery at the front. */
const REEFER_DOOR_END_MM = 80;

export const CONTAINER_CATALOG: Readonly<Record<ContainerCode, ContainerSpec>> = {
  '20ft': spec('20ft', { l: 5898, w: 2352, h: 2393 }, 28_200, 6058, 30_480),
  '40ft': spec('40ft', { l: 12_032, w: 2352, h: 2393 }, 26_700, 12_192, 30_480),
  '40ft-HC': spec('40ft-HC', { l: 12_032, w: 2352, h: 2698 }, 26_500, 12_192, 30_480),
  '45ft-HC': spec('45ft-HC', { l: 13_556, w: 2352, h: 2698 }, 27_700, 13_716, 32_500),
  '20ft-RF': spec('20ft-RF', { l: 5444, w: 2294, h: 2276 }, 27_400, 6058, 30_480, 'reefer'),
  '40ft-HC RF': spec('40ft-HC RF', { l: 11_583, w: 2294, h: 2557 }, 29_000, 12_192, 34_000, 'reefer'),
  '20ft-OT': spec('20ft-OT', { l: 5894, w: 2347, h: 2348 }, 28_100, 6058, 30_480),
  '40ft-OT': spec('40ft-OT', { l: 12_028, w: 2344, h: 2347 }, 26_600, 12_192, 30_480),
};

function spec(
  code: ContainerCode,
  inner_mm: ContainerSpec['inner_mm'],
  payload_kg: number,
  outer_length_mm: number,
  ratedGrossKg: number,
  kind: 'dry' | 'reefer' = 'dry',
): ContainerSpec {
  const walls = outer_length_mm - inner_mm.l;
  const front_wall_mm = kind === 'reefer' ? walls - REEFER_DOOR_END_MM : walls / 2;
  return {
    code,
    inner_mm,
    payload_kg,
    outer_length_mm,
    front_wall_mm,
    tare_kg: ratedGrossKg - payload_kg,
    chassis: CHASSIS_CLASS_OF[code],
  };
}

export function containerSpec(code: string): ContainerSpec | undefined {
  return (CONTAINER_CATALOG as Record<string, ContainerSpec | undefined>)[code];
}
