import t from 'tap';
import { setImmediate as settle } from 'node:timers/promises';
import { createLogger, infoLineWriter } from '../../src/observability/logger.js';
import { logLines } from '../support/log-lines.js';

t.test('a hand-built line has the fields, order and bindings of the line pino writes for the same record', async (t) => {
  const { lines, sink } = logLines();
  const logger = createLogger('info', sink).child({ component: 'http' });
  logger.info({ status: 200, path: '/a' }, 'request');
  infoLineWriter(logger)('"status":200,"path":"/a"', 'request');
  await settle();
  t.equal(lines.length, 2);
  const [byPino, byHand] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  t.same(Object.keys(byHand!), Object.keys(byPino!), 'same keys in the same order');
  t.same({ ...byHand, time: 0 }, { ...byPino, time: 0 });
  t.match(byHand, { level: 30, service: 'orders', component: 'http', msg: 'request' });
  t.type(byHand!.time, 'number');
});

t.test('the message is escaped, so a line stays one valid JSON object', async (t) => {
  const { lines, sink } = logLines();
  infoLineWriter(createLogger('info', sink))('"n":1', 'say "hi"\n\\ bye');
  await settle();
  t.equal(lines.length, 1);
  t.equal((JSON.parse(lines[0]!) as { msg: string }).msg, 'say "hi"\n\\ bye');
});

t.test('nothing is written when the level is above info, and lines follow a level changed later', async (t) => {
  const { lines, sink } = logLines();
  const logger = createLogger('warn', sink);
  const write = infoLineWriter(logger);
  write('"n":1', 'hidden');
  logger.level = 'info';
  write('"n":2', 'shown');
  await settle();
  t.same(
    lines.map((line) => (JSON.parse(line) as { n: number }).n),
    [2],
  );
});
