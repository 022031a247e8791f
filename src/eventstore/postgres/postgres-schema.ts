// The PostgreSQL log's table and the functions that write it, created at start-up in the connection's
// schema (the first of its search_path), by whichever replica comes first.
//
// Why positions are handed out under a lock, not by a sequence: a sequence value is taken when a row is
// inserted, but becomes visible when its transaction commits, and transactions commit in any order. A
// reader that has seen position 11 can meet position 10 later, and a follower reading "position > 11"
// would never see it. Here a batch is written by one call of `orders_append_events`, which takes a
// transaction-scoped advisory lock and inserts positions head+1, head+2, ... The lock is released only
// after the commit is visible, so the next writer's head includes it: positions become visible in
// position order, with no gap, and the hash chain runs through the whole log, as on SQLite.
//
// Why the whole append runs on the server: the lock is held only while the server works, never across
// a round trip, so a writer whose network fails cannot stall the others, and a writer far away
// still holds it only for as long as the server works. That is also why the hash is computed here, by `orders_event_hash`:
// the preimage of src/eventstore/hash-chain.ts written once more in SQL. A test holds the two to the
// same hashes (test/eventstore/postgres/postgres-event-store.test.ts), and every verification reads them in TS.
//
// An append is idempotent by its first event's id: a batch sent again after its answer was lost finds
// its appends written and answers as the first call would have, and the first call arriving late (a
// network that held it) finds them written and writes nothing.
import type { LogConnection } from './postgres-connection.js';

/** The channel a commit is announced on: followers on other replicas look at once rather than at their next poll. */
export const COMMIT_CHANNEL = 'orders_events_committed';
/** Where replicas announce how far a consumer of the log has got (ProgressSignals): `name;position;schema`. */
export const PROGRESS_CHANNEL = 'orders_progress';

// One lock for the schema creation of every replica, one (per schema) for the writers.
const SCHEMA_LOCK = `hashtext('orders_event_log_schema')`;

