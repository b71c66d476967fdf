// compare-runs.mjs: do two runs hold the same rows, every column? (DuckDB
// EXCEPT ALL both ways; 0 and 0 means equal as multisets of rows.) Used to
// check that `taifu games --format parquet` restores a format 3 run exactly
// as format 2 wrote the same games (docs/data-format.md).
//
//   cd scripts && npm ci && node compare-runs.mjs RUN_A RUN_B
import { DuckDBInstance } from '@duckdb/node-api';

const [a, b] = process.argv.slice(2);
if (!b) {
  console.error('usage: node compare-runs.mjs RUN_A RUN_B');
  process.exit(2);
}
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
const q = async (sql) => Number((await db.runAndReadAll(sql)).getRowObjectsJson()[0].n);
const src = (d) => `read_parquet('${(d + '/**/*.parquet').replaceAll("'", "''")}', hive_partitioning = false)`;
const na = await q(`SELECT count(*) AS n FROM ${src(a)}`);
const nb = await q(`SELECT count(*) AS n FROM ${src(b)}`);
const ab = await q(`SELECT count(*) AS n FROM (SELECT * FROM ${src(a)} EXCEPT ALL SELECT * FROM ${src(b)})`);
const ba = await q(`SELECT count(*) AS n FROM (SELECT * FROM ${src(b)} EXCEPT ALL SELECT * FROM ${src(a)})`);
console.log(`${a}: ${na} rows; ${b}: ${nb} rows; rows only in the first: ${ab}; only in the second: ${ba}`);
db.closeSync();
instance.closeSync();
process.exit(ab === 0 && ba === 0 && na === nb ? 0 : 1);
