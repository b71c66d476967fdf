// outside-readers.mjs: reads taifu's Parquet parts and PGN files with
// readers written apart from taifu, and compares what they read with what
// taifu's own reader reports (`taifu games --format json` of the same games).
//
//   node outside-readers.mjs parquet SRC JSON [parquet SRC JSON | pgn PGN JSON]...
//
// parquet SRC JSON: DuckDB (@duckdb/node-api) reads SRC (a Parquet file or a
// run directory) and every row must be the JSON's ply of the same game number
// and ply: the row count, run id, game, rules and weights versions, side to
// move, position, move, result (the side to move's view of the JSON's PGN
// result, the player of ply 0 being the first), termination, root value and
// static evaluation (as float32), legal moves, full, the policy's visits in
// order (and their sum, the ply's visits) and a board of some bytes; policy
// indices ascend below legal_moves.
//
// pgn PGN JSON: @mliebelt/pgn-parser splits PGN into games and reads every
// game's tags, which must equal the JSON game's (Seven Tag Roster, Variant,
// FEN, PlyCount, Termination, RunID, versions, GameNumber). Its grammar
// reads chess moves only (8x8 squares, pieces RNBQKP), so only for chess
// does it read the movetext: the moves (from-to), their count, and the
// [%eval] [%value] [%visits] comments (the first player's view, the player of
// ply 0 being White). For the other games the move count is the PlyCount tag.
//
// Exit status 1 when any check fails, 2 on bad arguments. Nothing here opens
// a network connection (DuckDB's extension autoloading is off).
import { DuckDBInstance } from '@duckdb/node-api';
import pgnParser from '@mliebelt/pgn-parser';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 3 !== 0 || args.some((a, i) => i % 3 === 0 && a !== 'parquet' && a !== 'pgn')) {
  console.error('usage: node outside-readers.mjs parquet SRC JSON [parquet SRC JSON | pgn PGN JSON]...');
  process.exit(2);
}

let failures = 0;
const fail = (msg) => {
  failures++;
  if (failures <= 20) console.error('FAIL ' + msg);
};
const readJSON = (path) => JSON.parse(readFileSync(path, 'utf8'));
const pgnScore = { '1-0': 1, '0-1': -1, '1/2-1/2': 0 };

const instance = await DuckDBInstance.create(':memory:', {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
});
const db = await instance.connect();
const query = async (sql) => (await db.runAndReadAll(sql)).getRowObjectsJson();

// same compares one field read by the outside reader with taifu's.
const same = (where, field, got, want) => {
  if (got !== want) fail(`${where}: ${field} reads ${JSON.stringify(got)}, taifu's reader ${JSON.stringify(want)}`);
};

async function checkParquet(src, jsonPath) {
  const glob = existsSync(src) && statSync(src).isDirectory() ? join(src, '**', '*.parquet') : src;
  const from = `read_parquet('${glob.replaceAll("'", "''")}', hive_partitioning = false)`;
  const rows = await query(`
    SELECT run_id, game, rules_version, weights_version, game_number, ply, side_to_move, position, move,
           result, termination, root_value, static_eval, legal_moves, "full", octet_length(board) AS board_bytes,
           list_transform(policy, p -> p.visits) AS visits,
           len(policy) = 0 OR (list_min(list_transform(policy, p -> p.index)) >= 0
             AND list_max(list_transform(policy, p -> p.index)) < legal_moves
             AND list_transform(policy, p -> p.index) = list_sort(list_distinct(list_transform(policy, p -> p.index)))) AS indices_ascend
    FROM ${from} ORDER BY game, run_id, game_number, ply`);
  const games = readJSON(jsonPath);
  const plies = games.flatMap((g) => g.plies.map((p) => ({ g, p })));
  if (rows.length !== plies.length) fail(`${src}: DuckDB reads ${rows.length} rows, taifu's reader ${plies.length} plies (${games.length} games)`);
  const n = Math.min(rows.length, plies.length);
  for (let i = 0; i < n; i++) {
    const r = rows[i], { g, p } = plies[i];
    const where = `${src} row ${i} (game ${g.game_number} ply ${p.ply})`;
    same(where, 'game_number', Number(r.game_number), g.game_number);
    same(where, 'ply', Number(r.ply), p.ply);
    for (const [col, want] of [['run_id', g.run_id], ['game', g.game], ['rules_version', g.rules_version],
      ['weights_version', g.weights_version], ['termination', g.termination], ['side_to_move', p.side],
      ['position', p.position], ['move', p.move], ['full', p.full]]) same(where, col, r[col], want);
    const first = g.plies[0].side;
    const score = pgnScore[g.result] ?? NaN;
    same(where, 'result', Number(r.result), p.side === first ? score : -score);
    same(where, 'root_value', Number(r.root_value), Math.fround(p.root_value));
    same(where, 'static_eval', Number(r.static_eval), Math.fround(p.static_eval));
    same(where, 'legal_moves', Number(r.legal_moves), p.legal_moves);
    const visits = (r.visits ?? []).map(Number);
    same(where, 'policy visits', visits.join(','), (p.policy ?? []).map((e) => e.Visits).join(','));
    same(where, 'sum of policy visits', visits.reduce((a, b) => a + b, 0), p.visits);
    if (!(Number(r.board_bytes) > 0)) fail(`${where}: empty board column`);
    if (r.indices_ascend !== true) fail(`${where}: policy indices do not ascend in [0, legal_moves)`);
  }
  console.log(`parquet ${src}: DuckDB read ${rows.length} rows of ${games.length} game(s), compared with ${jsonPath}`);
}

