// tap 21 enforces only 100 % coverage or nothing; this holds the suite to the floor below instead.
// Reads the json-summary report tap wrote and fails when a total drops under its threshold.
import { readFileSync } from 'node:fs';

const THRESHOLDS = { lines: 85, statements: 85, functions: 80, branches: 75 };

const { total } = JSON.parse(readFileSync(new URL('../coverage/coverage-summary.json', import.meta.url), 'utf8'));
const failures = Object.entries(THRESHOLDS).filter(([metric, floor]) => total[metric].pct < floor);
for (const [metric, floor] of Object.entries(THRESHOLDS)) {
  console.log(`coverage ${metric}: ${total[metric].pct} % (threshold ${floor} %)`);
}
if (failures.length > 0) {
  console.error(`coverage below threshold: ${failures.map(([metric]) => metric).join(', ')}`);
  process.exit(1);
}
