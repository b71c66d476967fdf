// resign-check.mjs: false-resignation rates of a self-play run for a grid of
// resignation settings, from the root values of the games that were not
// resigned (the played-out share and the games that never reached the run's
// own threshold). For settings at least as strict as the run's (threshold
// >= its resign_threshold, moves >= its resign_moves), the counts are exact
// for the played-out games: a side "would resign" at (t, k) when its root
// value was <= -t on k consecutive turns of its own, and the resignation is
// false when that side did not then lose.
//
//   node resign-check.mjs ../runs/<run-id>
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const arg = process.argv[2];
if (!arg) {
  console.error('usage: node resign-check.mjs RUN_DIR|GLOB');
  process.exit(2);
}
const glob = existsSync(arg) && statSync(arg).isDirectory() ? join(arg, '**', '*.parquet') : arg;
const src = `read_parquet('${glob.replaceAll("'", "''")}', hive_partitioning = true)`;
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
const query = async (sql) => (await db.runAndReadAll(sql)).getRowObjectsJson();

const rows = [];
for (const t of [0.9, 0.95, 0.98, 0.99]) {
  for (const k of [1, 2, 3, 4]) {
    const [r] = await query(`
      WITH s AS (
        SELECT game_number, side_to_move AS side, ply, result, root_value <= -${t} AS low
        FROM ${src} WHERE termination <> 'resignation'),
      g AS (
        SELECT *, sum(CASE WHEN low THEN 0 ELSE 1 END) OVER (PARTITION BY game_number, side ORDER BY ply) AS grp
        FROM s),
      runs AS (
        SELECT game_number, side, any_value(result) AS result, count(*) FILTER (WHERE low) AS len
        FROM g GROUP BY game_number, side, grp),
      sides AS (
        SELECT game_number, side, any_value(result) AS result, max(len) AS longest
        FROM runs GROUP BY game_number, side)
      SELECT count(*) FILTER (WHERE longest >= ${k}) AS would_resign,
             count(*) FILTER (WHERE longest >= ${k} AND result <> -1) AS false_resign
      FROM sides`);
    const would = Number(r.would_resign);
    const fals = Number(r.false_resign);
    rows.push({ threshold: t, moves: k, would_resign: would, false_resign: fals,
      false_share: would ? +(fals / would).toFixed(3) : null });
  }
}
console.table(rows);
db.closeSync();
instance.closeSync();
