// viewer-test.mjs: opens taifu's HTML game viewer in headless Chromium and
// checks it against the game records.
//
//   node viewer-test.mjs DIR GAME...
//
// For each GAME it opens DIR/GAME.html (written by `taifu games --format
// html`) and reads DIR/GAME.json (`taifu games --format json` of the same
// games). For every game in the page it steps forward with the Right arrow
// key to the last ply and back with the Left key to the first, and at every
// ply rebuilds the NOTATION.md position from what the page draws (the pieces
// on the SVG board, the hands, the side marked to move) and compares it with
// the record's position of that ply and with the page's data-position
// attribute. It also uses the buttons, fails on any console error, page
// error or network request other than the file itself, and saves a
// screenshot per game to /tmp/viewer-GAME.png. Exit status 1 on a failure.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, ...names] = process.argv.slice(2);
if (!dir || names.length === 0) {
  console.error('usage: node viewer-test.mjs DIR GAME...');
  process.exit(2);
}
const started = Date.now();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  // No network: the host resolver answers every name "not found" without a
  // DNS query (Chromium otherwise looks up its update, account and
  // optimization-guide services), and the background services are off.
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--host-resolver-rules=MAP * ~NOTFOUND', '--disable-domain-reliability', '--no-pings',
    '--disable-features=OptimizationHints,OptimizationGuideModelDownloading,MediaRouter,DialMediaRouteProvider'],
});
let failures = 0;
const fail = (msg) => { failures++; console.error('FAIL ' + msg); };

// shown reads the position the page draws, in NOTATION.md text.
async function shown(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('board');
    let w = 0, h = 0;
    const at = {};
    for (const r of svg.querySelectorAll('rect[data-sq]')) {
      const sq = r.dataset.sq, f = sq.charCodeAt(0) - 97, rk = +sq.slice(1);
      w = Math.max(w, f + 1); h = Math.max(h, rk);
    }
    for (const g of svg.querySelectorAll('g[data-piece]')) at[g.dataset.sq] = g.dataset.piece;
    const ranks = [];
    for (let r = h; r >= 1; r--) {
      const items = [];
      let empty = 0;
      for (let f = 0; f < w; f++) {
        const p = at[String.fromCharCode(97 + f) + r];
        if (!p) { empty++; continue; }
        if (empty) items.push(String(empty));
        empty = 0;
        items.push(p);
      }
      if (empty) items.push(String(empty));
      ranks.push(items.join(','));
    }
    const hands = [0, 1].map((s) => document.getElementById('hand' + s));
    const mover = hands.find((x) => x.dataset.toMove === '1');
    let pos = ranks.join('/') + ' ' + (mover ? mover.dataset.sideName : '?');
    if (hands[0].dataset.hasHand === '1') {
      const toks = [];
      for (const x of hands) for (const sp of x.querySelectorAll('span[data-token]')) for (let i = 0; i < +sp.dataset.count; i++) toks.push(sp.dataset.token);
      pos += ' [' + toks.join(',') + ']';
    }
    return { pos, attr: svg.dataset.position, ply: +svg.dataset.ply };
  });
}

// drawn is the part of a NOTATION.md position the page draws: as many of
// its fields as the page's own (board, side to move, hands); chess's
// castling and en passant fields are not drawn.
const drawn = (pos, shownPos) => pos.split(' ').slice(0, shownPos.split(' ').length).join(' ');

