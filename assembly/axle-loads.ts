// The road's limits on one container's load (docs/road-profiles.md), for the loader: what the cargo
// may weigh, and where along the container its centre of gravity may lie, so that the steer axle, the
// drive axle group and the chassis' axle group each carry no more than their limits (the drive axles
// no less than their share). The lever rule, as the ROADEF/EURO 2022 challenge states it: the chassis
// rests on the kingpin and its axle group; the kingpin's load rests on the tractor's fifth wheel,
// between its steer axle and drive axle group. Positions in the plan's frame (x from the inside of the
// container's front wall), weights in grams. The host reports the loads with the same rule
// (src/planner/road-loads.ts); the validator computes them a third time on its own, and
// test/planner/road-plans.test.ts holds every road plan to it.
import { Road } from './wire-layout';

/** Kept below every limit, so that the host's sums in another order never cross one the loader met. */
const MARGIN_G: f64 = 1;

export class RoadLimits {
  active: bool = false;
  grossLimit: f64 = 0;
  steerTare: f64 = 0;
  driveTare: f64 = 0;
  /** Of the kingpin's load, the drive axle group's share and the steer axle's (the fifth wheel's lever). */
  driveShare: f64 = 0;
  steerShare: f64 = 0;
  steerLimit: f64 = 0;
  driveLimit: f64 = 0;
  /** The least share of the gross on the drive axles (0: none). */
  driveMinShare: f64 = 0;
  kingpin: f64 = 0;
  /** From the kingpin to the axle group. */
  span: f64 = 1;
  axleLimit: f64 = 0;
  /** The chassis' and the container's tare, and their moment about the kingpin. */
  trailerTare: f64 = 0;
  tareMoment: f64 = 0;
  /** The last window asked for (window()): the centres of gravity along x that keep every axle within its limit. */
  lo: f64 = 0;
  hi: f64 = 0;

  /** The most cargo the gross leaves: tractor, chassis and container come first. */
  cargoRoom(): f64 {
    return this.grossLimit - this.steerTare - this.driveTare - this.trailerTare - MARGIN_G;
  }

  /**
   * The window of centres of gravity along x for cargo of this weight into lo and hi; false when none
   * (or the gross is over). The kingpin's load falls as the cargo moves back, so each limit bounds it
   * on one side: the drive and steer axles from above (the steer from below where the fifth wheel is
   * behind the drive axles), the drive axles' share and the axle group from below.
   */
  window(cargo: f64): bool {
    const trailerMass = cargo + this.trailerTare;
    const gross = this.steerTare + this.driveTare + trailerMass;
    if (gross > this.grossLimit - MARGIN_G) return false;
    let kMax = trailerMass;
    let kMin: f64 = 0;
    kMax = min(kMax, (this.driveLimit - MARGIN_G - this.driveTare) / this.driveShare);
    kMin = max(kMin, (this.driveMinShare * gross + MARGIN_G - this.driveTare) / this.driveShare);
    if (this.steerShare > 0) kMax = min(kMax, (this.steerLimit - MARGIN_G - this.steerTare) / this.steerShare);
    else if (this.steerShare < 0) kMin = max(kMin, (this.steerLimit - MARGIN_G - this.steerTare) / this.steerShare);
    else if (this.steerTare > this.steerLimit - MARGIN_G) return false;
    kMin = max(kMin, trailerMass - (this.axleLimit - MARGIN_G));
    if (kMin > kMax) return false;
    if (cargo <= 0) {
      // no cargo to move: the tares alone decide
      const k = trailerMass - this.tareMoment / this.span;
      this.lo = 0;
      this.hi = 0;
      return k >= kMin && k <= kMax;
    }
    // kingpin load K = trailerMass - (cargo (x - kingpin) + tareMoment) / span, solved for x
    this.lo = this.kingpin + ((trailerMass - kMax) * this.span - this.tareMoment) / cargo;
    this.hi = this.kingpin + ((trailerMass - kMin) * this.span - this.tareMoment) / cargo;
    return true;
  }

  /** Cargo of this weight with its centre of gravity at x is within every limit. */
  allows(cargo: f64, x: f64): bool {
    if (!this.active) return true;
    if (!this.window(cargo)) return false;
    return cargo <= 0 || (x >= this.lo && x <= this.hi);
  }
}

/** A container type's road as the host gave it (wire-layout.ts Road; null: none). */
export function roadLimitsOf(road: Road | null): RoadLimits {
  const r = new RoadLimits();
  if (road === null) return r;
  r.active = true;
  r.grossLimit = <f64>road.grossLimitG;
  r.steerTare = <f64>road.steerTareG;
  r.driveTare = <f64>road.driveTareG;
  const wheelbase = <f64>road.wheelbaseMm;
  const fifthWheel = <f64>road.fifthWheelMm;
  r.driveShare = (wheelbase - fifthWheel) / wheelbase;
  r.steerShare = fifthWheel / wheelbase;
  r.steerLimit = <f64>road.steerLimitG;
  r.driveLimit = <f64>road.driveLimitG;
  r.driveMinShare = <f64>road.driveMinShareMillionths / 1e6;
  const chassisTare = <f64>road.chassisTareG;
  const chassisCog = <f64>road.chassisCogX;
  r.kingpin = <f64>road.kingpinX;
  r.span = max(1.0, <f64>road.axleGroupX - r.kingpin);
  r.axleLimit = <f64>road.axleGroupLimitG;
  const boxTare = <f64>road.containerTareG;
  const boxCog = <f64>road.containerCogX;
  r.trailerTare = chassisTare + boxTare;
  r.tareMoment = chassisTare * (chassisCog - r.kingpin) + boxTare * (boxCog - r.kingpin);
  return r;
}
