// The transportation modes (spec 2.3): an order names one, a lane accepts some, and a lane's road
// profile holds some of them to the road (master-data road_profile_modes).
export const TRANSPORTATION_MODES = ['OceanFCL', 'TruckFTL'] as const;
export type TransportationMode = (typeof TRANSPORTATION_MODES)[number];