for (const name of names) {
  const records = JSON.parse(readFileSync(resolve(dir, name + '.json'), 'utf8'));
  const url = pathToFileURL(resolve(dir, name + '.html')).href;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  page.on('pageerror', (e) => errors.push('page error: ' + e.message));
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    errors.push('network request: ' + route.request().url());
    return route.abort();
  });
  await page.goto(url);
  let checked = 0;
  for (let gi = 0; gi < records.length; gi++) {
    const rec = records[gi];
    const want = rec.plies.map((p) => p.position).concat([rec.final]);
    await page.selectOption('#pick', String(gi));
    const check = async (ply, how) => {
      const s = await shown(page);
      checked++;
      if (s.ply !== ply) fail(`${name} game ${rec.game_number}: after ${how} the page shows ply ${s.ply}, want ${ply}`);
      else if (s.pos !== drawn(want[ply], s.pos) || s.attr !== want[ply]) fail(`${name} game ${rec.game_number} ply ${ply} (${how}): drawn ${s.pos} / attribute ${s.attr}, record ${want[ply]}`);
    };
    await check(0, 'opening');
    for (let p = 1; p < want.length; p++) { await page.keyboard.press('ArrowRight'); await check(p, 'Right'); }
    await page.keyboard.press('ArrowRight');
    await check(want.length - 1, 'Right at the end');
    for (let p = want.length - 2; p >= 0; p--) { await page.keyboard.press('ArrowLeft'); await check(p, 'Left'); }
    await page.click('#last'); await check(want.length - 1, 'button >|');
    await page.click('#prev'); await check(want.length - 2, 'button <');
    await page.click('#first'); await check(0, 'button |<');
    await page.click('#next'); await check(1, 'button >');
  }
  // What the page promises (issue 32): a movement diagram for every
  // piece of the legend (or its "no move alone"), a value graph with
  // axes and tick labels, sides named by a colour drawn in it, games
  // numbered from 1 as in PGN's Round.
  await page.selectOption('#pick', '0');
  await page.click('#last'); // pieces on the board (Nana shogi starts with none)
  const look = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('#legend tr')];
    const bare = rows.filter((r) => !r.lastChild.querySelector('svg') && r.lastChild.textContent !== 'no move alone').map((r) => r.firstChild.textContent);
    const noMove = rows.filter((r) => r.lastChild.textContent === 'no move alone').map((r) => r.firstChild.textContent);
    const graph = document.getElementById('graph');
    const fills = {};
    for (const g of document.querySelectorAll('#board g[data-side]')) fills[g.dataset.side] = getComputedStyle(g.querySelector('rect')).fill;
    const swatches = {};
    for (const i of document.querySelectorAll('i[data-swatch]')) swatches[i.dataset.swatch] = getComputedStyle(i).backgroundColor;
    return { rows: rows.length, bare, noMove, yaxis: !!graph.querySelector('.yaxis'), yticks: graph.querySelectorAll('.ytick').length,
      xticks: graph.querySelectorAll('.xtick').length, fills, swatches, title: document.getElementById('title').textContent, option: document.querySelector('#pick option').textContent };
  });
  if (look.rows === 0 || look.bare.length) fail(`${name}: legend rows without a movement diagram: ${look.bare.join(' ')} (of ${look.rows})`);
  if (look.noMove.length && !(records[0].game === 'typhoon' && look.noMove.join() === 'CI')) fail(`${name}: pieces with no move alone: ${look.noMove.join(' ')}`);
  if (!look.yaxis || look.yticks < 3 || look.xticks < 2) fail(`${name}: value graph axis: y axis ${look.yaxis}, ${look.yticks} y and ${look.xticks} x tick labels`);
  // Each side drawn in the colour it is named (Tori and Nana shogi's
  // first player is black), its hand's swatch the same colour.
  const colour = { blue: 'rgb(0, 0, 255)', tan: 'rgb(210, 180, 140)', white: 'rgb(255, 253, 246)', black: 'rgb(59, 59, 70)' };
  for (const side in look.fills) if (colour[side] && look.fills[side] !== colour[side]) fail(`${name}: ${side} pieces drawn ${look.fills[side]}, want ${colour[side]}`);
  for (const side in look.swatches) if (colour[side] && look.swatches[side] !== colour[side]) fail(`${name}: ${side} hand swatch ${look.swatches[side]}, want ${colour[side]}`);
  if (Object.keys(look.fills).length === 0 || Object.keys(look.swatches).length !== 2) fail(`${name}: the last position draws no piece or not two hand swatches`);
  if (!look.option.includes(' game ' + (records[0].game_number + 1) + ' ')) fail(`${name}: first game titled "${look.option}", want game ${records[0].game_number + 1} (1-based, as PGN's Round)`);
  console.log(`${name}: legend ${look.rows} rows (no move alone: ${look.noMove.join(' ') || 'none'}), graph ${look.yticks}+${look.xticks} ticks, sides ${JSON.stringify(look.fills)}, swatches ${JSON.stringify(look.swatches)}`);
  // A screenshot in the middle of the first game, after a capture if any.
  await page.selectOption('#pick', '0');
  const caps = records[0].plies.length;
  await page.click('#first');
  for (let p = 0; p < Math.min(caps, 24); p++) await page.keyboard.press('ArrowRight');
  await page.screenshot({ path: `/tmp/viewer-${name}.png`, fullPage: true });
  for (const e of errors) fail(`${name}: ${e}`);
  console.log(`${name}: ${records.length} game(s), ${checked} positions checked, ${errors.length} console/page/network errors, screenshot /tmp/viewer-${name}.png`);
  await context.close();
}
await browser.close();
console.log(`${failures === 0 ? 'PASS' : 'FAIL'}: ${names.length} game(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures === 0 ? 0 : 1);
