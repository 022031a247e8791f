// scripts/function-lengths.js on a planted folder: a function of 71 lines is over 70 and one of 70 is
// not; methods and arrow functions count, and a function inside another counts on its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const script = fileURLToPath(new URL('../../../scripts/function-lengths.js', import.meta.url));
/** A body of n lines in all, its first and last lines the signature and the closing brace. */
const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');

t.test('functions over the limit, longest first, methods and arrows and inner functions too', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'function-lengths-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'a.ts'),
    [
      `export function seventyOne(): void {\n${body(71)}\n}`,
      `export function seventy(): void {\n${body(70)}\n}`,
      `export class K {\n  method(): void {\n${body(80)}\n  }\n}`,
      `export const arrow = (): void => {\n${body(75)}\n};`,
      `export function outer(): void {\n  function inner(): void {\n${body(72)}\n  }\n  inner();\n}`,
    ].join('\n'),
  );
  const run = spawnSync(process.execPath, [script, dir, '70'], { encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  const names = run.stdout
    .trim()
    .split('\n')
    .slice(0, -1)
    .map((line) => line.trim().split(/\s+/).at(-1));
  t.same(names, ['method', 'arrow', 'outer', 'inner', 'seventyOne']);
  t.match(run.stdout, /^\s+71 .*a\.ts:1 +seventyOne$/m);
  t.match(run.stdout, '5 functions over 70 lines');
  t.notMatch(run.stdout, / seventy$/m);
});
