// An ERP integrator's way in: a client generated from the served OpenAPI document, and a program that uses
// only its typed API for the whole order flow (test/api/generated-clients/<client>/). Four generators, as
// integrators use them: openapi-generator's python, typescript-fetch and java (okhttp-gson), and
// openapi-python-client. Each client is generated from GET /api/v1/openapi.json of one started service,
// compiled (tsc; javac through Maven) and run against that service; the test fails on a generator warning
// that a part of the API was left out or overwritten, on a compile error, and on any step of a flow.
// `.ci/run` installs the generators pinned in generated-clients/ under ~/.cache/orders-generated-clients
// (the jar and the Java client's dependencies in a Maven repository there, openapi-python-client and the
// Python clients' dependencies in a venv); elsewhere the test is skipped saying what is missing, and under
// CI a missing one fails.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ACME_KEY } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

t.setTimeout(600_000);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = join(root, 'test', 'api', 'generated-clients');
const cache = join(homedir(), '.cache', 'orders-generated-clients');

/** What each flow prints, in this order, one "ok - <step>" line each. */
const STEPS = [
  'submit with order_items',
  'submit with pre_builts and loose_boxes',
  'retrieve until planned',
  'list with the envelope',
  'list with paginate=false',
  'pallet contents',
  'load plan',
  'download the packing instructions (%PDF)',
  'history',
  '401 with detail',
  '404 on retrieve',
  '400 under order for an unknown order',
  '400 with field errors on an invalid submit',
];

const [group, artifact, version] = readFileSync(join(here, 'openapi-generator.txt'), 'utf8').trim().split(':') as [string, string, string];
const jar = join(cache, 'maven', ...group.split('.'), artifact, version, `${artifact}-${version}.jar`);
const venvBin = join(cache, 'venv', 'bin');
const pinnedOpc = /^openapi-python-client==(\S+)$/m.exec(readFileSync(join(here, 'requirements.txt'), 'utf8'))![1]!;

function missingTool(): string | undefined {
  if (!existsSync(jar)) return `openapi-generator-cli ${version} is not at ${jar}`;
  const opc = spawnSync(join(venvBin, 'openapi-python-client'), ['--version'], { encoding: 'utf8' });
  const opcVersion = /version:? (\S+)/.exec(opc.stdout ?? '')?.[1];
  if (opcVersion !== pinnedOpc)
    return `openapi-python-client ${pinnedOpc} is not in ${join(cache, 'venv')} (found ${opcVersion ?? 'none'})`;
  for (const [tool, args] of [
    ['java', ['-version']],
    ['javac', ['-version']],
    ['mvn', ['-v']],
  ] as const)
    if (spawnSync(tool, args).status !== 0) return `${tool} is not on PATH`;
  return undefined;
}

interface Run {
  command: string;
  code: number | null;
  output: string;
  seconds: number;
}

/** Runs a command to its end, its stdout and stderr as one text. */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    // tap sets FORCE_COLOR for its children; the tools' logs are read here, plain.
    const { FORCE_COLOR: _forced, ...env } = process.env;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => (output += String(error)));
    child.once('close', (code) =>
      resolve({ command: [command, ...args].join(' '), code, output, seconds: (performance.now() - started) / 1000 }),
    );
  });
}

/** The runs of one client, in order; the first that fails ends it. */
async function pipeline(steps: (() => Promise<Run>)[]): Promise<Run[]> {
  const runs: Run[] = [];
  for (const next of steps) {
    const result = await next();
    runs.push(result);
    if (result.code !== 0) break;
  }
  return runs;
}

// Short-lived JVMs: the client compiler alone and the serial collector cost them half the CPU of the defaults.
const QUICK_JVM = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

