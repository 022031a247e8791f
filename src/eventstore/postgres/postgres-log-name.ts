// How start-up reasons, replay and the PostgreSQL adapter name the log: its own file, so that naming it
// does not load pg (backends.ts loads each server's driver only when that server is configured).
/** What operators call it, in errors and start-up lines. */
export const POSTGRES_LOG = 'the PostgreSQL event log';
