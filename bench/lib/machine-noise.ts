// How steady the machine is while a benchmark runs: a fixed integer workload timed repeatedly.
// Its coefficient of variation says how far apart two runs' timings may be for reasons of noise.

function workload(): number {
  let x = 1;
  for (let i = 0; i < 2_000_000; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  return x;
}

export interface NoiseReport {
  samples: number;
  meanMs: number;
  stdevMs: number;
  cv: number;
}

export function measureNoise(samples = 15): NoiseReport {
  const times: number[] = [];
  let sink = 0;
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    sink ^= workload();
    times.push(performance.now() - t0);
  }
  if (sink === 42) process.stderr.write('');
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const stdev = Math.sqrt(times.reduce((a, b) => a + (b - mean) ** 2, 0) / times.length);
  return { samples, meanMs: mean, stdevMs: stdev, cv: stdev / mean };
}

export function formatNoise(label: string, n: NoiseReport): string {
  return `machine noise (${label}): ${n.samples} runs of a fixed loop, mean ${n.meanMs.toFixed(2)} ms, stdev ${n.stdevMs.toFixed(2)} ms, CV ${(100 * n.cv).toFixed(1)} %`;
}
