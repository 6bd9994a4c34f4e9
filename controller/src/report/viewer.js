// The game viewer's frame in report.html, the same for every game: the list of games, the
// turn buttons and keys, and the address. The game's own script (take6.js, kingdomino.js)
// sets window.reportBoard = {turns(game), render(game, turn)} before this runs. State lives
// in the URL hash (#game=N&turn=T) so a link opens a game, and the page scrolls to the viewer
// when it does, on load as on a click.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var board = window.reportBoard;
  var games = data.games;
  var byNumber = {};
  games.forEach(function (g, i) { byNumber[g.n] = i; });
  var select = document.getElementById("game");
  var label = document.getElementById("turn-label");
  var note = document.getElementById("viewer-note");
  var current = 0;
  var turn = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function render() {
    var g = games[current];
    if (!g) { note.textContent = "No game is recorded in this series."; return; }
    board.render(g, turn);
    label.textContent = turn === 0 ? "start" : "turn " + turn + " of " + board.turns(g);
    select.value = String(g.n);
  }
  function go(n, t) {
    current = Math.max(0, Math.min(games.length - 1, n));
    var g = games[current];
    turn = g ? Math.max(0, Math.min(board.turns(g), t)) : 0;
    render();
    if (g) history.replaceState(null, "", "#game=" + g.n + "&turn=" + turn);
  }
  function fromHash() {
    var m = /^#game=(\d+)(?:&turn=(\d+))?/.exec(location.hash);
    if (!m) return false;
    var i = byNumber[Number(m[1])];
    if (i === undefined) {
      note.textContent = "Game " + m[1] +
        " is not in this page (only a sample is); take6 replay SERIES_DIR " + m[1] + " shows it.";
      return true;
    }
    current = i;
    turn = Math.max(0, Math.min(board.turns(games[i]), Number(m[2] || 0)));
    render();
    return true;
  }
  function show() { document.getElementById("viewer").scrollIntoView(); }
  games.forEach(function (g) {
    var best = (data.higher ? Math.max : Math.min).apply(null, g.scores);
    var winners = g.players.filter(function (_, i) { return g.scores[i] === best; });
    var o = el("option", "", "game " + g.n + " — won by " + winners.join(", ") + " (" + best + ")");
    o.value = String(g.n);
    select.appendChild(o);
  });
  select.addEventListener("change", function () { go(byNumber[Number(select.value)], 0); });
  document.getElementById("first").addEventListener("click", function () { go(current, 0); });
  document.getElementById("prev").addEventListener("click", function () { go(current, turn - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current, turn + 1); });
  document.getElementById("last").addEventListener("click", function () { go(current, 999); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") { go(current, turn + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(current, turn - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(current, 0); e.preventDefault(); }
    else if (e.key === "End") { go(current, 999); e.preventDefault(); }
  });
  window.addEventListener("hashchange", function () { if (fromHash()) show(); });
  if (fromHash()) show(); else render();
})();
