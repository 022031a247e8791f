// npm run br:generate -- [--out DIR] [--sets FIRST-LAST]
// Writes the Bischoff & Ratcliff sets made by src/planner/checks/br-generator.ts in OR-Library's
// layout, BR8-BR15 into .bench-data/br/thpack8.txt ... thpack15.txt by default (git-ignored: they
// are made, not kept). BR1-BR7 come out byte for byte as ../shared/bench/br has them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BR_TYPE_COUNTS, formatBrFile, generateBrSet } from '../src/planner/checks/br-generator.js';

let out = '.bench-data/br';
let first = 8;
let last = 15;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--out') out = argv[++i]!;
  else if (argv[i] === '--sets') [first, last] = argv[++i]!.split('-').map(Number) as [number, number];
  else {
    process.stderr.write('usage: npm run br:generate -- [--out DIR] [--sets FIRST-LAST]\n');
    process.exit(2);
  }
}
if (!(first >= 1 && last <= BR_TYPE_COUNTS.length && first <= last)) {
  process.stderr.write(`sets are 1-${BR_TYPE_COUNTS.length}\n`);
  process.exit(2);
}
mkdirSync(out, { recursive: true });
for (let set = first; set <= last; set++) {
  const file = join(out, `thpack${set}.txt`);
  writeFileSync(file, formatBrFile(generateBrSet(set)));
  process.stdout.write(`${file}: BR${set}, 100 instances of ${BR_TYPE_COUNTS[set - 1]} box types\n`);
}
