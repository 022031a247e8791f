// `npm start`: the service on the embedded default.
import { configFromEnv, DEMO_SEED_FILE } from './config.js';
import { SeedRejected, startService } from './service.js';
import { describeBackends } from './backends.js';

const DEMO_API_KEY = 'acme-demo-key-0001';

try {
  const config = configFromEnv();
  const service = await startService(config);
  console.log(`Orders service listening on ${service.url} (${describeBackends(config)})`);
  console.log(`OpenAPI document: ${service.url}/api/v1/openapi.json`);
  // Only the demo document's key is ever printed: real keys never reach a log.
  if (config.seedFile === DEMO_SEED_FILE) console.log(`Demo lane 101 loaded. Demo API key: ${DEMO_API_KEY}  (send "Authorization: Api-Key ${DEMO_API_KEY}")`);
  const shutdown = () => {
    service.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
} catch (error) {
  console.error(error instanceof SeedRejected ? error.message : error);
  process.exit(1);
}
