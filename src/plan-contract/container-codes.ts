// The container codes a lane may enable and an order may ask for (spec 2.7).
export const CONTAINER_CODES = ['20ft', '40ft', '40ft-HC', '45ft-HC', '20ft-RF', '40ft-HC RF', '20ft-OT', '40ft-OT'] as const;
export type ContainerCode = (typeof CONTAINER_CODES)[number];

/** The chassis a truck carries a container on: a road profile gives its geometry and limits per class. */
export const CHASSIS_CLASSES = ['20ft', '40ft', '45ft'] as const;
export type ChassisClass = (typeof CHASSIS_CLASSES)[number];
export const CHASSIS_CLASS_OF: Readonly<Record<ContainerCode, ChassisClass>> = {
  '20ft': '20ft',
  '40ft': '40ft',
  '40ft-HC': '40ft',
  '45ft-HC': '45ft',
  '20ft-RF': '20ft',
  '40ft-HC RF': '40ft',
  '20ft-OT': '20ft',
  '40ft-OT': '40ft',
};
