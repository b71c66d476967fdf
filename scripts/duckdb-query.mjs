// duckdb-query.mjs: read a taifu self-play run with DuckDB (an independent
// Parquet reader, not parquet-go), print its schema and some queries.
//
//   cd scripts && npm install && node duckdb-query.mjs ../runs/<run-id>
//
// The argument is a run directory (game=<game>/part-*.parquet below it) or
// a glob of Parquet files. Exit status 1 when the data breaks an invariant
// checked here (schema columns, results in {-1,0,1}, manifest row count).
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const arg = process.argv[2];
if (!arg) {
  console.error('usage: node duckdb-query.mjs RUN_DIR|GLOB');
  process.exit(2);
}
const isDir = existsSync(arg) && statSync(arg).isDirectory();
const glob = isDir ? join(arg, '**', '*.parquet') : arg;
const src = `read_parquet('${glob.replaceAll("'", "''")}', hive_partitioning = true)`;

const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
const query = async (sql) => (await db.runAndReadAll(sql)).getRowObjectsJson();
const show = (title, rows) => {
  console.log(`\n-- ${title}`);
  console.table(rows);
};

const want = ['run_id', 'game', 'rules_version', 'game_number', 'ply', 'side_to_move', 'position',
  'board', 'result', 'termination', 'root_value', 'move', 'policy', 'legal_moves', 'static_eval',
  'weights_version', 'full'];
let failed = false;

const schema = await query(`DESCRIBE SELECT * FROM ${src}`);
show('schema', schema.map((r) => ({ column: r.column_name, type: r.column_type })));
const have = new Set(schema.map((r) => r.column_name));
for (const c of want) {
  if (!have.has(c)) {
    console.error(`missing column ${c}`);
    failed = true;
  }
}
// Format 3 runs store each policy move as its index in the position's legal
// moves (policy: LIST<STRUCT<index INTEGER, visits INTEGER>>); formats 1 and 2
// as text (move VARCHAR). `taifu games --data RUN --format parquet --out DIR`
// rewrites a format 3 run with the text, for queries that need it.
const policyType = String(schema.find((r) => r.column_name === 'policy')?.column_type ?? '');
const moveField = policyType.includes('"index"') || /\bindex INTEGER/.test(policyType) ? 'index' : 'move';
console.log(`\npolicy: ${policyType} (moves as ${moveField === 'index' ? 'legal-move indices, format 3' : 'text, format 1 or 2'})`);

show('games, positions and results by termination', await query(`
  SELECT game, termination, count(DISTINCT game_number) AS games, count(*) AS positions,
         round(avg(result), 3) AS mean_result, max(ply) + 1 AS longest
  FROM ${src} GROUP BY ALL ORDER BY ALL`));

show('first player score per game (result of ply 0)', await query(`
  SELECT side_to_move, result, count(*) AS games
  FROM ${src} WHERE ply = 0 GROUP BY ALL ORDER BY ALL`));

show('search statistics', await query(`
  SELECT round(avg(legal_moves), 1) AS legal_moves, round(avg(len(policy)), 1) AS policy_moves,
         round(avg(list_sum(list_transform(policy, p -> p.visits))), 1) AS visits,
         round(avg(abs(root_value)), 3) AS abs_root_value, round(avg(static_eval), 3) AS static_eval,
         round(avg(octet_length(board)), 1) AS board_bytes
  FROM ${src}`));

show('one position with its most visited moves', await query(`
  SELECT game_number, ply, side_to_move, position, move, result, root_value,
         list_slice(list_reverse_sort(list_transform(policy, p -> {'visits': p.visits, 'move': p.${moveField}})), 1, 3)::VARCHAR AS policy_top
  FROM ${src} ORDER BY game_number, ply LIMIT 1 OFFSET 5`));

if (moveField === 'index') {
  // The indices of a row are ascending (move generation order) and below
  // legal_moves.
  const badIdx = await query(`SELECT count(*) AS n FROM ${src}
    WHERE len(policy) > 0 AND (list_max(list_transform(policy, p -> p.index)) >= legal_moves
       OR list_min(list_transform(policy, p -> p.index)) < 0
       OR list_transform(policy, p -> p.index) <> list_sort(list_distinct(list_transform(policy, p -> p.index))))`);
  if (Number(badIdx[0].n) !== 0) {
    console.error(`${badIdx[0].n} rows whose policy indices are not ascending in [0, legal_moves)`);
    failed = true;
  }
}

const bad = await query(`SELECT count(*) AS n FROM ${src} WHERE result NOT IN (-1, 0, 1)`);
if (Number(bad[0].n) !== 0) {
  console.error(`${bad[0].n} rows with a result outside {-1, 0, 1}`);
  failed = true;
}

if (isDir && existsSync(join(arg, 'manifest.json'))) {
  const m = JSON.parse(readFileSync(join(arg, 'manifest.json'), 'utf8'));
  const n = Number((await query(`SELECT count(*) AS n FROM ${src}`))[0].n);
  console.log(`\nmanifest: ${m.files.length} files, ${m.rows} rows, ${m.done} games; DuckDB counts ${n} rows`);
  if (n !== m.rows) failed = true;
}
db.closeSync();
instance.closeSync();
process.exit(failed ? 1 : 0);
