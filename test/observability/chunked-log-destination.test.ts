import t from 'tap';
import { pino } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chunkedLogDestination, type ChunkIo } from '../../src/observability/chunked-log-destination.js';
import { flushLogs } from '../../src/observability/logger.js';

type Outcome = 'ok' | 'EAGAIN' | 'EPIPE' | 'hold';

/**
 * A file descriptor played in memory: what reached it, each write call's bytes, and per call an
 * outcome ('hold' keeps the callback until release() is called, as a stalled reader would).
 */
function playedFd(options: { maxPerWrite?: number; outcomes?: Outcome[] } = {}) {
  const received: Buffer[] = [];
  const calls: number[] = [];
  const startedAt: number[] = [];
  const syncCalls: number[] = [];
  const outcomes = options.outcomes ?? [];
  const held: (() => void)[] = [];
  const io: ChunkIo = {
    write(_fd, buffer, offset, length, callback) {
      startedAt.push(performance.now());
      const outcome = outcomes.shift() ?? 'ok';
      const finish = () => {
        if (outcome === 'EAGAIN' || outcome === 'EPIPE') return callback(Object.assign(new Error(outcome), { code: outcome }), 0);
        const count = Math.min(length, options.maxPerWrite ?? length);
        received.push(Buffer.from(buffer.subarray(offset, offset + count)));
        calls.push(count);
        callback(null, count);
      };
      if (outcome === 'hold') held.push(finish);
      else setImmediate(finish);
    },
    writeSync(_fd, buffer, offset, length) {
      received.push(Buffer.from(buffer.subarray(offset, offset + length)));
      syncCalls.push(length);
      return length;
    },
  };
  return {
    io,
    calls,
    startedAt,
    syncCalls,
    text: () => Buffer.concat(received).toString('utf8'),
    release: () => held.splice(0).forEach((finish) => finish()),
  };
}

/** Waits, without flushing, until the played descriptor has taken a write. */
async function flushedByTheDelay(fd: { calls: number[] }): Promise<void> {
  while (fd.calls.length === 0) await sleep(5);
}

const flushed = (destination: { flush(callback: () => void): void }) => new Promise<void>((resolve) => destination.flush(resolve));

t.test('lines reach the descriptor in order, byte for byte, a chunk in one write once the next line does not fit', async (t) => {
  const fd = playedFd();
  const destination = chunkedLogDestination(1, { chunkBytes: 64, maxDelayMs: 60_000, io: fd.io });
  const lines = ['{"a":1}\n', '{"b":"é ü — 日本"}\n', '{"c":3}\n', '{"d":"0123456789"}\n', '{"e":5}\n'];
  for (const line of lines) destination.write(line);
  await sleep(20);
  t.ok(fd.calls.length >= 1, 'the chunks the later lines did not fit are written without waiting for the delay');
  t.ok(
    fd.calls.every((bytes) => bytes <= 64),
    'no write is larger than a chunk',
  );
  await flushed(destination);
  t.equal(fd.text(), lines.join(''), 'every line, in order, multi-byte characters intact');
  t.ok(fd.calls.length < lines.length, `several lines share a write (${fd.calls.length} writes for ${lines.length} lines)`);
});

t.test('a chunk that does not fill is written once its first line has waited maxDelayMs', async (t) => {
  const fd = playedFd();
  const destination = chunkedLogDestination(1, { chunkBytes: 65536, maxDelayMs: 30, io: fd.io });
  const before = performance.now();
  destination.write('one\n');
  destination.write('two\n');
  await flushedByTheDelay(fd);
  // When the write began, not what a clock read after a sleep says: a busy machine makes timers late,
  // never early, so this holds however loaded the run is.
  const waited = fd.startedAt[0]! - before;
  t.ok(waited >= 30 - 1, `the write began after the delay (${waited.toFixed(1)} ms, delay 30 ms)`);
  t.equal(fd.text(), 'one\ntwo\n');
  t.same(fd.calls, [8], 'one write for both');
});

t.test('a line longer than a chunk is written whole, in its place', async (t) => {
  const fd = playedFd();
  const destination = chunkedLogDestination(1, { chunkBytes: 32, maxDelayMs: 60_000, io: fd.io });
  const long = `${'x'.repeat(100)}\n`;
  destination.write('before\n');
  destination.write(long);
  destination.write('after\n');
  await flushed(destination);
  t.equal(fd.text(), `before\n${long}after\n`);
});

