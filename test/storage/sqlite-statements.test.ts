// The embedded files' statements take no parameter that makes SQLite prepare them again on every run
// (src/storage/sqlite-parameters.ts), and the CAST that avoids it keeps the log's lookups on their index.
import t from 'tap';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEventsDatabase } from '../../src/eventstore/sqlite/sqlite-schema.js';
import { INTEGER_PARAM, TEXT_PARAM } from '../../src/storage/sqlite-parameters.js';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** The TypeScript sources that talk to SQLite: every file but the server adapters (PostgreSQL numbers its parameters). */
function sqliteSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sqliteSources(path);
    return entry.name.endsWith('.ts') && !/postgres|mongodb|kurrentdb/.test(entry.name) ? [path] : [];
  });
}

/** String and template literals that read like SQL with a `?` parameter, comments left out. */
function statementsIn(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const literals = code.match(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? [];
  return literals.filter((literal) => /\b(SELECT|DELETE|UPDATE)\b/.test(literal) && literal.includes('?'));
}

/** Why SQLite would prepare the statement again on every run, or undefined. */
function reprepared(statement: string): string | undefined {
  if (/\b(LIMIT|OFFSET)\s+\?/.test(statement)) return 'a LIMIT or OFFSET parameter';
  if (/\bORDER BY\b/.test(statement) && /(^|[^<>!])=\s*\?/.test(statement)) return 'a parameter compared with = beside ORDER BY';
  return undefined;
}

t.test('the check finds what SQLite prepares again', async (t) => {
  t.equal(
    reprepared("'SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1'"),
    'a parameter compared with = beside ORDER BY',
  );
  t.equal(reprepared("'SELECT id FROM outcome_journal ORDER BY id LIMIT ?'"), 'a LIMIT or OFFSET parameter');
  t.equal(reprepared(`'SELECT id FROM orders WHERE company_group = ${TEXT_PARAM} ORDER BY id DESC LIMIT ${INTEGER_PARAM}'`), undefined);
  t.equal(reprepared("'SELECT id FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT 5'"), undefined);
  t.equal(reprepared("'SELECT position FROM checkpoints WHERE consumer = ?'"), undefined);
  t.same(statementsIn("// 'SELECT a FROM b LIMIT ?'\nconst q = db.prepare(`SELECT a FROM b\n  LIMIT ?`);"), [
    '`SELECT a FROM b\n  LIMIT ?`',
  ]);
});

t.test('no statement under src/ is prepared again on every run', async (t) => {
  const files = sqliteSources(SRC);
  t.ok(files.length > 20, `${files.length} source files read`);
  let statements = 0;
  for (const file of files) {
    for (const statement of statementsIn(readFileSync(file, 'utf8'))) {
      statements += 1;
      const why = reprepared(statement);
      if (why) t.fail(`${file.slice(SRC.length)}: ${why} in ${statement.replace(/\s+/g, ' ').slice(0, 120)}`);
    }
  }
  t.ok(statements > 30, `${statements} statements with parameters checked`);
});

t.test("the log's stream lookups still search the (stream, revision) index", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-statements-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = openEventsDatabase(dir, false);
  t.teardown(() => db.close());
  for (const sql of [
    `SELECT revision FROM events WHERE stream = ${TEXT_PARAM} ORDER BY revision DESC LIMIT 1`,
    `SELECT * FROM events WHERE stream = ${TEXT_PARAM} ORDER BY revision`,
  ]) {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all('order:x')
      .map((row) => (row as { detail: string }).detail);
    t.match(plan.join('; '), /SEARCH events USING (COVERING )?INDEX sqlite_autoindex_events_2 \(stream=\?\)/, sql);
    t.notMatch(plan.join('; '), /TEMP B-TREE/, `${sql}: no sort`);
  }
});
