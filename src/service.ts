// Composition root: the only place that knows which adapters run.
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { openSqliteEventStore } from './eventstore/sqlite-event-store.js';
import { createApp } from './http/app.js';
import { startMasterDataService } from './master-data/master-data-service.js';
import { validateMasterDataDocument } from './master-data/validate-master-data.js';
import { orderIdAllocator } from './orders/order-id-allocator.js';
import { startProjector } from './read-models/projector.js';
import { openSqliteOrderReadModel } from './read-models/sqlite-order-read-model.js';
import type { Config } from './config.js';

export interface RunningService {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

export class SeedRejected extends Error {}

export async function startService(config: Config, log: (message: string, error?: unknown) => void = defaultLog): Promise<RunningService> {
  const store = openSqliteEventStore(config.dataDir);
  const orders = openSqliteOrderReadModel(config.dataDir);
  const masterDataService = await startMasterDataService(store, log);
  const projector = await startProjector(store, orders, (error) => log('order projection stopped', error));

  if (config.seedFile) await applySeed(config.seedFile, masterDataService);

  const app = createApp({
    store,
    orders,
    masterData: () => masterDataService.current,
    masterDataService,
    allocateOrderId: orderIdAllocator(store),
    visible: (position) => projector.waitFor(position),
    // TEMPORARY until the planning pipeline is wired: no order is planned yet, so nothing reaches this.
    renderPdf: async () => {
      throw new Error('packing instructions are not wired yet');
    },
    adminKey: config.adminKey,
    log,
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;

  return {
    url: `http://${host}:${port}`,
    server,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await projector.stop();
      await masterDataService.stop();
      await store.close();
      await orders.close();
    },
  };
}

async function applySeed(file: string, masterData: Awaited<ReturnType<typeof startMasterDataService>>): Promise<void> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SeedRejected(`ORDERS_SEED_FILE ${file}: ${(error as Error).message}`);
  }
  const validated = validateMasterDataDocument(document);
  if (!validated.ok) throw new SeedRejected(`ORDERS_SEED_FILE ${file} is invalid: ${JSON.stringify(validated.errors)}`);
  const result = await masterData.apply(validated.value);
  if (!result.ok) throw new SeedRejected(`ORDERS_SEED_FILE ${file} conflicts with stored master data: ${JSON.stringify(result.errors)}`);
}

function defaultLog(message: string, error?: unknown): void {
  console.error(message, error ?? '');
}
