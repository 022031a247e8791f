// Timestamps as the API shows them: UTC, ISO 8601 without zone, microseconds.
import { performance } from 'node:perf_hooks';

let lastMicros = 0;

/** Microseconds since the epoch, strictly increasing within this process. */
export function nowMicros(): number {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  lastMicros = micros > lastMicros ? micros : lastMicros + 1;
  return lastMicros;
}

export function formatMicros(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString(); // 2026-11-20T09:15:02.123Z
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}`;
}

export function utcTimestamp(): string {
  return formatMicros(nowMicros());
}
