// The generic board of a Botzone game in report.html's viewer. A game's log alternates the
// judge's outputs and the players' responses; turn 0 shows the judge's first output (its
// display and first requests), turn t the requests of step t, each player's response (or
// its verdict) with its `debug` when the record keeps one (game.debug: per step, each
// player's), and the judge's display after them; a game take6 has a board for draws it first
// (window.botzoneBoard, boards/viewer.js). Text is set with textContent only.
window.reportBoard = (function () {
  "use strict";
  var step = document.getElementById("bz-step");
  var seats = document.getElementById("bz-seats");
  var display = document.getElementById("bz-display");

  function el(tag, text) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function show(v) {
    return v === undefined ? "" : JSON.stringify(v);
  }
  function log(g) {
    return (g.botzone && g.botzone.log) || [];
  }
  function turns(g) {
    return Math.floor(log(g).length / 2);
  }
  function render(g, turn) {
    var l = log(g);
    var asked = turn === 0 ? l[0] : l[2 * (turn - 1)];
    var answers = turn === 0 ? null : l[2 * turn - 1];
    var after = turn === 0 ? l[0] : l[2 * turn];
    var content = (asked && asked.output && asked.output.content) || {};
    step.textContent = turn === 0
      ? "start; initdata " + show(g.botzone && g.botzone.initdata)
      : "step " + turn + (after && after.output && after.output.command === "finish" ? " (finish)" : "");
    while (seats.firstChild) seats.removeChild(seats.firstChild);
    var head = el("tr");
    var debug = (g.debug && turn > 0 && g.debug[turn - 1]) || null;
    var heads = ["player", "request", "response"];
    if (g.debug) heads.push("debug");
    heads.forEach(function (h) { head.appendChild(el("th", h)); });
    seats.appendChild(head);
    g.players.forEach(function (name, i) {
      var key = String(i);
      var tr = el("tr");
      tr.appendChild(el("td", name));
      tr.appendChild(el("td", key in content ? show(content[key]) : ""));
      var a = answers && answers[key];
      tr.appendChild(el("td", !a ? "" : a.verdict === "OK" ? show(a.response) : a.verdict));
      if (g.debug) {
        var said = el("td", debug && key in debug ? debug[key] : "");
        said.className = "bz-debug";
        tr.appendChild(said);
      }
      seats.appendChild(tr);
    });
    if (window.botzoneBoard) window.botzoneBoard.draw(g, turn);
    var d = after && after.output ? after.output.display : undefined;
    display.textContent = d === undefined ? "" : "display: " + JSON.stringify(d, null, 1);
  }
  return { turns: turns, render: render };
})();
