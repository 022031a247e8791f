// A real service on loopback with its own data directory, for tests that talk HTTP.
import { notificationsConfigFromEnv } from '../../src/config.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../src/service.js';
import type { Config } from '../../src/config.js';
import { ADMIN_KEY, testSeed } from './seed.js';
import { embeddedEnv } from './embedded-env.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';

export interface TestService extends RunningService {
  dataDir: string;
  request(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'orders-test-'));
}

export async function startTestService(
  options: {
    dataDir?: string;
    key?: string;
    seed?: unknown;
    adminKey?: string | undefined;
    logger?: Logger;
    visibleWithinMs?: number;
    maxAppendBytes?: number;
    config?: Partial<Config>;
  } = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? tempDataDir();
  const seedFile = join(dataDir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(options.seed ?? testSeed()));
  const service = await startService(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      seedFile,
      adminKey: 'adminKey' in options ? options.adminKey : ADMIN_KEY,
      plannerThreads: 1,
      plannerTimeLimitMs: 5000,
      planningLeaseMs: 10_000,
      singletonLeaseMs: 3_000,
      shutdownTimeoutMs: 10_000,
      visibleWithinMs: options.visibleWithinMs ?? 5000,
      maxAppendBytes: options.maxAppendBytes,
      notifications: notificationsConfigFromEnv(embeddedEnv()),
      ...options.config,
    },
    options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  );
  return {
    ...service,
    dataDir,
    async request(method, path, { key = options.key ?? null, body, rawBody, headers = {} } = {}) {
      const send = () =>
        fetch(service.url + path, {
          method,
          headers: {
            ...(key ? { authorization: `Api-Key ${key}` } : {}),
            ...(body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          ...(rawBody !== undefined ? { body: rawBody } : body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
      // A test busy for seconds (parsing a PDF on a loaded machine) can miss the moment its idle
      // keep-alive connection expires; the server has closed it, and the next request on it is reset.
      // A GET is sent again, as any HTTP client may; a POST or PUT never is.
      const response = await send().catch((error: { cause?: { code?: string } }) => {
        if (method === 'GET' && error.cause?.code === 'ECONNRESET') return send();
        throw error;
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
}

export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

/** Polls until the condition holds; fails after the deadline rather than hanging the suite. */
export async function eventually(condition: () => Promise<boolean>, timeoutMs = 20_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
