// The environment for a service a test starts on the embedded stores. .ci/run exports KAFKA_BROKERS,
// MONGODB_URL and POSTGRES_URL for the suites that run against the test servers; a service started by any other test
// must not pick them up and share a database or a topic with every other test that runs at the time.
const SERVER_VARIABLES = ['KAFKA_BROKERS', 'MONGODB_URL', 'EVENTSTORE_CONNECTION_STRING', 'POSTGRES_URL'] as const;

export function embeddedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVER_VARIABLES) delete env[name];
  return { ...env, ...extra };
}
