// The planner's wire is written from one description (scripts/planner-wire/layout.js) into both its
// ends: assembly/wire-layout.ts, which the planner reads each job with, and src/planner/wasm-wire.ts,
// which the host writes each job and reads each answer with. Here: both ends are what the description
// gives (an end edited by hand, or a description changed without `npm run wire:generate`, fails);
// a field added to the description reaches both ends; every job of the description runs on the
// planner, its input written by the host's end and its answer read whole by it (an answer shorter or
// longer than its layout throws, which catches an answer the planner writes by hand in another
// shape); and the planner refuses an input one element longer or shorter than its layout.
import { spawnSync } from 'node:child_process';
import t, { type Test } from 'tap';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import * as wire from '../../src/planner/wasm-wire.js';
import { ANY_ORIENTATION, type BoxType, StackPolicy, UPRIGHT_ORIENTATIONS } from '../../src/planner/wasm-wire.js';
import { checksWasm } from './checks-wasm.js';

const root = new URL('../../../', import.meta.url);
const generator = new URL('scripts/planner-wire/generate.js', root);
const layoutModule = new URL('scripts/planner-wire/layout.js', root);

interface Field {
  name: string;
  type: unknown;
  doc: string;
}
interface Layout {
  jobs: { name: string; checks?: boolean; input: Field[]; answer: Field[] }[];
  records: Record<string, { doc: string; fields: Field[] }>;
  codes: unknown[];
  masks: unknown[];
}
const layout = (await import(layoutModule.href)) as Layout;
const { generated } = (await import(generator.href)) as { generated: (layout?: Layout) => Record<string, string> };

