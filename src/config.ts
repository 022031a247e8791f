// Configuration comes from the environment only; every variable is documented in README.md.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEMO_SEED_FILE = fileURLToPath(new URL('../../demo/master-data.json', import.meta.url));

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** undefined: no seed document is applied at start-up. */
  seedFile: string | undefined;
  adminKey: string | undefined;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a TCP port number, got "${env.PORT}"`);
  // Unset: the demo lane, so that `npm start` is useful on its own; set to empty: no seed at all.
  const seedFile = env.ORDERS_SEED_FILE === undefined ? DEMO_SEED_FILE : env.ORDERS_SEED_FILE.trim() || undefined;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.ORDERS_DATA_DIR ?? './data'),
    seedFile: seedFile && resolve(seedFile),
    adminKey: env.ORDERS_ADMIN_KEY || undefined,
  };
}
