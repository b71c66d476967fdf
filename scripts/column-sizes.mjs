// column-sizes.mjs: bytes a position of a taifu run, per Parquet column,
// from the files' footers (DuckDB's parquet_metadata: compressed sizes of
// the column chunks), for docs/benchmarks.md, "Bytes a position".
//
//   cd scripts && npm ci && node column-sizes.mjs ../runs/<run-id> [...]
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node column-sizes.mjs RUN_DIR|GLOB ...');
  process.exit(2);
}
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
const query = async (sql) => (await db.runAndReadAll(sql)).getRowObjectsJson();
for (const arg of args) {
  const isDir = existsSync(arg) && statSync(arg).isDirectory();
  const glob = (isDir ? join(arg, '**', '*.parquet') : arg).replaceAll("'", "''");
  const [{ rows, bytes }] = await query(
    `SELECT sum(num_rows)::BIGINT AS rows, sum(file_size_bytes)::BIGINT AS bytes FROM parquet_file_metadata('${glob}')`);
  const cols = await query(`
    SELECT path_in_schema AS col, any_value(encodings) AS encodings,
           sum(total_compressed_size)::BIGINT AS compressed, sum(total_uncompressed_size)::BIGINT AS uncompressed
    FROM parquet_metadata('${glob}') GROUP BY path_in_schema ORDER BY compressed DESC`);
  console.log(`\n${arg}: ${rows} positions, ${bytes} bytes, ${(bytes / rows).toFixed(1)} bytes/position`);
  console.log('| column | encodings | compressed bytes | bytes/position | uncompressed bytes/position |');
  console.log('|---|---|---:|---:|---:|');
  for (const c of cols) {
    console.log(`| ${c.col} | ${c.encodings} | ${c.compressed} | ${(c.compressed / rows).toFixed(2)} | ${(c.uncompressed / rows).toFixed(2)} |`);
  }
}