const DDL = String.raw`
CREATE TABLE IF NOT EXISTS events (
  position bigint PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  stream text NOT NULL,
  revision bigint NOT NULL,
  type text NOT NULL,
  -- the JSON text exactly as hashed (jsonb would rewrite it)
  data text NOT NULL,
  -- microseconds since the epoch, UTC
  recorded_at bigint NOT NULL,
  hash bytea NOT NULL,
  CONSTRAINT events_stream_revision UNIQUE (stream, revision)
);

-- Plans run to hundreds of KiB: lz4 compresses them in a quarter of the default's time (PostgreSQL 14 and
-- later, built with it; elsewhere the default stays). Affects rows written from now on.
DO $lz4$ BEGIN
  EXECUTE 'ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN NULL;
END $lz4$;

-- hash-chain.ts: <previous hash, hex>\n<type>\n<stream>\n<revision>\n<recorded at, µs>\n<data as stored>, UTF-8.
CREATE OR REPLACE FUNCTION orders_event_hash(previous bytea, type text, stream text, revision bigint, recorded_at bigint, data text)
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT
AS $fn$
  SELECT sha256(convert_to(encode(previous, 'hex') || E'\n' || type || E'\n' || stream || E'\n' || revision::text || E'\n' || recorded_at::text || E'\n' || data, 'UTF8'))
$fn$;

-- batch: [[stream, expected kind ('any' | 'no_stream' | 'exact'), expected revision or null, [[id, type, n], ...]], ...]
-- where n is the event's data in data[n]: the data, a plan of hundreds of KiB, is not parsed as JSON here.
-- Answers one outcome per append, in order: ['ok', last revision, last position] or ['conflict', actual revision or null].
DROP FUNCTION IF EXISTS orders_append_events(jsonb, text);
CREATE OR REPLACE FUNCTION orders_append_events(batch jsonb, data text[], committed_types text)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $fn$
DECLARE
  head_position bigint;
  head_hash bytea;
  head_time bigint;
  at_us bigint;
  append jsonb;
  event jsonb;
  append_stream text;
  actual bigint;
  revision bigint;
  last_id uuid;
  existing record;
  wrote boolean := false;
  outcomes jsonb := '[]'::jsonb;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('orders_event_log:' || current_schema()));
  -- Statements after the lock see every commit made before it was granted.
  SELECT e.position, e.hash, e.recorded_at INTO head_position, head_hash, head_time FROM events e ORDER BY e.position DESC LIMIT 1;
  head_position := coalesce(head_position, 0);
  head_hash := coalesce(head_hash, decode(repeat('0', 64), 'hex'));
  -- The server's clock, never behind the event before: time does not run backwards along the log.
  at_us := greatest((extract(epoch FROM clock_timestamp()) * 1000000)::bigint, coalesce(head_time, 0));
  FOR append IN SELECT value FROM jsonb_array_elements(batch) LOOP
    append_stream := append->>0;
    last_id := ((append->3)->(-1)->>0)::uuid;
    SELECT e.revision, e.position INTO existing FROM events e WHERE e.id = last_id;
    IF FOUND THEN
      outcomes := outcomes || jsonb_build_array(jsonb_build_array('ok', existing.revision::text, existing.position::text));
      CONTINUE;
    END IF;
    SELECT e.revision INTO actual FROM events e WHERE e.stream = append_stream ORDER BY e.revision DESC LIMIT 1;
    IF NOT FOUND THEN
      actual := NULL;
    END IF;
    IF ((append->>1) = 'no_stream' AND actual IS NOT NULL)
       OR ((append->>1) = 'exact' AND (actual IS NULL OR actual <> (append->>2)::bigint)) THEN
      outcomes := outcomes || jsonb_build_array(jsonb_build_array('conflict', actual::text));
      CONTINUE;
    END IF;
    revision := coalesce(actual, -1);
    FOR event IN SELECT value FROM jsonb_array_elements(append->3) LOOP
      revision := revision + 1;
      head_position := head_position + 1;
      head_hash := orders_event_hash(head_hash, event->>1, append_stream, revision, at_us, data[(event->>2)::int]);
      INSERT INTO events (position, id, stream, revision, type, data, recorded_at, hash)
        VALUES (head_position, (event->>0)::uuid, append_stream, revision, event->>1, data[(event->>2)::int], at_us, head_hash);
    END LOOP;
    wrote := true;
    outcomes := outcomes || jsonb_build_array(jsonb_build_array('ok', revision::text, head_position::text));
  END LOOP;
  IF wrote THEN
    -- '<types>;<head>;<schema>': followers skip what they do not follow, and read up to the head without asking
    -- for it. The channel is the database's and a database may hold several logs, one per schema: a follower
    -- hears only its own log's commits, or it would take another log's head for its own and pass events over.
    PERFORM pg_notify('${COMMIT_CHANNEL}', committed_types || ';' || head_position::text || ';' || current_schema());
  END IF;
  RETURN outcomes;
END
$fn$;
`;

/**
 * Creates what is missing; several replicas starting at once take turns (one implicit transaction holds
 * the lock). Answers the log's schema, which names its announcements.
 */
export async function ensureSchema(connection: LogConnection): Promise<string> {
  await createInLogSchema(connection, DDL);
  const [row] = await connection.query<{ schema: string }>('SELECT current_schema() AS schema');
  return row!.schema;
}

/**
 * Runs `ddl` (statements that create what is missing) in the log's schema under the lock of its creation:
 * replicas starting at once would otherwise race on the catalogue (`CREATE TABLE IF NOT EXISTS` is not
 * safe against a concurrent twin). For the tables other stores keep beside the log (the work lease store's).
 */
export async function createInLogSchema(connection: LogConnection, ddl: string): Promise<void> {
  await connection.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK});${ddl}`);
}
