// The variables `npm start` sets before it runs the service: the assignments that open package.json's
// start script, of the build a service's entry point belongs to. A benchmark starts the service with
// them, as users start it; a build whose start script sets none is started with none.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `script`: a build's `dist/src/main.js`. */
export function startScriptEnv(script: string): Record<string, string> {
  const manifest = join(dirname(script), '../../package.json');
  const start = (JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: { start?: string } }).scripts?.start ?? '';
  const env: Record<string, string> = {};
  for (const word of start.trim().split(/\s+/)) {
    const assignment = /^([A-Za-z_]\w*)=(\S*)$/.exec(word);
    if (!assignment) break;
    env[assignment[1]!] = assignment[2]!;
  }
  return env;
}
