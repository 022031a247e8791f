// scripts/check-layers.js on planted trees: a loop through three folders fails it, with the loop's
// folders in order and an import for each arrow; the same tree without the closing import passes. Files
// importing each other in a loop fail it too, within one folder as well, and in assembly/, whose imports
// name a module without an extension. An import in src/ without one, or one naming no file, fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';

const script = fileURLToPath(new URL('../../../scripts/check-layers.js', import.meta.url));

/** A tree of TypeScript files, path -> the relative imports it makes ('type:' before one makes it type-only). */
function plant(t: Test, tree: Record<string, string[]>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [path, imports] of Object.entries(tree)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(
      join(root, path),
      `${imports.map((target, i) => `import ${target.startsWith('type:') ? 'type ' : ''}{ x${i} } from '${target.replace(/^type:/, '')}';`).join('\n')}\nexport const x = 1;\n`,
    );
  }
  return root;
}

function check(root: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const chain = {
  'src/orders/order.ts': ['../planner/plan.js'],
  'src/planner/plan.ts': ['../storage/store.js'],
  'src/storage/store.ts': [] as string[],
  'src/app.ts': ['./orders/order.js'],
};

t.test('a chain of folders passes', async (t) => {
  const run = check(plant(t, chain));
  t.equal(run.status, 0, run.stderr);
  t.match(run.stdout, /check:layers: 3 folder dependencies, 0 problem\(s\)/);
});

t.test('a loop through three folders fails, each arrow with an import that makes it', async (t) => {
  const run = check(plant(t, { ...chain, 'src/storage/store.ts': ['../orders/order.js'] }));
  t.equal(run.status, 1);
  t.match(
    run.stderr,
    'a loop through 3 folders: src/orders -> src/planner -> src/storage -> src/orders: ' +
      'src/orders -> src/planner (src/orders/order.ts imports src/planner/plan.js); ' +
      'src/planner -> src/storage (src/planner/plan.ts imports src/storage/store.js); ' +
      'src/storage -> src/orders (src/storage/store.ts imports src/orders/order.js)',
  );
  t.notMatch(run.stderr, / and src\/\w+ import each other/, 'no two of the folders import each other');
  t.match(
    run.stderr,
    'files import each other in a loop: src/orders/order.ts -> src/planner/plan.ts -> src/storage/store.ts -> src/orders/order.ts',
    'the same loop, file by file',
  );
  t.match(run.stdout, /2 problem\(s\)/);
});

t.test('a loop through four folders is found, the folders in order from the first by name', async (t) => {
  const run = check(
    plant(t, {
      'src/d/d.ts': ['../a/a.js'],
      'src/c/c.ts': ['../d/d.js'],
      'src/b/b.ts': ['../c/c.js'],
      'src/a/a.ts': ['../b/b.js'],
    }),
  );
  t.equal(run.status, 1);
  t.match(run.stderr, /a loop through 4 folders: src\/a -> src\/b -> src\/c -> src\/d -> src\/a:/);
});

t.test('a loop inside a larger tangle names the tangle too', async (t) => {
  const run = check(
    plant(t, {
      ...chain,
      'src/storage/store.ts': ['../orders/order.js', '../wal/wal.js'],
      'src/wal/wal.ts': ['../storage/store.js'],
    }),
  );
  t.equal(run.status, 1);
  t.match(
    run.stderr,
    /a loop through 3 folders: src\/orders -> src\/planner -> src\/storage -> src\/orders: .*\(one of the loops among 4 folders that reach one another: src\/orders, src\/planner, src\/storage, src\/wal\)/,
  );
  t.match(run.stderr, /src\/storage and src\/wal import each other/);
});

t.test('two folders importing each other are reported as before, not as a loop', async (t) => {
  const run = check(plant(t, { ...chain, 'src/planner/plan.ts': ['../storage/store.js', '../orders/order.js'] }));
  t.equal(run.status, 1);
  t.match(
    run.stderr,
    'src/orders and src/planner import each other: src/orders/order.ts imports src/planner/plan.js; src/planner/plan.ts imports src/orders/order.js',
  );
  t.notMatch(run.stderr, /a loop through/);
});

t.test('the root can come from CHECK_LAYERS_ROOT', async (t) => {
  const root = plant(t, { ...chain, 'src/storage/store.ts': ['../orders/order.js'] });
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, CHECK_LAYERS_ROOT: root } });
  t.equal(run.status, 1);
  t.match(run.stderr, /a loop through 3 folders/);
});

const projections = {
  'src/orders/order-events.ts': [] as string[],
  'src/plan-contract/plan-storage.ts': [] as string[],
  'src/eventstore/event-store.ts': [] as string[],
  'projections/order-view.ts': [
    '../src/orders/order-events.js',
    '../src/plan-contract/plan-storage.js',
    'type:../src/eventstore/event-store.js',
  ],
  'projections/fold.ts': ['./order-view.js'],
  'src/orders/read-model/store.ts': ['../../../projections/fold.js'],
};

t.test('projections standing on the domain, the read model on the projections, pass', async (t) => {
  const run = check(plant(t, projections));
  t.equal(run.status, 0, run.stderr);
  t.match(run.stdout, /0 problem\(s\)/);
});