function checkPGN(pgnPath, jsonPath) {
  const games = readJSON(jsonPath);
  const split = pgnParser.split(readFileSync(pgnPath, 'utf8'));
  if (split.length !== games.length) fail(`${pgnPath}: the parser splits ${split.length} games, taifu's reader has ${games.length}`);
  let movesRead = 0;
  for (let i = 0; i < Math.min(split.length, games.length); i++) {
    const g = games[i];
    const where = `${pgnPath} game ${i + 1}`;
    let tree;
    try {
      tree = pgnParser.parse(split[i].tags, { startRule: 'tags' });
    } catch (e) {
      fail(`${where}: tags: ${e.message}`);
      continue;
    }
    if (tree.messages?.length) fail(`${where}: tag messages ${JSON.stringify(tree.messages)}`);
    const tags = tree.tags ?? {};
    const want = {
      Event: 'taifu self-play ' + g.run_id, Site: 'taifu', Round: String(g.game_number + 1),
      White: `taifu (${g.plies[0].side})`, Black: `taifu (${g.plies[1]?.side})`, Result: g.result,
      Variant: g.game, SetUp: '1', FEN: g.start, Termination: g.termination.replace(/[\x00-\x1f]/g, ' '),
      PlyCount: String(g.plies.length), WeightsVersion: g.weights_version, RunID: g.run_id,
      RulesVersion: g.rules_version, GameNumber: String(g.game_number),
    };
    for (const [k, v] of Object.entries(want)) same(where, `tag ${k}`, tags[k] === undefined ? undefined : String(tags[k]), v);
    same(where, 'tag Date', tags.Date?.value, '????.??.??');
    if (g.game !== 'chess') continue;
    try {
      tree = pgnParser.parse(split[i].all, { startRule: 'game' });
    } catch (e) {
      fail(`${where}: movetext: ${e.message}`);
      continue;
    }
    same(where, 'move count', tree.moves.length, g.plies.length);
    for (let j = 0; j < Math.min(tree.moves.length, g.plies.length); j++) {
      const m = tree.moves[j], p = g.plies[j], at = `${where} ply ${j}`;
      const view = p.side === g.plies[0].side ? 1 : -1; // comments hold the first player's view
      same(at, 'move', m.notation.notation.replace('-', ''), p.move);
      same(at, '[%eval]', m.commentDiag?.eval, Number((view * p.static_eval).toFixed(2)));
      same(at, '[%value]', m.commentDiag?.value, (view * p.root_value + 0).toFixed(3));
      same(at, '[%visits]', m.commentDiag?.visits, String(p.visits));
      movesRead++;
    }
  }
  console.log(`pgn ${pgnPath}: the parser read ${split.length} game(s)' tags${movesRead ? ` and ${movesRead} moves` : ''}, compared with ${jsonPath}`);
}

let passed = 0, failed = 0;
for (let i = 0; i < args.length; i += 3) {
  const [kind, src, json] = args.slice(i, i + 3);
  const before = failures;
  try {
    if (kind === 'parquet') await checkParquet(src, json);
    else checkPGN(src, json);
  } catch (e) {
    fail(`${kind} ${src}: ${e.message}`);
  }
  if (failures === before) passed++;
  else failed++;
}
db.closeSync();
instance.closeSync();
console.log(`outside-readers: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
