// The container catalog: standard published inner dimensions (mm) and maximum payload (kg) of
// the eight codes of orders-api.md 2.8. Individual boxes vary by maker by a few millimetres.
import type { ContainerCode } from '../plan-contract/container-codes.js';

export interface ContainerSpec {
  code: ContainerCode;
  inner_mm: { l: number; w: number; h: number };
  payload_kg: number;
}

export const CONTAINER_CATALOG: Readonly<Record<ContainerCode, ContainerSpec>> = {
  '20ft': { code: '20ft', inner_mm: { l: 5898, w: 2352, h: 2393 }, payload_kg: 28_200 },
  '40ft': { code: '40ft', inner_mm: { l: 12_032, w: 2352, h: 2393 }, payload_kg: 26_700 },
  '40ft-HC': { code: '40ft-HC', inner_mm: { l: 12_032, w: 2352, h: 2698 }, payload_kg: 26_500 },
  '45ft-HC': { code: '45ft-HC', inner_mm: { l: 13_556, w: 2352, h: 2698 }, payload_kg: 27_700 },
  '20ft-RF': { code: '20ft-RF', inner_mm: { l: 5444, w: 2294, h: 2276 }, payload_kg: 27_400 },
  '40ft-HC RF': { code: '40ft-HC RF', inner_mm: { l: 11_583, w: 2294, h: 2557 }, payload_kg: 29_000 },
  '20ft-OT': { code: '20ft-OT', inner_mm: { l: 5894, w: 2347, h: 2348 }, payload_kg: 28_100 },
  '40ft-OT': { code: '40ft-OT', inner_mm: { l: 12_028, w: 2344, h: 2347 }, payload_kg: 26_600 },
};

export function containerSpec(code: string): ContainerSpec | undefined {
  return (CONTAINER_CATALOG as Record<string, ContainerSpec | undefined>)[code];
}
