// The container codes a lane may enable and an order may ask for (spec 2.7).
export const CONTAINER_CODES = ['20ft', '40ft', '40ft-HC', '45ft-HC', '20ft-RF', '40ft-HC RF', '20ft-OT', '40ft-OT'] as const;
export type ContainerCode = (typeof CONTAINER_CODES)[number];
