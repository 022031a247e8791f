// Writes the sample documents for a person to look at (not a test):
//   node dist/test/packing-instructions/write-sample.js [/tmp/packing-instructions-sample.pdf]
// The large order goes next to it with "-large" in its name.
import { writeFile } from 'node:fs/promises';
import { renderPackingInstructions } from '../../src/packing-instructions/render-packing-instructions.js';
import { GENERATED_AT, largeOrder, samplePlan, submittedOrder } from './sample-orders.js';

// `tap dist/test/packing-instructions/` runs every file of the folder: writing files is not a test.
if (process.env.TAP === '1') {
  console.log('1..0 # not a test: a script that writes sample PDFs for people to look at');
} else {
  const path = process.argv[2] ?? '/tmp/packing-instructions-sample.pdf';
  await writeFile(path, await renderPackingInstructions({ submitted: submittedOrder(), plan: samplePlan(), generatedAt: GENERATED_AT }));
  const large = largeOrder();
  const largePath = path.replace(/\.pdf$/, '-large.pdf');
  await writeFile(largePath, await renderPackingInstructions({ ...large, generatedAt: GENERATED_AT }));
  console.log(`wrote ${path} and ${largePath}`);
}
