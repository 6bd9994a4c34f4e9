// src-ts: a strict player of the `default` protocol, source only: take6 writes its build (tsc)
// and launch (node). It reads exactly the lines the protocol promises and fails (status 3,
// "FAIL ..." in verdicts.txt) on anything else; it plays its lowest card and takes row 0.
// Node's names are declared here, so that tsc needs no @types/node.
declare const require: any;
declare const process: any;
const fs = require('fs');
const lines = require('readline').createInterface({ input: process.stdin })[Symbol.asyncIterator]();

function verdict(text: string): void { fs.appendFileSync('verdicts.txt', text + '\n'); }
function fail(why: string): never {
  verdict('FAIL ' + why);
  process.stderr.write('src-ts: ' + why + '\n');
  process.exit(3);
  throw new Error(why);
}
async function line(): Promise<string> {
  const next = await lines.next();
  if (next.done) fail('input ended early');
  return next.value;
}
function words(s: string, word: string, count?: number): number[] {
  if (!new RegExp('^' + word + '( [0-9]+)*$').test(s)) fail(`expected ${word}, got ${s}`);
  const nums = s.split(' ').slice(1).map(Number);
  if (count !== undefined && nums.length !== count) fail(`wrong count: ${s}`);
  return nums;
}
async function board(s: string): Promise<void> {
  words(s, 'count', 4);
  words(await line(), 'cows', 4);
  words(await line(), 'top', 4);
}

async function main(): Promise<void> {
  const hand = words(await line(), 'cards', 10);
  let players: number | undefined;
  let s = await line();
  for (let turn = 0; turn < 10; turn++) {
    await board(s);
    const card = Math.min(...hand);
    hand.splice(hand.indexOf(card), 1);
    process.stdout.write(card + '\n');
    players = words(await line(), 'used', players).length;
    for (;;) {
      s = await line();
      if (s === 'pickrow') {
        await board(await line());
        process.stdout.write('0\n');
      } else if (s.startsWith('cardgain ')) {
        words(await line(), 'cowgain', 1);
      } else break;
    }
  }
  words(s, 'score', 1);
  words(await line(), 'others', (players ?? 1) - 1);
  if (!(await lines.next()).done) fail('more input after others');
  verdict('ok');
}
main();
