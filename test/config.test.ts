// The environment as the service reads it: loopback unless HOST says otherwise, and the new bounds.
import t from 'tap';
import { availableParallelism } from 'node:os';
import { configFromEnv } from '../src/config.js';

t.test('HOST defaults to loopback; an empty HOST too', async (t) => {
  t.equal(configFromEnv({}).host, '127.0.0.1');
  t.equal(configFromEnv({ HOST: '' }).host, '127.0.0.1');
  t.equal(configFromEnv({ HOST: '0.0.0.0' }).host, '0.0.0.0');
});

t.test('shutdown, visibility, append size and quick_check settings', async (t) => {
  t.match(configFromEnv({}), { shutdownTimeoutMs: 10_000, visibleWithinMs: 5000, maxAppendBytes: 4 * 1024 * 1024, quickCheck: true });
  t.match(
    configFromEnv({
      ORDERS_SHUTDOWN_TIMEOUT_MS: '3000',
      ORDERS_VISIBLE_WITHIN_MS: '250',
      ORDERS_MAX_APPEND_BYTES: '65536',
      ORDERS_STARTUP_QUICK_CHECK: 'false',
    }),
    {
      shutdownTimeoutMs: 3000,
      visibleWithinMs: 250,
      maxAppendBytes: 65536,
      quickCheck: false,
    },
  );
  t.throws(() => configFromEnv({ ORDERS_SHUTDOWN_TIMEOUT_MS: '10' }), /ORDERS_SHUTDOWN_TIMEOUT_MS must be a whole number from 1000/);
  t.throws(() => configFromEnv({ ORDERS_STARTUP_QUICK_CHECK: 'no' }), /ORDERS_STARTUP_QUICK_CHECK must be true or false, got "no"/);
});

t.test('planner threads default to the cores this process may use, running nicer than the main thread', async (t) => {
  t.match(configFromEnv({}), { plannerThreads: availableParallelism(), plannerNiceness: 10 });
  t.match(configFromEnv({ ORDERS_PLANNER_THREADS: '1', ORDERS_PLANNER_NICENESS: '0' }), { plannerThreads: 1, plannerNiceness: 0 });
  t.throws(() => configFromEnv({ ORDERS_PLANNER_NICENESS: '20' }), /ORDERS_PLANNER_NICENESS must be a whole number from 0/);
});

t.test("the embedded log's page size: 500 by default, 1 to 10000", async (t) => {
  t.equal(configFromEnv({}).logPageSize, 500);
  t.equal(configFromEnv({ ORDERS_LOG_PAGE_SIZE: '1' }).logPageSize, 1);
  t.throws(() => configFromEnv({ ORDERS_LOG_PAGE_SIZE: '0' }), /ORDERS_LOG_PAGE_SIZE must be a whole number from 1 to 10000, got "0"/);
});
