// Take 6's board in the game viewer of report.html: rebuilds the rows turn by turn from the
// compact games in the #data script. The frame (viewer.js) calls render(game, turn).
window.reportBoard = (function () {
  "use strict";
  var board = document.getElementById("board");
  var info = document.getElementById("turn-info");
  var seats = document.getElementById("seats");

  function cowsOf(c) {
    if (c === 55) return 7;
    if (c % 11 === 0) return 5;
    if (c % 10 === 0) return 3;
    if (c % 5 === 0) return 2;
    return 1;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // The board, counted cows and this turn's placements after `upto` turns of game `g`.
  function replay(g, upto) {
    var rows = g.rows.map(function (c) { return [c]; });
    var cows = g.players.map(function () { return 0; });
    var faultTurn = g.players.map(function () { return Infinity; });
    g.faults.forEach(function (f) { faultTurn[f[0]] = Math.min(faultTurn[f[0]], f[1]); });
    var placed = [];
    for (var t = 0; t < upto; t++) {
      placed = [];
      g.turns[t].forEach(function (e) {
        var seat = e[0], card = e[1], row = e[2], took = e[3], cw = e[4];
        var taken = [];
        if (took > 0) { taken = rows[row]; rows[row] = [card]; } else { rows[row].push(card); }
        if (t + 1 < faultTurn[seat]) cows[seat] += cw;
        placed.push({ seat: seat, card: card, row: row, taken: taken, cows: cw, how: e[5] });
      });
    }
    return { rows: rows, cows: cows, placed: placed };
  }
  function cardEl(c, fresh) {
    var e = el("span", "card c" + cowsOf(c) + (fresh ? " new" : ""));
    e.appendChild(document.createTextNode(String(c)));
    e.appendChild(el("small", "", cowsOf(c) + (cowsOf(c) === 1 ? " cow" : " cows")));
    e.setAttribute("data-card", c);
    return e;
  }
  function render(g, turn) {
    var s = replay(g, turn);
    var fresh = {};
    s.placed.forEach(function (p) { fresh[p.card] = true; });
    board.textContent = "";
    s.rows.forEach(function (row, i) {
      var r = el("div", "row");
      r.setAttribute("data-row", i);
      r.appendChild(el("span", "idx", "row " + i));
      var total = 0;
      row.forEach(function (c) { r.appendChild(cardEl(c, fresh[c])); total += cowsOf(c); });
      r.appendChild(el("span", "rowcows", total + (total === 1 ? " cow" : " cows")));
      board.appendChild(r);
    });
    info.textContent = "";
    if (turn > 0) {
      var ul = el("ul");
      s.placed.forEach(function (p) {
        var text = g.players[p.seat] + " " + p.card + " → row " + p.row;
        var li = el("li", p.taken.length ? "took" : "", text);
        if (p.taken.length) {
          li.textContent += ", takes " + p.taken.join(" ") + " (" + p.cows + (p.cows === 1 ? " cow)" : " cows)") +
            (p.how === 1 ? " — chose the row" : p.how === 2 ? " — forced after a fault" : "");
        }
        ul.appendChild(li);
      });
      info.appendChild(el("h3", "", "Where the cards went"));
      info.appendChild(ul);
    }
    g.faults.forEach(function (f) {
      if (f[1] <= Math.max(turn, 1) && turn > 0) {
        info.appendChild(el("p", "took", "Fault: " + g.players[f[0]] + " in turn " + f[1] +
          " (" + f[2] + "): " + f[4]));
      }
    });
    seats.textContent = "";
    var head = el("tr");
    ["seat", "player", "played", "cows so far"].forEach(function (h) { head.appendChild(el("th", "", h)); });
    if (turn === g.turns.length) head.appendChild(el("th", "", "score"));
    seats.appendChild(head);
    g.players.forEach(function (name, i) {
      var tr = el("tr", g.faults.some(function (f) { return f[0] === i && f[1] <= turn; }) ? "faulted" : "");
      tr.setAttribute("data-seat", i);
      var mine = s.placed.filter(function (p) { return p.seat === i; })[0];
      tr.appendChild(el("td", "num", String(i)));
      tr.appendChild(el("td", "", name + (g.builtin[i] ? " (built-in)" : "")));
      tr.appendChild(el("td", "num", mine ? String(mine.card) : ""));
      tr.appendChild(el("td", "num" + (mine && mine.taken.length ? " took" : ""), String(s.cows[i])));
      if (turn === g.turns.length) tr.appendChild(el("td", "num", String(g.scores[i])));
      seats.appendChild(tr);
    });
  }
  return { turns: function (g) { return g.turns.length; }, render: render };
})();
