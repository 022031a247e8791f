// How the embedded files' statements take their parameters where SQLite would otherwise prepare them again
// on every run. The query planner of SQLite 3.54 (as better-sqlite3 13 builds it) looks at the value
// bound to a `LIMIT ?`, an `OFFSET ?`, or a `column = ?` in a statement with ORDER BY (whether the value makes
// an ORDER BY term constant), and so marks the parameter "re-prepare on bind": each run parses and plans
// the statement again. The log's revision lookup took 6 µs instead of 1.7, its page read 9 µs instead of
// 3.5, and the re-prepares were 3.6 % of the main thread under submits (docs/benchmarks.md). A CAST hides
// the value from the planner and changes nothing else: the same index, the same rows.
// test/storage/sqlite-statements.test.ts holds every statement under src/ to this.

/** A text parameter compared with `=` in a statement that has ORDER BY. */
export const TEXT_PARAM = 'CAST(? AS TEXT)';

/** An integer parameter compared with `=` in a statement that has ORDER BY, or a LIMIT or OFFSET. */
export const INTEGER_PARAM = 'CAST(? AS INTEGER)';
