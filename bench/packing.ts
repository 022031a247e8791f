// npm run bench:packing -- [--limit N] [--time-limit-ms T] [--no-baseline] FILE...
// Loads each BR instance into one container with full support, prints one JSON line per
// instance on stdout and a table per file on stderr, with binpackingjs on the same instances
// checked by the same validator.
import { packContainer } from '../src/planner/checks/pack-container.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import { validateBrPacking, volumeUtilization } from '../src/planner/checks/validate-br-packing.js';
import { packWithBinpackingjs } from './lib/binpackingjs-baseline.js';
import { readBrFile } from './lib/br-format.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';

interface Args {
  limit: number;
  timeLimitMs: number;
  baseline: boolean;
  files: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { limit: Infinity, timeLimitMs: 2000, baseline: true, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--limit') args.limit = Number(argv[++i]);
    else if (a === '--time-limit-ms') args.timeLimitMs = Number(argv[++i]);
    else if (a === '--no-baseline') args.baseline = false;
    else args.files.push(a);
  }
  if (args.files.length === 0 || !(args.limit > 0) || !(args.timeLimitMs > 0)) {
    process.stderr.write('usage: npm run bench:packing -- [--limit N] [--time-limit-ms T] [--no-baseline] FILE...\n');
    process.exit(2);
  }
  return args;
}

interface SetFigures {
  file: string;
  instances: number;
  utilization: number[];
  ms: number[];
  violations: number;
  baselineUtilization: number[];
  baselineMs: number[];
  baselineViolations: number;
  baselineInvalidInstances: number;
}

const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (x: number): string => (100 * x).toFixed(2).padStart(6);

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const wasm = new PlannerWasm();
  process.stderr.write(`${formatNoise('before', measureNoise())}\n`);
  const sets: SetFigures[] = [];
  for (const file of args.files) {
    const instances = readBrFile(file).slice(0, args.limit);
    const f: SetFigures = {
      file, instances: instances.length, utilization: [], ms: [], violations: 0,
      baselineUtilization: [], baselineMs: [], baselineViolations: 0, baselineInvalidInstances: 0,
    };
    for (const inst of instances) {
      const t0 = performance.now();
      const { placements } = packContainer(wasm, inst, { timeLimitMs: args.timeLimitMs });
      const ms = performance.now() - t0;
      const utilization = volumeUtilization(inst, placements);
      const violations = validateBrPacking(inst, placements);
      f.utilization.push(utilization);
      f.ms.push(ms);
      f.violations += violations.length;
      for (const v of violations.slice(0, 5)) process.stderr.write(`VIOLATION ${file} #${inst.instance}: ${v}\n`);
      process.stdout.write(`${JSON.stringify({ file, instance: inst.instance, utilization, ms, placements })}\n`);
      if (args.baseline) {
        const b0 = performance.now();
        const theirs = packWithBinpackingjs(inst);
        f.baselineMs.push(performance.now() - b0);
        f.baselineUtilization.push(volumeUtilization(inst, theirs));
        const bv = validateBrPacking(inst, theirs).length;
        f.baselineViolations += bv;
        if (bv > 0) f.baselineInvalidInstances++;
      }
    }
    sets.push(f);
    printSet(f);
  }
  printOverall(sets, args.baseline);
  process.stderr.write(`${formatNoise('after', measureNoise())}\n`);
}

function printSet(f: SetFigures): void {
  const lines = [
    `${f.file}: ${f.instances} instances`,
    `  planner      mean utilization ${pct(mean(f.utilization))} %  min ${pct(Math.min(...f.utilization))} %  ms mean ${mean(f.ms).toFixed(0)} max ${Math.max(...f.ms).toFixed(0)}  violations ${f.violations}`,
  ];
  if (f.baselineUtilization.length) {
    lines.push(
      `  binpackingjs mean utilization ${pct(mean(f.baselineUtilization))} %  min ${pct(Math.min(...f.baselineUtilization))} %  ms mean ${mean(f.baselineMs).toFixed(0)} max ${Math.max(...f.baselineMs).toFixed(0)}  violations ${f.baselineViolations} (in ${f.baselineInvalidInstances} of ${f.instances} instances)`,
    );
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

function printOverall(sets: SetFigures[], baseline: boolean): void {
  const all = sets.flatMap((s) => s.utilization);
  const ms = sets.flatMap((s) => s.ms);
  const lines = [
    `overall: ${all.length} instances, planner mean utilization ${pct(mean(all))} %, per set ${sets.map((s) => pct(mean(s.utilization)).trim()).join(' / ')}, ms mean ${mean(ms).toFixed(0)} max ${Math.max(...ms).toFixed(0)}, violations ${sets.reduce((a, s) => a + s.violations, 0)}`,
  ];
  if (baseline) {
    const b = sets.flatMap((s) => s.baselineUtilization);
    lines.push(`overall binpackingjs: mean utilization ${pct(mean(b))} %, violations ${sets.reduce((a, s) => a + s.baselineViolations, 0)} (in ${sets.reduce((a, s) => a + s.baselineInvalidInstances, 0)} instances)`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

main();
