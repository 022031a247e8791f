// Wall-clock time from the host, so a search can stop at its deadline; the host passes
// performance.now(). Effort counters, not this clock, decide a plan whenever it finishes in time.
@external("env", "nowMs")
export declare function nowMs(): f64;
