// NAME: a Kingdomino bot for take6 (CodinGame's protocol: docs/kingdomino.md), written by
// `take6 new`. It puts its tile at the first legal place it finds and picks the lowest free
// tile. Both lines are sent on every turn: `PUT 0 0 0` on turn 1 (nothing to place) and
// `PICK -1` on the last (nothing to pick). Put your strategy in choosePut and choosePick.
'use strict';
const fs = require('fs');

const STEPS = [[1, 0], [0, 1], [-1, 0], [0, -1]]; // rotation 0-3: right, below, left, above
const inside = (x, y) => x >= 0 && x < 9 && y >= 0 && y < 9;

// Whether squares (e.g. ['c0', 'f1']) fit at x, y with rotation r: on empty squares, the
// kingdom within 5x5 (castle included), touching the castle or its own terrain.
function legal(grid, squares, x, y, r) {
  const cells = [[x, y, squares[0][0]], [x + STEPS[r][0], y + STEPS[r][1], squares[1][0]]];
  if (!cells.every(([cx, cy]) => inside(cx, cy) && grid[cy][cx] === '_')) return false;
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  for (let j = 0; j < 9; j++) for (let i = 0; i < 9; i++) if (grid[j][i] !== '_') { xs.push(i); ys.push(j); }
  if (Math.max(...xs) - Math.min(...xs) >= 5 || Math.max(...ys) - Math.min(...ys) >= 5) return false;
  return cells.some(([cx, cy, t]) => STEPS.some(([dx, dy]) => {
    const nx = cx + dx, ny = cy + dy;
    return inside(nx, ny) && (grid[ny][nx] === '*' || grid[ny][nx] === t);
  }));
}

// Where to put the tile: the first legal place.
function choosePut(grid, squares) {
  for (let y = 0; y < 9; y++) for (let x = 0; x < 9; x++) for (let r = 0; r < 4; r++) {
    if (legal(grid, squares, x, y, r)) return [x, y, r];
  }
  return [0, 0, 0]; // it fits nowhere: discarded, the values are ignored
}

// The tile to pick among the free ids of the offer.
function choosePick(free) {
  return Math.min(...free);
}

let lines = [], pending = '', players = 0, nb = 0;
function turn() {
  const need = 9 * players + 2 * nb;
  while (lines.length >= need) {
    const block = lines.splice(0, need);
    const grid = block.slice(0, 9).map((row) => Array.from({ length: 9 }, (_, i) => row[2 * i]));
    const inPlay = block.slice(9 * players, 9 * players + nb).map((l) => l.split(' '));
    const offer = block.slice(9 * players + nb).map((l) => l.split(' '));
    const mine = inPlay.find((t) => t[4] === '1'); // the tile this turn places (none on turn 1)
    const [x, y, r] = mine ? choosePut(grid, [mine[1], mine[2]]) : [0, 0, 0];
    const ids = offer.filter((t) => t[3] === '-1' && t[0] !== '0').map((t) => Number(t[0]));
    const pick = ids.length ? choosePick(ids) : -1; // none on the last turn
    fs.writeSync(1, `PUT ${x} ${y} ${r}\nPICK ${pick}\n`); // unbuffered: nothing to flush
  }
}

process.stdin.on('data', (chunk) => {
  pending += chunk;
  let at;
  while ((at = pending.indexOf('\n')) >= 0) {
    lines.push(pending.slice(0, at).trim());
    pending = pending.slice(at + 1);
  }
  if (!players && lines.length >= 2) {
    players = Number(lines.shift());
    nb = Number(lines.shift());
  }
  if (players) turn();
});
