import t from 'tap';
import { Teardown } from '../../src/service/teardown.js';

/** A part whose stop is recorded, and holds until `release` when `held`. */
function recorder() {
  const events: string[] = [];
  const part = (name: string, options: { fails?: boolean; held?: Promise<void> } = {}) => ({
    name,
    async stop() {
      events.push(`${name} stopping`);
      await options.held;
      events.push(`${name} stopped`);
      if (options.fails) throw new Error(`${name} failed to stop`);
    },
  });
  return { events, part };
}

t.test('stages stop last-started first; the parts of one stage stop together', async (t) => {
  const { events, part } = recorder();
  const parts = new Teardown();
  parts.stage('stores');
  parts.add(part('log'), (p) => p.stop());
  parts.add(part('read model'), (p) => p.stop());
  parts.stage('consumers');
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  parts.add(part('planner'), (p) => p.stop());
  parts.add(part('reactor', { held }), (p) => p.stop());
  setImmediate(() => release());
  await parts.unwind();
  t.same(events.slice(0, 2).sort(), ['planner stopping', 'reactor stopping'], 'both consumers are told before either has stopped');
  t.ok(events.indexOf('reactor stopped') < events.indexOf('log stopping'), 'the stores wait for every consumer');
  t.same(events.slice(-4).sort(), ['log stopped', 'log stopping', 'read model stopped', 'read model stopping']);
  events.length = 0;
  await parts.unwind();
  t.same(events, [], 'a second unwind stops nothing again');
});

t.test('a failure during start-up stops what started so far, and the start-up error is thrown', async (t) => {
  const { events, part } = recorder();
  const parts = new Teardown();
  await t.rejects(
    parts.orUnwind(async () => {
      parts.stage('stores');
      parts.add(part('log'), (p) => p.stop());
      parts.stage('server');
      parts.add(part('server'), (p) => p.stop());
      throw new Error('the seed file is invalid');
    }),
    { message: 'the seed file is invalid' },
  );
  t.same(events, ['server stopping', 'server stopped', 'log stopping', 'log stopped']);
});

t.test('a part that fails to stop keeps no other part running; the first failure is thrown at the end', async (t) => {
  const { events, part } = recorder();
  const parts = new Teardown();
  parts.stage('stores');
  parts.add(part('log'), (p) => p.stop());
  parts.stage('consumers');
  parts.add(part('reactor', { fails: true }), (p) => p.stop());
  await t.rejects(parts.unwind(), { message: 'reactor failed to stop' });
  t.same(events, ['reactor stopping', 'reactor stopped', 'log stopping', 'log stopped']);
});
