// The board of a Botzone game take6 knows (Reversi, Gomoku, Renju, Go, NoGo, Amazons, Ataxx,
// TicTacToe) in report.html's viewer, drawn from the frames take6 computed from the record's
// log (game.board: {kind, size, base, start: the first squares as digits, frames: [{d: the
// changes from the frame before as [square, piece, ...], m: marked squares, n: note}]}): 0 empty, 1 player 0's piece (black, X), 2 player 1's (white, O), 3 an Amazons
// arrow. Squares are labelled with the judge's own coordinates (x across, y down). The
// generic viewer (viewer.js, after this) calls window.botzoneBoard.draw(game, turn). Text is
// set with textContent only.
window.botzoneBoard = (function () {
  "use strict";
  var root = document.getElementById("bz-board");
  var note = document.getElementById("bz-note");
  var PIECE = {
    tictactoe: ["", "X", "O", ""],
    amazons: ["", "\u265B", "\u265B", ""]
  };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function draw(g, turn) {
    var b = g.board;
    while (root.firstChild) root.removeChild(root.firstChild);
    note.textContent = "";
    if (!b || !b.frames || !b.frames.length) return;
    var last = Math.min(turn, b.frames.length - 1);
    var f = b.frames[last];
    var n = b.size;
    var cells = [];
    for (var k = 0; k < n * n; k++) cells.push(Number(b.start.charAt(k)) || 0);
    for (var t = 0; t <= last; t++) {
      var d = b.frames[t].d || [];
      for (var j = 0; j + 1 < d.length; j += 2) {
        if (d[j] >= 0 && d[j] < n * n) cells[d[j]] = d[j + 1];
      }
    }
    var marked = {};
    (f.m || []).forEach(function (i) { marked[i] = true; });
    var grid = el("div", "bz-grid bz-" + b.kind);
    grid.style.gridTemplateColumns = "18px repeat(" + n + ", var(--bz-sq))";
    grid.appendChild(el("span", "bz-label", ""));
    for (var x = 0; x < n; x++) grid.appendChild(el("span", "bz-label", String(x + b.base)));
    var counts = [0, 0, 0, 0];
    for (var y = 0; y < n; y++) {
      grid.appendChild(el("span", "bz-label", String(y + b.base)));
      for (x = 0; x < n; x++) {
        var i = y * n + x;
        var v = cells[i] >= 0 && cells[i] <= 3 ? cells[i] : 0;
        counts[v]++;
        var sq = el("span", "bz-sq" + ((x + y) % 2 ? " odd" : "") + (marked[i] ? " bz-mark" : ""));
        sq.setAttribute("data-x", String(x + b.base));
        sq.setAttribute("data-y", String(y + b.base));
        if (v) {
          var text = (PIECE[b.kind] || [])[v] || "";
          sq.appendChild(el("span", "bz-piece bz-p" + v, text));
        }
        grid.appendChild(sq);
      }
    }
    root.appendChild(grid);
    var who = b.kind === "tictactoe" ? ["X", "O"] : ["black", "white"];
    var sums = el("p", "bz-counts", who[0] + " " + counts[1] + " · " + who[1] + " " + counts[2] +
      (b.kind === "amazons" ? " · arrows " + counts[3] : ""));
    root.appendChild(sums);
    note.textContent = f.n || "";
  }
  return { draw: draw };
})();