const missing = missingTool();
if (missing) {
  if (process.env.CI) t.fail(missing);
  else t.test('generated clients run the order flow', { skip: `${missing} (.ci/run installs it)` }, async () => {});
} else {
  t.test(`clients generated from the served document run the order flow`, async (t) => {
    const service = await startTestService({ key: ACME_KEY });
    const work = mkdtempSync(join(tmpdir(), 'orders-generated-clients-'));
    t.teardown(async () => {
      await service.stop();
      removeDataDir(service.dataDir);
      rmSync(work, { recursive: true, force: true });
    });
    const document = await service.request('GET', '/api/v1/openapi.json');
    t.equal(document.status, 200);
    const spec = join(work, 'openapi.json');
    writeFileSync(spec, JSON.stringify(document.body));

    const flowEnv = (client: string) => ({ ORDERS_URL: service.url, ORDERS_KEY: ACME_KEY, ORDERS_RUN: `${client}-${process.pid}` });
    const python = join(venvBin, 'python');
    // openapi-generator: the three clients from one JVM (its batch command), each with its defaults.
    const generators = ['python', 'typescript-fetch', 'java'];
    for (const generator of generators)
      writeFileSync(
        join(work, `${generator}.json`),
        JSON.stringify({ generatorName: generator, inputSpec: spec, outputDir: join(work, generator) }),
      );
    const generated = run(
      'java',
      [...QUICK_JVM, '-jar', jar, 'batch', '--fail-fast', ...generators.map((generator) => join(work, `${generator}.json`))],
      { cwd: work },
    );
    // javac through Maven's compiler plugin (its goal alone: the generated project has no resources), no
    // annotation processors looked for; and the classpath the flow runs with.
    const mavenEnv = { MAVEN_OPTS: QUICK_JVM.join(' ') };
    const maven = [
      '-B',
      '-q',
      `-Dmaven.repo.local=${join(cache, 'maven')}`,
      '-Dmaven.compiler.proc=none',
      'compiler:compile',
      'dependency:build-classpath',
      '-Dmdep.outputFile=classpath.txt',
    ];
    const javaProject = join(work, 'java');
    const tsProject = join(work, 'ts');

    const [openapiGenerator, ...clients] = await Promise.all([
      generated.then((result) => [result]),
      pipeline([
        () =>
          run(
            join(venvBin, 'openapi-python-client'),
            ['generate', '--path', spec, '--output-path', 'opc', '--config', join(here, 'openapi-python-client', 'config.yaml')],
            {
              cwd: work,
              // Its post-generation hooks run ruff, which the venv holds.
              env: { PATH: `${venvBin}${delimiter}${process.env.PATH}` },
            },
          ),
        () =>
          run(python, [join(here, 'openapi-python-client', 'flow.py')], {
            cwd: work,
            env: { ...flowEnv('opc'), PYTHONPATH: join(work, 'opc') },
          }),
      ]),
      pipeline([
        () => generated,
        () =>
          run(python, [join(here, 'openapi-generator-python', 'flow.py')], {
            cwd: work,
            env: { ...flowEnv('py'), PYTHONPATH: join(work, 'python') },
          }),
      ]),
      pipeline([
        () => generated,
        async () => {
          mkdirSync(tsProject);
          cpSync(join(work, 'typescript-fetch'), join(tsProject, 'client'), { recursive: true });
          cpSync(join(here, 'typescript-fetch', 'flow.ts'), join(tsProject, 'flow.ts'));
          writeFileSync(join(tsProject, 'package.json'), '{ "type": "commonjs" }\n');
          const tsc = join(root, 'node_modules', '.bin', 'tsc');
          // Its own code and the client's checked, strict; the .d.ts of the libraries are not (skipLibCheck).
          const options = [
            '--strict',
            '--skipLibCheck',
            '--target',
            'es2022',
            '--module',
            'commonjs',
            '--moduleResolution',
            'node10',
            '--lib',
            'es2022,dom',
          ];
          return run(
            tsc,
            [...options, '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), '--outDir', 'out', 'flow.ts'],
            { cwd: tsProject },
          );
        },
        () => run(process.execPath, [join(tsProject, 'out', 'flow.js')], { cwd: tsProject, env: flowEnv('ts') }),
      ]),
      pipeline([
        () => generated,
        async () => {
          cpSync(join(here, 'java', 'Flow.java'), join(javaProject, 'src', 'main', 'java', 'Flow.java'));
          // Offline first: a warm repository has every dependency; a cold one is filled from Maven Central.
          const offline = await run('mvn', ['-o', ...maven], { cwd: javaProject, env: mavenEnv });
          return offline.code === 0 ? offline : run('mvn', maven, { cwd: javaProject, env: mavenEnv });
        },
        () =>
          run(
            'java',
            [...QUICK_JVM, '-cp', `target/classes${delimiter}${readFileSync(join(javaProject, 'classpath.txt'), 'utf8').trim()}`, 'Flow'],
            {
              cwd: javaProject,
              env: flowEnv('java'),
            },
          ),
      ]),
    ]);

    const generation = openapiGenerator![0]!;
    t.equal(generation.code, 0, `openapi-generator ${version} batch: exit 0 (${generation.seconds.toFixed(1)} s)`);
    t.match(generation.output, /Batch generation finished 3 generators successfully/);
    // Two operations or models written to one file: one of them is lost.
    t.notMatch(generation.output, /Duplicate file path detected/, 'no file written twice');
    t.notMatch(generation.output, /\bERROR\b/, 'no error');

    const names = ['openapi-python-client', 'openapi-generator python', 'openapi-generator typescript-fetch', 'openapi-generator java'];
    clients.forEach((runs, index) => {
      t.test(names[index]!, async (t) => {
        for (const step of runs) t.comment(`${step.seconds.toFixed(1)} s: ${step.command.replace(work, '$WORK')}`);
        const failed = runs.find((step) => step.code !== 0);
        if (failed) t.fail(`${failed.command} exited ${failed.code}:\n${failed.output.slice(-4000)}`);
        const flow = runs[runs.length - 1]!;
        t.strictSame(
          flow.output.split('\n').flatMap((line) => (line.startsWith('ok - ') ? [line.slice(5)] : [])),
          STEPS,
          'every step of the flow, in order',
        );
        if (index === 0)
          t.notMatch(runs[0]!.output, /Warning|Unable|Failed/i, 'openapi-python-client generated everything, with no warning');
      });
    });
  });
}
