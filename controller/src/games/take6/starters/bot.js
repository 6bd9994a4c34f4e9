// NAME: a Take 6! bot for take6 (the default protocol: docs/protocol.md), written by
// `take6 new`. It plays the lowest card of its hand and, asked for a row, takes the one with
// the fewest cows. Put your strategy in chooseCard and chooseRow; the rest reads the protocol.
'use strict';
const fs = require('fs');

// The card to play: one of hand. Per row 0-3: its cards, its cows, its last card.
function chooseCard(hand, count, cows, top) {
  return Math.min(...hand);
}

// The row to take (0-3) when the card played is lower than every row's last card.
function chooseRow(count, cows, top) {
  return cows.indexOf(Math.min(...cows));
}

// Writes a reply at once: fs.writeSync is not buffered, so nothing waits for a flush.
function reply(text) {
  fs.writeSync(1, text + '\n');
}

let hand = [], count = [], cows = [], picking = false, pending = '';
function line(text) {
  const words = text.trim().split(/\s+/);
  const word = words[0], numbers = words.slice(1).map(Number);
  if (word === 'cards') hand = numbers;
  else if (word === 'count') count = numbers;
  else if (word === 'cows') cows = numbers;
  else if (word === 'pickrow') picking = true;
  else if (word === 'top') { // the last line of a question: reply now
    if (picking) {
      reply(String(chooseRow(count, cows, numbers)));
      picking = false;
    } else {
      const card = chooseCard(hand, count, cows, numbers);
      hand.splice(hand.indexOf(card), 1);
      reply(String(card));
    }
  } else if (word === 'invalid') process.exit(0);
  // used, cardgain, cowgain, score, others: news, no reply.
}

process.stdin.on('data', (chunk) => {
  pending += chunk;
  let at;
  while ((at = pending.indexOf('\n')) >= 0) {
    line(pending.slice(0, at));
    pending = pending.slice(at + 1);
  }
});