t.test('a projection that imports a store, or a value from the log, fails', async (t) => {
  const run = check(
    plant(t, {
      ...projections,
      'projections/order-view.ts': [
        '../src/orders/order-events.js',
        '../src/orders/read-model/store.js',
        '../src/eventstore/event-store.js',
      ],
    }),
  );
  t.equal(run.status, 1);
  t.match(run.stderr, 'projections/order-view.ts imports src/orders/read-model/store.js: projections/ stands only on');
  t.match(run.stderr, 'projections/order-view.ts imports src/eventstore/event-store.js: projections/ stands only on');
  t.notMatch(run.stderr, 'imports src/orders/order-events.js', 'the order events are its to import');
});

t.test('a domain file that imports a projection fails', async (t) => {
  const run = check(plant(t, { ...projections, 'src/plan-contract/plan-storage.ts': ['../../projections/fold.js'] }));
  t.equal(run.status, 1);
  t.match(
    run.stderr,
    'src/plan-contract/plan-storage.ts imports projections/fold.js: the domain must not import the projections built on it',
  );
});

t.test(
  'two files of one folder importing each other fail, type-only imports too; a file importing one that imports a third passes',
  async (t) => {
    const passes = check(
      plant(t, {
        ...chain,
        'src/orders/view.ts': ['./order.js'],
        'src/orders/order.ts': ['../planner/plan.js', './rules.js'],
        'src/orders/rules.ts': [],
      }),
    );
    t.equal(passes.status, 0, passes.stderr);
    const loop = check(
      plant(t, { ...chain, 'src/orders/view.ts': ['./order.js'], 'src/orders/order.ts': ['../planner/plan.js', 'type:./view.js'] }),
    );
    t.equal(loop.status, 1);
    t.match(loop.stderr, 'files import each other in a loop: src/orders/order.ts -> src/orders/view.ts -> src/orders/order.ts');
    const longer = check(
      plant(t, {
        ...chain,
        'src/orders/a.ts': ['./b.js'],
        'src/orders/b.ts': ['./c.js'],
        'src/orders/c.ts': ['./a.js', './d.js'],
        'src/orders/d.ts': ['./b.js'],
      }),
    );
    t.equal(longer.status, 1);
    t.match(
      longer.stderr,
      /files import each other in a loop: src\/orders\/a\.ts -> src\/orders\/b\.ts -> src\/orders\/c\.ts -> src\/orders\/a\.ts \(one of the loops among 4 files that reach one another: src\/orders\/a\.ts, src\/orders\/b\.ts, src\/orders\/c\.ts, src\/orders\/d\.ts\)/,
    );
  },
);

// assembly/ as asc reads it: './blocks' is blocks.ts
const assembly = {
  'assembly/index.ts': ['./blocks', './wire'],
  'assembly/blocks.ts': ['./cargo'],
  'assembly/composite-blocks.ts': ['./blocks', './cargo'],
  'assembly/wire.ts': ['./blocks'],
  'assembly/cargo.ts': [] as string[],
};

t.test('assembly/ files importing one another without a loop pass, imports without an extension followed', async (t) => {
  const run = check(plant(t, assembly));
  t.equal(run.status, 0, run.stderr);
  t.match(run.stdout, /0 problem\(s\)/);
});

t.test('two assembly/ files importing each other fail, as blocks.ts and composite-blocks.ts did', async (t) => {
  const run = check(plant(t, { ...assembly, 'assembly/blocks.ts': ['./cargo', './composite-blocks'] }));
  t.equal(run.status, 1);
  t.match(run.stderr, 'files import each other in a loop: assembly/blocks.ts -> assembly/composite-blocks.ts -> assembly/blocks.ts');
  const longer = check(plant(t, { ...assembly, 'assembly/cargo.ts': ['./wire'] }));
  t.equal(longer.status, 1);
  t.match(
    longer.stderr,
    'files import each other in a loop: assembly/blocks.ts -> assembly/cargo.ts -> assembly/wire.ts -> assembly/blocks.ts',
  );
});

t.test('an import in src/ without an extension fails, naming the file it should have named', async (t) => {
  // the closing import of the three-folder loop, written without its extension: the loop must not pass unseen
  const run = check(plant(t, { ...chain, 'src/storage/store.ts': ['../orders/order'] }));
  t.equal(run.status, 1);
  t.match(
    run.stderr,
    "src/storage/store.ts imports '../orders/order': no extension: Node's ES modules need the compiled file's name ('../orders/order.js')",
  );
  t.match(run.stdout, /1 problem\(s\)/);
});

t.test('an import naming no file fails, in src/ and in assembly/; an assembly/ import with an extension fails', async (t) => {
  const missing = check(plant(t, { ...chain, 'src/app.ts': ['./orders/orders.js'] }));
  t.equal(missing.status, 1);
  t.match(missing.stderr, "src/app.ts imports './orders/orders.js': no file src/orders/orders.ts");
  const missingModule = check(plant(t, { ...assembly, 'assembly/wire.ts': ['./block'] }));
  t.equal(missingModule.status, 1);
  t.match(missingModule.stderr, "assembly/wire.ts imports './block': no file assembly/block.ts");
  const withExtension = check(plant(t, { ...assembly, 'assembly/wire.ts': ['./blocks.ts'] }));
  t.equal(withExtension.status, 1);
  t.match(withExtension.stderr, "assembly/wire.ts imports './blocks.ts': asc names a module without an extension ('./blocks')");
});
