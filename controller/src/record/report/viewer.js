// The game viewer of report.html: rebuilds the board turn by turn from the compact games in
// the #data script. State lives in the URL hash (#game=N&turn=T) so a link opens a game.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var games = data.games;
  var byNumber = {};
  games.forEach(function (g, i) { byNumber[g.n] = i; });
  var select = document.getElementById("game");
  var board = document.getElementById("board");
  var info = document.getElementById("turn-info");
  var seats = document.getElementById("seats");
  var label = document.getElementById("turn-label");
  var current = 0;
  var turn = 0;

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
  function render() {
    var g = games[current];
    if (!g) { info.textContent = "No game is recorded in this series."; return; }
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
      r.appendChild(el("span", "rowcows", total + " cows"));
      board.appendChild(r);
    });
    label.textContent = turn === 0 ? "start" : "turn " + turn + " of " + g.turns.length;
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
    select.value = String(g.n);
  }
  function go(n, t) {
    current = Math.max(0, Math.min(games.length - 1, n));
    var g = games[current];
    turn = g ? Math.max(0, Math.min(g.turns.length, t)) : 0;
    render();
    if (g) history.replaceState(null, "", "#game=" + g.n + "&turn=" + turn);
  }
  function fromHash() {
    var m = /^#game=(\d+)(?:&turn=(\d+))?/.exec(location.hash);
    if (!m) return false;
    var i = byNumber[Number(m[1])];
    if (i === undefined) {
      document.getElementById("viewer-note").textContent = "Game " + m[1] +
        " is not in this page (only a sample is); take6 replay SERIES_DIR " + m[1] + " shows it.";
      return true;
    }
    current = i;
    turn = Math.max(0, Math.min(games[i].turns.length, Number(m[2] || 0)));
    render();
    return true;
  }
  games.forEach(function (g) {
    var best = Math.min.apply(null, g.scores);
    var winners = g.players.filter(function (_, i) { return g.scores[i] === best; });
    var o = el("option", "", "game " + g.n + " — won by " + winners.join(", ") + " (" + best + ")");
    o.value = String(g.n);
    select.appendChild(o);
  });
  select.addEventListener("change", function () { go(byNumber[Number(select.value)], 0); });
  document.getElementById("first").addEventListener("click", function () { go(current, 0); });
  document.getElementById("prev").addEventListener("click", function () { go(current, turn - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current, turn + 1); });
  document.getElementById("last").addEventListener("click", function () { go(current, 99); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") { go(current, turn + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(current, turn - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(current, 0); e.preventDefault(); }
    else if (e.key === "End") { go(current, 99); e.preventDefault(); }
  });
  window.addEventListener("hashchange", function () {
    if (fromHash()) document.getElementById("viewer").scrollIntoView();
  });
  if (!fromHash()) render();
})();
