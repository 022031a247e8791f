import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import { BR_TYPE_COUNTS, formatBrFile, generateBrInstance, generateBrSet } from '../../../src/planner/checks/br-generator.js';

// OR-Library's thpack1-7 as distributed: ../shared/bench/br next to the repository. They are not part of it, so
// a clone made elsewhere has no copy to compare with, and says so rather than failing on a missing file.
const brDir = new URL('../../../../../shared/bench/br/', import.meta.url);
const published = (set: number): string => readFileSync(new URL(`thpack${set}.txt`, brDir), 'utf8');
const noCopy = !existsSync(brDir) && `the published BR files are not at ${brDir.pathname} (../shared/bench/br)`;

t.test('the generator reproduces every published BR1-BR7 file byte for byte (700 instances)', { skip: noCopy }, async (t) => {
  for (let set = 1; set <= 7; set++) t.equal(formatBrFile(generateBrSet(set)), published(set), `thpack${set}.txt`);
});

t.test('BR8-BR15 have 30 to 100 box types, cargo within the container volume, the flags the stability rule gives', async (t) => {
  const volume = 587 * 233 * 220;
  for (let set = 8; set <= 15; set++) {
    for (const inst of generateBrSet(set, 5)) {
      t.equal(inst.types.length, BR_TYPE_COUNTS[set - 1], `BR${set} #${inst.instance} types`);
      const cargo = inst.types.reduce((s, b) => s + b.count * b.dims[0] * b.dims[1] * b.dims[2], 0);
      t.ok(cargo <= volume && cargo > 0.95 * volume, `BR${set} #${inst.instance} cargo ${cargo}`);
      for (const b of inst.types) {
        t.ok(b.count >= 1 && b.dims[0] >= b.dims[1] && b.dims[1] >= b.dims[2], 'dims descending, one box at least');
        t.same(
          b.verticalOk,
          b.dims.map((d) => d / b.dims[2] < 2),
          'a side may stand vertical when under twice the smallest',
        );
      }
    }
  }
});

t.test('box types come first from the seed: a set with more types extends the types of one with fewer', async (t) => {
  const br7 = generateBrInstance(42, 20);
  const br15 = generateBrInstance(42, 100);
  t.same(
    br15.types.slice(0, 20).map((b) => b.dims),
    br7.types.map((b) => b.dims),
  );
  t.notSame(
    br15.types.slice(0, 20).map((b) => b.count),
    br7.types.map((b) => b.count),
    'counts are drawn after all types',
  );
});
