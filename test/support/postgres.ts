// Tests against a real PostgreSQL (POSTGRES_URL) each get a schema of their own, named in the URL's
// search_path, and drop it afterwards: the suite never touches data it did not create.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface ScratchSchema {
  /** POSTGRES_URL with this schema first on the search_path: what the service or a child process opens. */
  url: string;
  schema: string;
  /** Runs SQL in the scratch schema, on a connection of its own. */
  sql<Row extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

export function schemaUrl(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

export async function scratchSchema(url: string, prefix: string): Promise<ScratchSchema> {
  const schema = `${prefix}_${randomUUID().slice(0, 8)}`.replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  return {
    url: schemaUrl(url, schema),
    schema,
    async sql<Row extends object>(text: string, values?: unknown[]) {
      const client = await admin.connect();
      try {
        await client.query(`SET search_path = ${schema}`);
        return (await client.query<Row>(text, values)).rows;
      } finally {
        client.release();
      }
    },
    async drop() {
      try {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
