// npm run bench:packing -- [--limit N] [--every K] [--time-limits 2000,5000] [--effort N] [--baseline-build DIR] [--no-baseline] FILE...
// Loads each BR instance into one container with full support, at each time limit in turn, prints
// one JSON line per instance and limit on stdout and a table per file and overall on stderr:
// mean utilization, violations, mean and max ms (wall and this process's CPU) per limit side by
// side, with binpackingjs on the same instances checked by the same validator.
// --effort N: equal effort instead of time limits: every search N greedy placements, no clock (one
// round of searches), so two builds do the same work; their CPU ms compare their speed, and the
// table counts the instances the baseline loaded exactly as this build (all, for an exact speed-up).
// A baseline build from before --effort (2026-11-25) reads no time limit as 1 ms: compare such a
// build at a time limit only.
// --limit N: the first N instances of each file; --every K: every K-th instance (1, 1+K, ...).
// --baseline-build DIR: another checkout's built loader (DIR/dist, DIR/build) packs the same
// instances, interleaved instance by instance with this one, so both see the same machine load.
// BR8-BR15: `npm run br:generate` writes them to .bench-data/br/.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packContainer as ourPackContainer, type PackContainerOptions, type PackContainerResult } from '../src/planner/checks/br-packer.js';
import { PlannerWasm } from '../src/planner/planner-wasm.js';
import type { BrInstance } from '../src/planner/checks/br-instance.js';
import { validateBrPacking, volumeUtilization } from '../src/planner/checks/validate-br-packing.js';
import { packWithBinpackingjs } from './lib/binpackingjs-baseline.js';
import { readBrFile } from './lib/br-format.js';
import { formatNoise, measureNoise } from './lib/machine-noise.js';

interface Args {
  limit: number;
  every: number;
  timeLimits: number[];
  effort?: number;
  baseline: boolean;
  baselineBuild?: string;
  files: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { limit: Infinity, every: 1, timeLimits: [2000, 5000], baseline: true, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--limit') args.limit = Number(argv[++i]);
    else if (a === '--every') args.every = Number(argv[++i]);
    else if (a === '--time-limits' || a === '--time-limit-ms') args.timeLimits = argv[++i]!.split(',').map(Number);
    else if (a === '--effort') args.effort = Number(argv[++i]);
    else if (a === '--baseline-build') args.baselineBuild = resolve(argv[++i]!);
    else if (a === '--no-baseline') args.baseline = false;
    else args.files.push(a);
  }
  if (
    args.files.length === 0 ||
    !(args.limit > 0) ||
    !(args.every >= 1) ||
    !args.timeLimits.every((t) => t > 0) ||
    (args.effort !== undefined && !(args.effort > 0))
  ) {
    process.stderr.write(
      'usage: npm run bench:packing -- [--limit N] [--every K] [--time-limits 2000,5000] [--effort N] [--baseline-build DIR] [--no-baseline] FILE...\n',
    );
    process.exit(2);
  }
  // equal effort: one run per loader without a clock (time limit 0)
  if (args.effort !== undefined) args.timeLimits = [0];
  return args;
}

type Pack = (instance: BrInstance, options: PackContainerOptions) => PackContainerResult;

/** A loader under test: this checkout's, or another build's loaded from its dist/. */
interface Loader {
  name: string;
  pack: Pack;
}

async function loaders(args: Args): Promise<Loader[]> {
  const wasm = new PlannerWasm();
  const ours: Loader = { name: 'planner', pack: (inst, o) => ourPackContainer(wasm, inst, o) };
  if (!args.baselineBuild) return [ours];
  const at = (path: string) => `${args.baselineBuild}/dist/src/planner/${path}`;
  const from = (path: string) => pathToFileURL(at(path)).href;
  const theirWasm = (await import(from('planner-wasm.js'))) as { PlannerWasm: new () => PlannerWasm };
  // builds before the BR packer took its name call it checks/pack-container.js
  const packer = existsSync(at('checks/br-packer.js')) ? 'checks/br-packer.js' : 'checks/pack-container.js';
  const theirPack = (await import(from(packer))) as { packContainer: typeof ourPackContainer };
  const other = new theirWasm.PlannerWasm();
  return [ours, { name: 'baseline', pack: (inst, o) => theirPack.packContainer(other, inst, o) }];
}

interface Figures {
  utilization: number[];
  ms: number[];
  cpuMs: number[];
  violations: number;
  /** Instances loaded exactly as the first loader (this build) loaded them. */
  same: number;
}

const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (x: number): string => (100 * x).toFixed(2);
const empty = (): Figures => ({ utilization: [], ms: [], cpuMs: [], violations: 0, same: 0 });
const limitLabel = (args: Args, t: number): string => (args.effort !== undefined ? `effort ${args.effort}` : `${t / 1000} s`);

