// Redocly CLI (the version pinned in package.json) lints the OpenAPI document as a started service serves
// it, with its recommended rules less those redocly.yaml turns off, each with the reason. Warnings count:
// the lint passes with no problem at all.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { removeDataDir, startTestService } from '../support/service.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

t.test('redocly lint: the recommended rules, no error, no warning', async (t) => {
  const service = await startTestService();
  t.teardown(async () => {
    await service.stop();
    removeDataDir(service.dataDir);
  });
  const served = await service.request('GET', '/api/v1/openapi.json');
  t.equal(served.status, 200);
  const file = join(service.dataDir, 'openapi.json');
  writeFileSync(file, JSON.stringify(served.body));
  const lint = spawnSync(
    join(root, 'node_modules', '.bin', 'redocly'),
    ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json'],
    { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, timeout: 120_000 },
  );
  const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{'))) as {
    totals: { errors: number; warnings: number; ignored: number };
    problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
  };
  t.strictSame(
    report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`),
    [],
    'no problem',
  );
  t.strictSame(report.totals, { errors: 0, warnings: 0, ignored: 0 });
  t.equal(lint.status, 0, 'redocly lint exits 0');
});