t.test('both ends are what the description gives', async (t) => {
  const run = spawnSync(process.execPath, [generator.pathname, '--check'], { encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  t.match(run.stdout, 'both ends are what the description gives');
});

t.test('a field added to the description reaches both ends, in the same place', async (t) => {
  const boxType = layout.records.BoxType!;
  const changed: Layout = {
    ...layout,
    records: {
      ...layout.records,
      BoxType: {
        ...boxType,
        fields: [...boxType.fields.slice(0, 5), { name: 'fragility', type: 'i32', doc: 'How fragile.' }, ...boxType.fields.slice(5)],
      },
    },
  };
  const before = generated();
  const after = generated(changed);
  const assembly = after['assembly/wire-layout.ts']!;
  const host = after['src/planner/wasm-wire.ts']!;
  t.not(assembly, before['assembly/wire-layout.ts']);
  t.not(host, before['src/planner/wasm-wire.ts']);
  // the planner reads it after count and before orientations; the host writes it there
  t.match(assembly, /v\.count = input\.next\(\);\n\s+v\.fragility = input\.next\(\);\n\s+v\.orientations = input\.next\(\);/);
  t.match(host, /wireInt\(v\.count\),\s+v\.fragility,\s+v\.orientations,/);
});

const carton = (l: number, w: number, h: number, count: number, more: Partial<BoxType> = {}): BoxType => ({
  l,
  w,
  h,
  weightG: 5000,
  count,
  orientations: UPRIGHT_ORIENTATIONS,
  policy: StackPolicy.Free,
  canTop: true,
  stackClass: 0,
  ...more,
});

const limits = { timeLimitMs: 0, effort: 2000 };
const road: wire.Road = {
  grossLimitG: 40_000_000,
  steerTareG: 6_000_000,
  driveTareG: 3_500_000,
  wheelbaseMm: 3_800,
  fifthWheelMm: 500,
  steerLimitG: 7_100_000,
  driveLimitG: 11_500_000,
  driveMinShareMillionths: 250_000,
  chassisTareG: 3_500_000,
  chassisCogX: 6_000,
  kingpinX: 700,
  axleGroupX: 10_500,
  axleGroupLimitG: 24_000_000,
  containerTareG: 3_700_000,
  containerCogX: 5_900,
};

/** One run of each job: its input, and what its answer must say (read by the host's end, whole). */
const runs: Record<string, (t: Test, wasm: PlannerWasm<wire.PlannerJob | wire.CheckJob>) => void> = {
  palletize: (t, wasm) => {
    const cargo = [carton(400, 300, 250, 40), carton(300, 200, 150, 30, { maxLoadG: 50_000, orientations: ANY_ORIENTATION })];
    const input = {
      deckL: 1200,
      deckW: 800,
      loadHeight: 1650,
      loadWeightG: 1_000_000,
      limits,
      seed: 1,
      mostPallets: -1,
      prune: true,
      cargo,
    };
    const answer = wire.readPalletizeAnswer(wasm.run('palletize', wire.writePalletizeInput(input)));
    t.equal(answer.deadlineHit, false);
    t.equal(answer.built.length, answer.pallets, 'the pallets built are the pallets the plan takes');
    t.equal(answer.built.flatMap((p) => p.boxes).length, 70, 'every unit on a pallet');
    const bounded = wire.readPalletizeAnswer(wasm.run('palletize', wire.writePalletizeInput({ ...input, mostPallets: 0 })));
    t.ok(bounded.pallets > 0, 'with a bound no plan meets: more pallets than it, read whole');
  },
  packContainer: (t, wasm) => {
    const input = { l: 587, w: 233, h: 220, maxWeightG: 0, limits, seed: 1, cargo: [carton(108, 76, 30, 40), carton(110, 43, 25, 33)] };
    const answer = wire.readPackContainerAnswer(wasm.run('packContainer', wire.writePackContainerInput(input)));
    t.equal(answer.boxes.length, 73, 'every box in the container');
    t.ok(answer.boxes.every((b) => b.type === 0 || b.type === 1));
  },
  loadContainers: (t, wasm) => {
    const pallets = carton(1200, 800, 1500, 30, { weightG: 400_000, policy: StackPolicy.None, canTop: false });
    const crates = carton(1000, 1000, 1000, 2, { weightG: 2_000_000, policy: StackPolicy.Base, canTop: false, stackClass: 1 });
    const input = {
      limits,
      seed: 1,
      containers: [
        { l: 12_032, w: 2_352, h: 2_393, payloadG: 26_000_000, count: 1, road },
        { l: 5_898, w: 2_352, h: 2_393, payloadG: 28_000_000, count: 5, road: undefined },
      ],
      cargo: [pallets, crates, carton(13_000, 100, 100, 1)],
    };
    const answer = wire.readLoadContainersAnswer(wasm.run('loadContainers', wire.writeLoadContainersInput(input)));
    t.ok(answer.containers.length >= 2, `${answer.containers.length} containers`);
    t.ok(answer.containers.every((c) => c.type === 0 || c.type === 1));
    t.equal(answer.left.length, 3, 'what is left, per cargo type');
    t.equal(wire.LOAD_REASONS[answer.left[2]!.reason], 'too_large_for_every_type');
    t.equal(answer.left[2]!.count, 1);
  },
  layerStacks: (t, wasm) => {
    const pattern = { boxes: [0, 1, 2, 3].map((k) => ({ x: (k % 2) * 600, y: Math.floor(k / 2) * 400, l: 600, w: 400, h: 300 })) };
    const input = {
      deckL: 1200,
      deckW: 800,
      loadHeight: 1500,
      loadWeightG: 1_000_000,
      maxCartons: 2000,
      atLeast: 1,
      skus: [{ l: 600, w: 400, h: 300, upright: true, weightG: 10_000, maxLoadG: undefined, units: 45, patterns: [pattern] }],
      choices: [{ patterns: [0] }],
    };
    const { built } = wire.readLayerStacksAnswer(wasm.run('layerStacks', wire.writeLayerStacksInput(input)));
    t.ok(built, 'pallets of whole layers');
    const stacked = built!.pallets.reduce((n, p) => n + p.times * p.boxes.length, 0);
    t.equal(stacked % 4, 0, `${stacked} units in whole layers of four`);
    t.equal(built!.rest.length, 1, 'what is left, per SKU');
    t.equal(stacked + built!.rest[0]!, 45, 'every unit either on a pallet or left');
    const none = wire.readLayerStacksAnswer(
      wasm.run('layerStacks', wire.writeLayerStacksInput({ ...input, choices: [{ patterns: [-1] }] })),
    );
    t.equal(none.built, undefined, 'no choice, no pallet: 0, read whole');
  },
  fullestPallet: (t, wasm) => {
    const input = {
      loadHeight: 2000,
      loadWeightG: 1_000_000,
      kinds: [
        { height: 400, weightG: 100_000, count: 5 },
        { height: 300, weightG: 100_000, count: 4 },
      ],
    };
    const { picks } = wire.readFullestPalletAnswer(wasm.run('fullestPallet', wire.writeFullestPalletInput(input)));
    t.equal(
      picks.reduce((h, p) => h + p.layers * input.kinds[p.kind]!.height, 0),
      2000,
    );
  },
  checkFirstWithin: (t, wasm) => {
    const input = {
      l: 587,
      w: 233,
      h: 220,
      seed: 1,
      probes: 100,
      composites: 0,
      cargo: [carton(108, 76, 30, 40), carton(110, 43, 25, 33)],
    };
    const answer = wire.readCheckFirstWithinAnswer(wasm.run('checkFirstWithin', wire.writeCheckFirstWithinInput(input)));
    t.equal(answer.probes, 100);
    t.equal(answer.mismatches, 0);
  },
  checkFitCache: (t, wasm) => {
    const input = {
      l: 587,
      w: 233,
      h: 220,
      seed: 1,
      effort: 500,
      composites: 0,
      cargo: [carton(108, 76, 30, 40), carton(110, 43, 25, 33)],
    };
    const answer = wire.readCheckFitCacheAnswer(wasm.run('checkFitCache', wire.writeCheckFitCacheInput(input)));
    t.equal(answer.differ, 0);
    t.ok(answer.searches > 0);
  },
  checkCompositeBlocks: (t, wasm) => {
    const input = {
      l: 200,
      w: 200,
      h: 200,
      seed: 1,
      composites: 100,
      stacked: true,
      cargo: [carton(50, 40, 30, 1), carton(50, 40, 20, 1)],
    };
    const answer = wire.readCheckCompositeBlocksAnswer(wasm.run('checkCompositeBlocks', wire.writeCheckCompositeBlocksInput(input)));
    t.equal(answer.failing, 0);
    t.ok(answer.composites > 0);
  },
};

t.test('every job of the description runs, its answer read whole by the host', async (t) => {
  t.same(Object.keys(runs).sort(), layout.jobs.map((j) => j.name).sort(), 'a run for each job, no more');
  const service = new PlannerWasm();
  const checks = checksWasm();
  for (const job of layout.jobs) {
    await t.test(job.name, async (t) => {
      // a job of the service runs on the service's build, a check on the tests' build only
      runs[job.name]!(t, (job.checks ? checks : service) as PlannerWasm<wire.PlannerJob | wire.CheckJob>);
    });
  }
});

t.test("the service's build exports no job of the tests", async (t) => {
  const service = new PlannerWasm() as unknown as PlannerWasm<wire.CheckJob>;
  const input = wire.writeFullestPalletInput({ loadHeight: 2000, loadWeightG: 1_000_000, kinds: [] });
  t.throws(() => service.run('fullestPallet', input), TypeError);
  t.equal(checksWasm().run('fullestPallet', input).length, 2, 'the tests build answers it');
});

t.test('the planner refuses an input one element longer or shorter than its layout', async (t) => {
  const wasm = new PlannerWasm();
  const input = wire.writePackContainerInput({ l: 587, w: 233, h: 220, maxWeightG: 0, limits, seed: 1, cargo: [carton(108, 76, 30, 4)] });
  t.ok(wasm.run('packContainer', input).length > 2, 'as written, it loads');
  t.throws(() => wasm.run('packContainer', Int32Array.from([...input, 0])), /planner aborted/);
  t.throws(() => wasm.run('packContainer', input.subarray(0, input.length - 1)), /planner aborted/);
  // an answer cut short, or with more after it, fails the host's read
  const answer = wasm.run('packContainer', input);
  t.throws(() => wire.readPackContainerAnswer(answer.subarray(0, answer.length - 1)), /ended early/);
  t.throws(() => wire.readPackContainerAnswer(Int32Array.from([...answer, 7])), /longer than its layout/);
});