t.test('short writes (a pipe taking part of a chunk) continue where they stopped', async (t) => {
  const fd = playedFd({ maxPerWrite: 5 });
  const destination = chunkedLogDestination(1, { chunkBytes: 64, maxDelayMs: 60_000, io: fd.io });
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i}\n`);
  for (const line of lines) destination.write(line);
  await flushed(destination);
  t.equal(fd.text(), lines.join(''));
  t.ok(fd.calls.every((bytes) => bytes <= 5));
});

t.test('a full non-blocking pipe (EAGAIN) delays lines and loses none', async (t) => {
  const fd = playedFd({ outcomes: ['EAGAIN', 'EAGAIN', 'EAGAIN'] });
  const destination = chunkedLogDestination(1, { chunkBytes: 64, maxDelayMs: 60_000, retryMs: 1, io: fd.io });
  destination.write('kept 1\n');
  destination.write('kept 2\n');
  await flushed(destination);
  t.equal(fd.text(), 'kept 1\nkept 2\n');
});

t.test('a descriptor that refuses (EPIPE) drops its chunk, and the count is said once lines get through again', async (t) => {
  const fd = playedFd({ outcomes: ['EPIPE'] });
  const destination = chunkedLogDestination(1, {
    chunkBytes: 64,
    maxDelayMs: 60_000,
    io: fd.io,
    droppedNotice: (count) => `dropped ${count}\n`,
  });
  destination.write('lost 1\n');
  destination.write('lost 2\n');
  await flushed(destination);
  destination.write('later\n');
  await flushed(destination);
  t.equal(fd.text(), 'dropped 2\nlater\n');
});

t.test('while the descriptor does not drain, memory stops at maxQueuedBytes: later lines are counted, not kept', async (t) => {
  const fd = playedFd({ outcomes: ['hold'] });
  const destination = chunkedLogDestination(1, {
    chunkBytes: 16,
    maxDelayMs: 60_000,
    maxQueuedBytes: 40,
    io: fd.io,
    droppedNotice: (count) => `dropped ${count}\n`,
  });
  const lines = Array.from({ length: 30 }, (_, i) => `l${String(i).padStart(2, '0')}\n`); // 4 bytes each
  for (const line of lines) destination.write(line);
  const done = flushed(destination);
  fd.release();
  await done;
  const text = fd.text();
  const dropped = Number(/dropped (\d+)\n$/.exec(text)?.[1]);
  const kept = text.split('\n').filter((line) => line.startsWith('l'));
  t.ok(dropped > 0, `some lines were dropped (${dropped})`);
  t.equal(kept.length + dropped, lines.length, 'every line is either written or counted');
  t.same(
    kept,
    lines.slice(0, kept.length).map((line) => line.trimEnd()),
    'the lines kept are the first ones, in order',
  );
  t.ok(kept.length * 4 <= 40 + 16 + 16, `no more was kept than the bound allows (${kept.length * 4} bytes)`);
});

t.test('flushSync writes what is queued now, leaving the chunk in flight to its write: nothing twice, nothing lost', async (t) => {
  const fd = playedFd({ outcomes: ['hold'] });
  const destination = chunkedLogDestination(1, { chunkBytes: 16, maxDelayMs: 60_000, io: fd.io });
  const lines = Array.from({ length: 10 }, (_, i) => `s${i}\n`);
  for (const line of lines) destination.write(line);
  destination.flushSync();
  t.ok(fd.syncCalls.length > 0, 'the queued chunks were written synchronously');
  fd.release();
  await flushed(destination);
  const got = fd.text().split('\n').filter(Boolean).sort();
  t.same(got, lines.map((line) => line.trimEnd()).sort(), 'each line exactly once');
});

t.test("a pino logger on it keeps pino's lines and their order; flushLogs resolves once they are written", async (t) => {
  const fd = playedFd();
  const logger = pino({ base: null, timestamp: false }, chunkedLogDestination(1, { io: fd.io }));
  logger.info('one');
  logger.warn('two');
  await flushLogs(logger);
  t.same(
    fd
      .text()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line)),
    [
      { level: 30, msg: 'one' },
      { level: 40, msg: 'two' },
    ],
  );
});

t.test('a real process: every line reaches its stdout pipe in order, including those queued when it calls process.exit', async (t) => {
  const logger = new URL('../../src/observability/logger.js', import.meta.url).href;
  // 3,000 lines of about 200 bytes: several chunks, the last ones still queued at the exit.
  const script = `const { createLogger, infoLineWriter } = await import(${JSON.stringify(logger)});
    const write = infoLineWriter(createLogger('info'));
    for (let i = 0; i < 3000; i++) write('"n":' + i + ',"pad":"' + 'x'.repeat(150) + '"', 'line');
    process.exit(0);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const [code] = (await once(child, 'close')) as [number];
  t.equal(code, 0);
  const numbers = Buffer.concat(chunks)
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { n: number }).n);
  t.equal(numbers.length, 3000, 'every line');
  t.ok(
    numbers.every((n, i) => n === i),
    'in order',
  );
});
