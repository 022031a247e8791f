// In CI the MongoDB, Kafka and PostgreSQL suites must run, not be skipped: .ci/run starts the test servers and
// exports their variables. Elsewhere (npm test on a machine without them) those suites skip with the reason.
import t from 'tap';

t.test(
  'CI runs the MongoDB, Kafka and PostgreSQL suites against the test servers',
  {
    skip: process.env.CI
      ? false
      : 'not under CI: without MONGODB_URL, KAFKA_BROKERS and POSTGRES_URL the server suites skip with the reason',
  },
  async (t) => {
    t.ok(
      process.env.MONGODB_URL,
      `MONGODB_URL is set (${process.env.MONGODB_URL ?? 'unset'}): scripts/test-servers/test-servers start exports it`,
    );
    t.ok(process.env.KAFKA_BROKERS, `KAFKA_BROKERS is set (${process.env.KAFKA_BROKERS ?? 'unset'})`);
    t.ok(process.env.POSTGRES_URL, `POSTGRES_URL is set (${process.env.POSTGRES_URL ?? 'unset'})`);
  },
);