/** figures[loader][limit] for one file, and binpackingjs. */
interface SetFigures {
  file: string;
  instances: number;
  runs: Figures[][];
  binpackingjs: Figures;
  binpackingjsInvalid: number;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const under = await loaders(args);
  process.stderr.write(`${formatNoise('before', measureNoise())}\n`);
  const sets: SetFigures[] = [];
  for (const file of args.files) {
    const instances = readBrFile(file)
      .filter((_, i) => i % args.every === 0)
      .slice(0, args.limit);
    const f: SetFigures = {
      file,
      instances: instances.length,
      runs: under.map(() => args.timeLimits.map(empty)),
      binpackingjs: empty(),
      binpackingjsInvalid: 0,
    };
    for (const inst of instances) {
      // limit by limit, loader by loader: an instance's runs sit side by side in time
      args.timeLimits.forEach((timeLimitMs, li) => {
        let first = '';
        under.forEach((loader, ui) => {
          const t0 = performance.now();
          const c0 = process.cpuUsage();
          const { placements } = loader.pack(inst, { timeLimitMs, effort: args.effort });
          const cpu = process.cpuUsage(c0);
          const ms = performance.now() - t0;
          const cpuMs = (cpu.user + cpu.system) / 1000;
          const load = JSON.stringify(placements);
          if (ui === 0) first = load;
          const utilization = volumeUtilization(inst, placements);
          const violations = validateBrPacking(inst, placements);
          const fig = f.runs[ui]![li]!;
          fig.utilization.push(utilization);
          fig.ms.push(ms);
          fig.cpuMs.push(cpuMs);
          fig.violations += violations.length;
          if (load === first) fig.same++;
          for (const v of violations.slice(0, 5)) process.stderr.write(`VIOLATION ${loader.name} ${file} #${inst.instance}: ${v}\n`);
          process.stdout.write(
            `${JSON.stringify({ loader: loader.name, file, instance: inst.instance, time_limit_ms: timeLimitMs, effort: args.effort, utilization, ms: Math.round(ms), cpu_ms: Math.round(cpuMs) })}\n`,
          );
        });
      });
      if (args.baseline) {
        const b0 = performance.now();
        const theirs = packWithBinpackingjs(inst);
        f.binpackingjs.ms.push(performance.now() - b0);
        f.binpackingjs.utilization.push(volumeUtilization(inst, theirs));
        const bv = validateBrPacking(inst, theirs).length;
        f.binpackingjs.violations += bv;
        if (bv > 0) f.binpackingjsInvalid++;
      }
    }
    sets.push(f);
    printSet(f, under, args);
  }
  printOverall(sets, under, args);
  process.stderr.write(`${formatNoise('after', measureNoise())}\n`);
}

const row = (label: string, fig: Figures, same = false): string =>
  `${label.padEnd(22)} ${pct(mean(fig.utilization)).padStart(6)} %  min ${pct(Math.min(...fig.utilization)).padStart(6)} %  ms mean ${mean(fig.ms).toFixed(0).padStart(5)} max ${Math.max(
    ...fig.ms,
  )
    .toFixed(0)
    .padStart(5)}` +
  `${fig.cpuMs.length ? `  cpu ms mean ${mean(fig.cpuMs).toFixed(0).padStart(5)}` : ''}  violations ${fig.violations}` +
  `${same ? `  same loads as planner ${fig.same} of ${fig.utilization.length}` : ''}`;

function printSet(f: SetFigures, under: Loader[], args: Args): void {
  const lines = [`${f.file}: ${f.instances} instances`];
  under.forEach((loader, ui) =>
    args.timeLimits.forEach((t, li) => lines.push(`  ${row(`${loader.name} ${limitLabel(args, t)}`, f.runs[ui]![li]!, ui > 0)}`)),
  );
  if (f.binpackingjs.utilization.length)
    lines.push(`  ${row('binpackingjs', f.binpackingjs)} (in ${f.binpackingjsInvalid} of ${f.instances} instances)`);
  process.stderr.write(`${lines.join('\n')}\n`);
}

function merge(figs: Figures[]): Figures {
  return {
    utilization: figs.flatMap((x) => x.utilization),
    ms: figs.flatMap((x) => x.ms),
    cpuMs: figs.flatMap((x) => x.cpuMs),
    violations: figs.reduce((a, x) => a + x.violations, 0),
    same: figs.reduce((a, x) => a + x.same, 0),
  };
}

function printOverall(sets: SetFigures[], under: Loader[], args: Args): void {
  const setName = (file: string): string => file.replace(/^.*thpack(\d+)\.txt$/, 'BR$1');
  const lines = [
    `overall: ${sets.reduce((a, s) => a + s.instances, 0)} instances (${sets.map((s) => `${setName(s.file)} ${s.instances}`).join(', ')})`,
  ];
  under.forEach((loader, ui) =>
    args.timeLimits.forEach((t, li) => {
      const all = merge(sets.map((s) => s.runs[ui]![li]!));
      lines.push(
        `  ${row(`${loader.name} ${limitLabel(args, t)}`, all, ui > 0)}; per set ${sets.map((s) => `${setName(s.file)} ${pct(mean(s.runs[ui]![li]!.utilization))}`).join(' / ')}`,
      );
    }),
  );
  if (args.baseline) {
    const b = merge(sets.map((s) => s.binpackingjs));
    lines.push(`  ${row('binpackingjs', b)} (in ${sets.reduce((a, s) => a + s.binpackingjsInvalid, 0)} instances)`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

await main();
