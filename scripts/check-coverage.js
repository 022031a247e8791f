// tap 21 enforces only 100 % coverage or nothing; this holds the suite to the floor below instead.
// Reads the json-summary report tap wrote and fails when a total drops under its threshold.
import { readFileSync } from 'node:fs';

// A little under what the suite reaches (its run prints the figures), so that a drop fails the run.
const THRESHOLDS = { lines: 95, statements: 95, functions: 95, branches: 86 };

const { total } = JSON.parse(readFileSync(new URL('../.tap/report/coverage-summary.json', import.meta.url), 'utf8'));
const failures = Object.entries(THRESHOLDS).filter(([metric, floor]) => total[metric].pct < floor);
for (const [metric, floor] of Object.entries(THRESHOLDS)) {
  console.log(`coverage ${metric}: ${total[metric].pct} % (threshold ${floor} %)`);
}
if (failures.length > 0) {
  console.error(`coverage below threshold: ${failures.map(([metric]) => metric).join(', ')}`);
  process.exit(1);
}
