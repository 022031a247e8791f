// The build: the planner's WASM (build:wasm: the service's build and the tests'), the TypeScript into
// dist/ (build:ts) and the viewer's bundle (build:viewer), then a stamp of its inputs in dist/. With
// --if-changed it builds only when the inputs differ from the stamp's, or an output is missing: `npm test`
// right after `npm ci` (whose `prepare` has just built the same tree), or run twice on an unchanged tree,
// does not build it again.
// The inputs are every file under the folders the three builds read and the files that configure them,
// package-lock.json included (a dependency's version changes what tsc, asc and esbuild make).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const INPUTS = ['assembly', 'src', 'projections', 'test', 'bench', 'tsconfig.json', 'asconfig.json', 'package.json', 'package-lock.json'];
const OUTPUTS = ['dist/src/main.js', 'dist/src/viewer/assets/viewer.js', 'build/planner.wasm', 'build/planner-checks.wasm'];
const STAMP = join(root, 'dist', '.build-inputs');

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function inputsDigest() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => files(join(root, input)))) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const digest = inputsDigest();
if (process.argv.includes('--if-changed')) {
  const stamped = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : undefined;
  if (stamped === digest && OUTPUTS.every((output) => existsSync(join(root, output)))) {
    console.log('build: up to date (its inputs are those of the last build)');
    process.exit(0);
  }
}
for (const step of ['build:wasm', 'build:ts', 'build:viewer']) {
  const result = spawnSync('npm', ['run', '--silent', step], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
writeFileSync(STAMP, `${digest}\n`);
