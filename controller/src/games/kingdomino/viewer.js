// Kingdomino's board in the game viewer of report.html. From the tiles (#data's `tiles`) and
// a game's moves it rebuilds each kingdom turn by turn, draws the tiles offered and who took
// them, every move with its PICK message, the faults, and the running scores, computed here as
// the rules do (zones: squares x crowns; a tie at the top: +1 for the largest territory, then
// +1 for the most crowns). The frame (viewer.js) calls render(game, turn); turn 0 is the start,
// turn T the kingdoms after every move of turn T.
window.reportBoard = (function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var kingdoms = document.getElementById("kingdoms");
  var offer = document.getElementById("offer");
  var info = document.getElementById("turn-info");
  var TERRAIN = { c: "corn field", f: "forest", g: "grassland", l: "lake", w: "wetland", m: "mine" };
  // Where the second square lies for rotations 0 to 3: right, below, left, above.
  var ROT = [[1, 0], [0, 1], [-1, 0], [0, -1]];
  var ARROW = ["→", "↓", "←", "↑"];
  var SIZE = 9, CASTLE = 4;
  // Move fields: [turn, seat, king, tile, x, y, rotation, outcome, pick, message, why].
  var NOTHING = 0, PLACED = 1, UNPLACEABLE = 2, ILLEGAL = 3, ELIMINATED = 4;
  var tiles = {};
  (data.tiles || []).forEach(function (t) {
    tiles[t[0]] = [{ t: t[1], c: t[2] }, { t: t[3], c: t[4] }];
  });
  var windows = {};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function empty() {
    var g = [];
    for (var y = 0; y < SIZE; y++) {
      g.push([]);
      for (var x = 0; x < SIZE; x++) g[y].push(null);
    }
    g[CASTLE][CASTLE] = { t: "castle", c: 0 };
    return g;
  }
  // The grids, the seats out of the game and this turn's moves after every move of turns
  // 1..upto; `fresh` marks the squares placed in turn `upto`.
  function replay(g, upto) {
    var grids = g.players.map(empty);
    var out = g.players.map(function () { return 0; });
    var fresh = {};
    var moves = [];
    g.kingdomino.moves.forEach(function (m) {
      if (m[0] > upto) return;
      if (m[0] === upto) moves.push(m);
      if (m[7] === ELIMINATED) { if (!out[m[1]]) out[m[1]] = m[0]; return; }
      if (m[7] !== PLACED) return;
      var sq = tiles[m[3]];
      if (!sq) return;
      var cells = [[m[4], m[5]], [m[4] + ROT[m[6]][0], m[5] + ROT[m[6]][1]]];
      cells.forEach(function (p, i) {
        if (p[0] < 0 || p[1] < 0 || p[0] >= SIZE || p[1] >= SIZE) return;
        grids[m[1]][p[1]][p[0]] = { t: sq[i].t, c: sq[i].c, tile: m[3] };
        if (m[0] === upto) fresh[m[1] + ":" + p[0] + ":" + p[1]] = true;
      });
    });
    return { grids: grids, out: out, fresh: fresh, moves: moves };
  }
  // A kingdom's value (each zone of one terrain: its squares times its crowns), its
  // territory (squares covered) and its crowns.
  function value(grid) {
    var seen = {}, total = 0, land = 0, crowns = 0;
    for (var y = 0; y < SIZE; y++) {
      for (var x = 0; x < SIZE; x++) {
        var s = grid[y][x];
        if (!s || s.t === "castle" || seen[x + ":" + y]) continue;
        var size = 0, zc = 0, stack = [[x, y]];
        seen[x + ":" + y] = true;
        while (stack.length) {
          var p = stack.pop(), q = grid[p[1]][p[0]];
          size++; zc += q.c;
          ROT.forEach(function (d) {
            var nx = p[0] + d[0], ny = p[1] + d[1];
            if (nx < 0 || ny < 0 || nx >= SIZE || ny >= SIZE || seen[nx + ":" + ny]) return;
            var n = grid[ny][nx];
            if (n && n.t === s.t) { seen[nx + ":" + ny] = true; stack.push([nx, ny]); }
          });
        }
        total += size * zc; land += size; crowns += zc;
      }
    }
    return { score: total, land: land, crowns: crowns };
  }
  // +1 to the seats with the largest `key` among those sharing the best score, when two or
  // more share it and their keys differ.
  function bonus(scores, key) {
    var top = Math.max.apply(null, scores);
    var tied = [];
    scores.forEach(function (s, i) { if (s === top) tied.push(i); });
    var best = Math.max.apply(null, tied.map(key));
    var out = scores.slice();
    if (tied.length > 1 && tied.some(function (i) { return key(i) !== best; })) {
      tied.forEach(function (i) { if (key(i) === best) out[i] += 1; });
    }
    return out;
  }
  function tieBreak(values) {
    var s = bonus(values.map(function (v) { return v.score; }), function (i) { return values[i].land; });
    return bonus(s, function (i) { return values[i].crowns; });
  }
  // The 5 x 5 window each seat's finished kingdom lies in (the whole 9 x 9 grid if it does
  // not fit one), so a kingdom is drawn in the same frame at every turn.
  function windowsOf(g) {
    if (windows[g.n]) return windows[g.n];
    var end = replay(g, Infinity).grids;
    windows[g.n] = end.map(function (grid) {
      var x0 = CASTLE, x1 = CASTLE, y0 = CASTLE, y1 = CASTLE;
      for (var y = 0; y < SIZE; y++) {
        for (var x = 0; x < SIZE; x++) {
          if (!grid[y][x]) continue;
          x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
        }
      }
      if (x1 - x0 > 4 || y1 - y0 > 4) return { x: 0, y: 0, n: SIZE };
      var start = function (a, b) { return Math.max(0, Math.min(SIZE - 5, Math.floor((a + b) / 2) - 2)); };
      return { x: start(x0, x1), y: start(y0, y1), n: 5 };
    });
    return windows[g.n];
  }
  function squareEl(s, isFresh) {
    var e = el("span", "sq t-" + (s ? s.t : "empty") + (isFresh ? " fresh" : ""));
    if (s && s.t === "castle") { e.textContent = "♜"; e.title = "castle"; }
    else if (s) {
      e.title = TERRAIN[s.t] + (s.c ? ", " + s.c + (s.c === 1 ? " crown" : " crowns") : "") +
        (s.tile ? " (tile " + s.tile + ")" : "");
      if (s.c) e.appendChild(el("b", "crowns", new Array(s.c + 1).join("♛")));
    }
    return e;
  }
  function tileEl(id) {
    var e = el("span", "kd-tile");
    e.setAttribute("data-tile", id);
    e.appendChild(el("span", "id", String(id)));
    (tiles[id] || []).forEach(function (s) { e.appendChild(squareEl(s, false)); });
    return e;
  }
  function who(g, seat, king) {
    return g.players[seat] + (g.kingdomino.moves.some(function (m) { return m[1] === seat && m[2] > 0; }) ?
      " (king " + (king + 1) + ")" : "");
  }
  function moveText(g, m) {
    var name = who(g, m[1], m[2]), t = m[3];
    switch (m[7]) {
      case NOTHING: return name + ": nothing to place yet";
      case PLACED: return name + " places " + t + " at (x " + m[4] + ", y " + m[5] + ") " + ARROW[m[6]];
      case UNPLACEABLE: return name + " discards " + t + ": it fits nowhere";
      case ILLEGAL: return name + " puts " + t + " at (x " + m[4] + ", y " + m[5] + ") " + ARROW[m[6] % 4] +
        ", refused (" + (m[10] || "illegal") + "): the tile is discarded";
      default: return g.players[m[1]] + " is out of the game after a fault" +
        (t ? "; tile " + t + " is not placed" : "");
    }
  }
  function render(g, turn) {
    var kd = g.kingdomino;
    var s = replay(g, turn);
    var values = s.grids.map(value);
    var last = turn === kd.turns;
    var finals = last ? tieBreak(values) : null;
    var win = windowsOf(g);
    kingdoms.textContent = "";
    g.players.forEach(function (name, seat) {
      var box = el("div", "kingdom" + (s.out[seat] ? " out" : ""));
      box.setAttribute("data-seat", seat);
      box.setAttribute("data-squares", values[seat].land);
      box.setAttribute("data-score", last ? finals[seat] : values[seat].score);
      box.appendChild(el("h3", "", name + (g.builtin[seat] ? " (built-in)" : "")));
      var line = "score " + values[seat].score;
      if (last) {
        line = "final score " + finals[seat] + (finals[seat] > values[seat].score ?
          " (" + values[seat].score + " + " + (finals[seat] - values[seat].score) + " for the tie-break)" : "");
      }
      var p = el("p", "kd-score", line);
      p.appendChild(el("small", "", " · " + values[seat].land + " squares, " + values[seat].crowns + " crowns"));
      box.appendChild(p);
      if (s.out[seat]) box.appendChild(el("p", "kd-out", "out since turn " + s.out[seat] + " (fault)"));
      var w = win[seat];
      // Labelled with the grid's own coordinates (x across, y down, the castle at (4, 4)),
      // the ones of the PUT lines and of the moves' text, whatever window is drawn.
      var grid = el("div", "kd-grid");
      grid.style.gridTemplateColumns = "14px repeat(" + w.n + ", 1fr)";
      grid.appendChild(el("span", "kd-axis", "y\\x"));
      for (var ax = w.x; ax < w.x + w.n; ax++) {
        var xl = el("span", "kd-axis", String(ax));
        xl.setAttribute("data-axis-x", ax);
        grid.appendChild(xl);
      }
      for (var y = w.y; y < w.y + w.n; y++) {
        var yl = el("span", "kd-axis", String(y));
        yl.setAttribute("data-axis-y", y);
        grid.appendChild(yl);
        for (var x = w.x; x < w.x + w.n; x++) {
          var sq = squareEl(s.grids[seat][y][x], s.fresh[seat + ":" + x + ":" + y]);
          sq.setAttribute("data-x", x);
          sq.setAttribute("data-y", y);
          grid.appendChild(sq);
        }
      }
      box.appendChild(grid);
      kingdoms.appendChild(box);
    });
    var legend = el("p", "kd-legend");
    Object.keys(TERRAIN).forEach(function (t) {
      legend.appendChild(squareEl({ t: t, c: 0 }, false));
      legend.appendChild(el("span", "", " " + TERRAIN[t] + " "));
    });
    legend.appendChild(el("span", "", "· ♛ a crown · ♜ the castle · outlined: placed this turn"));
    kingdoms.appendChild(legend);

    offer.textContent = "";
    var offered = kd.offers[Math.max(0, turn - 1)] || [];
    if (turn === 0) offer.appendChild(el("h3", "", "Tiles to pick in turn 1"));
    else if (offered.length) offer.appendChild(el("h3", "", "Tiles offered in turn " + turn));
    else offer.appendChild(el("h3", "", "Turn " + turn + " offers no tile: it only places"));
    var ul = el("ul", "offer");
    offered.forEach(function (id) {
      var li = el("li");
      li.appendChild(tileEl(id));
      var by = turn > 0 ? s.moves.filter(function (m) { return m[8] === id && m[7] !== ELIMINATED; })[0] : null;
      li.setAttribute("data-tile", id);
      li.setAttribute("data-owner", by ? by[1] : "");
      li.appendChild(el("span", "taker", by ? "taken by " + who(g, by[1], by[2]) : turn > 0 ? "not taken" : ""));
      if (by && by[9]) li.appendChild(el("q", "msg", by[9]));
      ul.appendChild(li);
    });
    offer.appendChild(ul);

    info.textContent = "";
    if (turn > 0) {
      info.appendChild(el("h3", "", "Moves of turn " + turn + ", in play order"));
      var ol = el("ol", "moves");
      s.moves.forEach(function (m) {
        var li = el("li", m[7] === ILLEGAL || m[7] === ELIMINATED ? "bad" : m[7] === UNPLACEABLE ? "lost" : "");
        li.setAttribute("data-seat", m[1]);
        if (m[3] && m[7] !== ELIMINATED) li.appendChild(tileEl(m[3]));
        li.appendChild(el("span", "", moveText(g, m)));
        if (m[8] && m[7] !== ELIMINATED) li.appendChild(el("span", "", "; picks " + m[8]));
        if (m[9]) li.appendChild(el("q", "msg", m[9]));
        ol.appendChild(li);
      });
      info.appendChild(ol);
    }
    g.faults.forEach(function (f) {
      if (turn > 0 && f[1] === turn) {
        info.appendChild(el("p", "fault", "Fault: " + g.players[f[0]] + " in turn " + f[1] +
          " (" + f[3] + "): " + f[4]));
      }
    });
    if (last) {
      var order = g.players.map(function (_, i) { return i; });
      order.sort(function (a, b) { return g.scores[b] - g.scores[a]; });
      info.appendChild(el("h3", "", "Final scores (higher is better)"));
      var fl = el("ol", "finals");
      order.forEach(function (i) { fl.appendChild(el("li", "", g.players[i] + " " + g.scores[i])); });
      info.appendChild(fl);
    }
  }
  return { turns: function (g) { return g.kingdomino.turns; }, render: render };
})();
