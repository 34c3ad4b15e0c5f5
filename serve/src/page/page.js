// The analysis page of `topitop serve`: every served game and variant,
// drawn from the same answers GamesmanUni gets (the variant object's
// AutoGUI board, and the position objects with the player to move added
// by /ui/position/), with the game's own drawings from /ui/board/. No build step, no library: plain DOM and SVG.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const state = {
  variants: [], // {game, gameName, id, name}
  current: null, // the chosen entry of `variants`
  object: null, // its variant object
  board: null, // its drawings and player names
  history: [], // position strings, the start first
  moves: [null], // the move played into each history entry (none into the start)
  at: 0, // index in `history` of the position shown
  answers: [], // the position object of each history entry, when known
  computer: [false, false], // which players the computer moves
  request: 0, // the newest position request; older answers are dropped
  timer: null,
  hints: localStorage.getItem("topitop.hints") !== "off", // values shown, or play blind
  focusBoard: false, // a move was played from the keyboard: keep the focus on the board
};

async function getJson(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok || body.error) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

function variantPath(v) {
  return `/${encodeURIComponent(v.game)}/${encodeURIComponent(v.id)}`;
}

function showError(message) {
  const e = $("error");
  e.textContent = message || "";
  e.hidden = !message;
}

// ---- loading games and variants ------------------------------------------

async function loadVariants() {
  const games = await getJson("/");
  for (const g of games) {
    const game = await getJson(`/${encodeURIComponent(g.id)}/`);
    for (const v of game.variants) {
      state.variants.push({ game: g.id, gameName: g.name, id: v.id, name: v.name });
    }
  }
  const select = $("variant");
  let group = null;
  state.variants.forEach((v, i) => {
    if (!group || group.label !== v.gameName) {
      group = document.createElement("optgroup");
      group.label = v.gameName;
      select.appendChild(group);
    }
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = `${v.gameName}: ${v.name}`;
    o.dataset.game = v.game;
    o.dataset.variant = v.id;
    group.appendChild(o);
  });
}

async function chooseVariant(i, position) {
  const v = state.variants[i];
  if (!v) return;
  state.current = v;
  $("variant").value = String(i);
  const [object, board] = await Promise.all([
    getJson(`${variantPath(v)}/`),
    getJson(`/ui/board${variantPath(v)}`),
  ]);
  state.object = object;
  state.board = board;
  state.computer = [false, false];
  renderComputers();
  loadRules(v);
  await start(position || object.startPosition);
}

// The address names the game, the variant and the position shown, so a
// reload or a shared link comes back to it.
function keepAddress() {
  const v = state.current;
  const url = new URL(location.href);
  url.searchParams.set("game", v.game);
  url.searchParams.set("variant", v.id);
  const p = state.history[state.at];
  if (p !== undefined && p !== state.object.startPosition) url.searchParams.set("p", p);
  else url.searchParams.delete("p");
  history.replaceState(null, "", url);
}

// A new game from `position`, whose answer may be known already.
async function start(position, answer) {
  state.history = [position];
  state.moves = [null];
  state.answers = answer ? [answer] : [];
  state.at = 0;
  await show();
}

// ---- one position ---------------------------------------------------------

// The page's position object of `p` in variant `v`: GamesmanUni's, with
// the player to move and the game's notes.
function fetchAnswer(v, p) {
  return getJson(`/ui/position${variantPath(v)}?p=${encodeURIComponent(p)}`);
}

// The answer `r` of the position `ply` plies into the game. An
// impartial game's positions do not say who moves: the plies played do,
// the first player moving first (as `topitop play`).
function withTurn(r, ply) {
  const names = state.board.players;
  if (r.turn == null && names) r.turn = names[ply % 2];
  return r;
}

async function answerAt(i) {
  if (!state.answers[i]) state.answers[i] = withTurn(await fetchAnswer(state.current, state.history[i]), i);
  return state.answers[i];
}

function enableHistoryButtons() {
  $("undo").disabled = state.at === 0;
  $("redo").disabled = state.at >= state.history.length - 1;
}

async function show() {
  const ticket = ++state.request;
  clearTimeout(state.timer);
  // Undo and redo stay live while a search works: each drops its answer.
  enableHistoryButtons();
  // A board answered by search takes a second or two.
  if (!state.answers[state.at]) $("status").textContent = "Working out the values…";
  let r;
  try {
    r = await answerAt(state.at);
  } catch (e) {
    if (ticket !== state.request) return;
    showError(e.message);
    // The position cannot be shown: back to the last one that could, or
    // to the start, with the reason kept on screen.
    const why = e.message;
    if (state.at > 0) {
      state.history.splice(state.at);
      state.at -= 1;
      await show();
    } else if (state.history[0] !== state.object.startPosition) {
      await start(state.object.startPosition);
    }
    showError(why);
    return;
  }
  if (ticket !== state.request) return;
  showError("");
  $("position").value = r.position;
  $("status").textContent = describe(r) + repetition();
  // Why the game ended, as the game words it (the groups compared, the
  // pawn lost), under the headline.
  $("why").textContent = r.ending || "";
  $("why").hidden = !r.ending;
  drawBoard(r);
  listMoves(r);
  drawHistory();
  drawRecord();
  describePosition(r);
  enableHistoryButtons();
  keepAddress();
  if (state.focusBoard) {
    state.focusBoard = false;
    const first = $("board").querySelector(".move");
    (first || $("board")).focus();
  }
  computerTurn(r);
}

// The player to move: the board drawings name them, and each answer says
// whose turn it is.
function moverIndex(r) {
  const names = state.board.players || [];
  const i = names.indexOf(r.turn);
  return i < 0 ? null : i;
}

function describe(r) {
  const names = state.board.players || ["first player", "second player"];
  const m = moverIndex(r);
  const mover = m === null ? "the player to move" : names[m];
  const other = m === null ? "the other player" : names[1 - m];
  const inN = r.remoteness >= 0 ? ` in ${r.remoteness}` : "";
  const turn = m === null ? "" : `${mover} to move. `;
  if (!r.moves.length) {
    switch (r.positionValue) {
      case "win": return `Game over: ${mover} wins.`;
      case "lose": return `Game over: ${other} wins.`;
      case "tie": return "Game over: a tie.";
      default: return "Game over.";
    }
  }
  // A position typed in need not come up in any game (Topitop's
  // 2_---------, the second player to move on an empty board).
  const never = r.reachable === false ? " No game from the start comes to this position." : "";
  // Playing blind: whose turn it is, and nothing of the values.
  if (!state.hints) return `${turn}Values hidden.` + never;
  if (r.estimated) {
    const e = r.estimated;
    // A search that saw to the end of every line knows the value, though
    // not how many moves it takes.
    if (e.method === "exact") {
      return `${headline(r, turn, mover, other, "")} Proven by the search (${e.work} random games in ${e.budgetMs} ms); the number of moves is not known.` + never;
    }
    // A board no database holds: the search's estimate, said to be one.
    const best = bestShare(r);
    const method = METHODS[e.method] || `${e.method} search`;
    const a = /^[aeiou]/i.test(method) ? "an" : "a";
    // A search that played no game (a busy server) has no result, not an
    // even one.
    if (best === null) {
      return `${turn}No estimate: the ${method} played no game in ${e.budgetMs} ms (a busy server); ask again.` + never;
    }
    return `${turn}Estimate, not a solved value: ${mover} expects ${Math.round(100 * best)}% ` +
      `(${a} ${method}, ${e.work} random games in ${e.budgetMs} ms).` + never;
  }
  return headline(r, turn, mover, other, inN) + never;
}

// The searches' names in words.
const METHODS = { mcts: "Monte Carlo tree search", "alpha-beta": "alpha-beta search" };

function headline(r, turn, mover, other, inN) {
  switch (r.positionValue) {
    case "win": return `${turn}${cap(mover)} wins${inN}.`;
    case "lose": return `${turn}${cap(other)} wins${inN}.`;
    case "tie": return `${turn}A tie${inN}.`;
    case "draw": return `${turn}A draw: neither side can force a win.`;
    default: return `${turn}Not solved.`;
  }
}

// A position shown again: in a drawn game play can go round for ever,
// and the status says it has.
function repetition() {
  const first = state.history.indexOf(state.history[state.at]);
  return first < state.at ? ` This position came before, at ply ${first}: the game is going round.` : "";
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function moveText(m) {
  if (m.moveValue === "unsolved") return "no value known";
  if (m.estimate !== undefined) return `${m.moveValue}, estimated ${Math.round(100 * m.estimate)}%`;
  const rem = m.moveValue === "draw" || m.remoteness < 0 ? "" : ` in ${m.remoteness + 1}`;
  return `${m.moveValue}${rem}`;
}

// A move's name, and its value unless the values are hidden.
function moveLabel(m) {
  return state.hints ? `${m.move}: ${moveText(m)}` : m.move;
}

function play(move, fromKeyboard) {
  const r = state.answers[state.at];
  const m = r && r.moves.find((x) => x.move === move);
  if (!m) return;
  state.focusBoard = Boolean(fromKeyboard);
  state.history.splice(state.at + 1);
  state.answers.splice(state.at + 1);
  state.moves.splice(state.at + 1);
  state.history.push(m.position);
  state.moves.push(m.move);
  state.at += 1;
  show();
}

// ---- the board --------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function theme() {
  const data = state.object.imageAutoGUIData;
  if (!data) return null;
  return data.themes[data.defaultTheme] || Object.values(data.themes)[0];
}

// A piece: the game's drawing of `ch` (a unit box around the origin),
// scaled and placed at `centre`; a plain disc when the game has none.
function piece(ch, centre, scale, parent) {
  const g = el("g", { transform: `translate(${centre[0]} ${centre[1]}) scale(${scale})` }, parent);
  const art = (state.board.pieces || {})[ch];
  if (art) {
    const inner = el("g", {}, g);
    inner.innerHTML = art;
  } else {
    el("circle", { r: 0.4, fill: "#888" }, g);
  }
  return g;
}

function drawBoard(r) {
  const svg = $("board");
  const text = $("text-board");
  const t = theme();
  svg.replaceChildren();
  svg.setAttribute("data-position", r.position);
  text.setAttribute("data-position", r.position);
  if (!t) {
    svg.hidden = true;
    $("board-wrap").hidden = true;
    text.hidden = false;
    text.textContent = r.position;
    return;
  }
  svg.hidden = false;
  $("board-wrap").hidden = false;
  text.hidden = true;
  const [w, h] = t.space;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const back = el("g", { class: "background" }, svg);
  if (state.board.background) back.innerHTML = state.board.background;
  else el("rect", { width: w, height: h, fill: "#fafafa" }, back);
  // Arrows and lines go under the pieces, so no stack or letter is
  // hidden; placement buttons go over them.
  const lines = r.moves.filter((m) => !isButton(m));
  const buttons = r.moves.filter(isButton);
  const discs = buttonDiscs(t, r.moves);
  for (const m of lines) drawMove(svg, t, m, discs, r.moves);
  const pieces = el("g", { class: "pieces" }, svg);
  // The game may place its drawings apart from GamesmanUni's images.
  const centers = state.board.centers || t.centers;
  const entities = r.autoguiPosition.replace(/^[^_]*_/, "");
  [...entities].forEach((ch, i) => {
    const img = t.charImages[ch];
    const c = centers[i];
    if (img && c) piece(ch, c, img.scale, pieces).dataset.slot = String(i);
  });
  for (const m of buttons) drawMove(svg, t, m, discs, r.moves);
  choosePickMode(svg, t, r);
}

// A move drawn as a button (AutoGUI's `A_`), not an arrow or a line.
function isButton(m) {
  return /^A_/.test(m.autoguiMove || "");
}

// The discs of a position's placement buttons (`A_`), [x, y, radius] in
// board units: drawn over the arrows and lines, they take the clicks
// there.
function buttonDiscs(t, moves) {
  return moves.filter(isButton).flatMap((m) => {
    const parts = m.autoguiMove.split("_");
    const c = t.centers[+parts[2]];
    const img = t.charImages[parts[1]];
    return c ? [[c[0], c[1], (img ? img.scale : 0.25) * 0.54]] : [];
  });
}

// The part of an arrow (`M`) or a line (`L`) from `a` to `b` that takes
// clicks, as fractions of its length: an arrow's half toward its head,
// since arrows cross and a move and its reverse share one line at their
// middles; a line's part between its ends, which lie under pieces. Less
// what lies within `pad` of a button's disc (`discs`), which would take
// the click instead: the longest piece left, so that a click on the part
// plays the move drawn there and every step keeps a place to be clicked
// even where its head lies under a placement (Topple). An arrow whose
// head half is all under discs (its head on an empty cell where a piece
// may be placed) takes the rest of its length, when no reverse arrow
// (`reverse`) claims it. With nothing left, the part whole.
function clickablePart(kind, a, b, discs, pad, reverse) {
  const base = kind === "M" ? [0.55, 1] : [0.25, 0.75];
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy || 1;
  const len = Math.sqrt(len2);
  const uncovered = (part) => {
    let free = [part];
    for (const [cx, cy, r0] of discs) {
      const r = r0 + pad;
      const k = ((cx - a[0]) * dx + (cy - a[1]) * dy) / len2;
      const d2 = (cx - a[0] - k * dx) ** 2 + (cy - a[1] - k * dy) ** 2;
      if (d2 >= r * r) continue;
      const h = Math.sqrt(r * r - d2) / len;
      free = free
        .flatMap(([x, y]) => [[x, Math.min(y, k - h)], [Math.max(x, k + h), y]])
        .filter(([x, y]) => (y - x) * len > pad);
    }
    return free.length ? free.reduce((best, s) => (s[1] - s[0] > best[1] - best[0] ? s : best)) : null;
  };
  const wider = kind === "M" && !reverse ? [0.1, 1] : null;
  return uncovered(base) || (wider && uncovered(wider)) || base;
}

// Whether `m`, an arrow, has its reverse among `moves` (the two share one
// line).
function hasReverse(m, moves) {
  const [, from, to] = (m.autoguiMove || "").split("_");
  return moves.some((o) => {
    const p = (o.autoguiMove || "").split("_");
    return p[0] === "M" && p[1] === to && p[2] === from;
  });
}

// Half the width of the band that takes an arrow's or line's clicks.
function bandHalf(t) {
  return Math.max((t.arrowWidth || 0.04) * 1.6 * 1.5, 0.06);
}

// Screen pixels to one unit of the board.
function boardScale(svg) {
  const m = svg.getScreenCTM();
  return m ? Math.hypot(m.a, m.b) : 1;
}

// ---- targets too small for a finger -------------------------------------

// Where a click on the board lands, in board units.
function boardPoint(svg, e) {
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = svg.createSVGPoint();
  p.x = e.clientX;
  p.y = e.clientY;
  return p.matrixTransform(m.inverse());
}

// A move control's distance from the point `p`, in board units: from a
// button's centre, or from an arrow's or line's clickable part.
function distanceTo(t, m, p, discs, moves) {
  const parts = (m.autoguiMove || "").split("_");
  const c = (i) => t.centers[+parts[i]];
  if (parts[0] === "A" && c(2)) return Math.hypot(p.x - c(2)[0], p.y - c(2)[1]);
  if ((parts[0] === "M" || parts[0] === "L") && c(1) && c(2)) {
    const [a, b] = [c(1), c(2)];
    const [from, to] = clickablePart(parts[0], a, b, discs, bandHalf(t), hasReverse(m, moves));
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy || 1;
    let k = ((p.x - a[0]) * dx + (p.y - a[1]) * dy) / len2;
    k = Math.min(to, Math.max(from, k));
    return Math.hypot(p.x - (a[0] + k * dx), p.y - (a[1] + k * dy));
  }
  return Infinity;
}

// When the board's buttons are drawn smaller than a fingertip (an 8×8
// board on a phone), a tap no longer hits one button: it lists the moves
// within reach of it, to pick from, and plays the move at once when only
// one is.
function choosePickMode(svg, t, r) {
  closePicker();
  const scale = boardScale(svg);
  const radii = r.moves
    .filter(isButton)
    .map((x) => ((t.charImages[x.autoguiMove.split("_")[1]] || {}).scale ?? 0.25) * 0.54 * scale);
  const small = radii.length > 0 && Math.min(...radii) < 11;
  svg.classList.toggle("pick", small);
}

function closePicker() {
  const old = $("picker");
  if (old) old.remove();
}

function onBoardClick(e) {
  const svg = $("board");
  if (!svg.classList.contains("pick")) return;
  const r = state.answers[state.at];
  const t = theme();
  const p = boardPoint(svg, e);
  if (!r || !t || !p) return;
  // Within about a fingertip (22 px) of the tap.
  const reach = 22 / boardScale(svg);
  const discs = buttonDiscs(t, r.moves);
  const near = r.moves
    .map((m) => [distanceTo(t, m, p, discs, r.moves), m])
    .filter(([d]) => d <= reach)
    .sort((a, b) => a[0] - b[0])
    .map(([, m]) => m);
  closePicker();
  if (near.length === 1) {
    play(near[0].move);
    return;
  }
  if (!near.length) return;
  const box = document.createElement("div");
  box.id = "picker";
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", "Moves here");
  const title = document.createElement("p");
  title.textContent = "Moves here:";
  box.appendChild(title);
  for (const m of near) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `v-${m.moveValue}`;
    b.dataset.move = m.move;
    b.textContent = moveLabel(m);
    b.addEventListener("click", () => {
      closePicker();
      play(m.move);
    });
    box.appendChild(b);
  }
  const wrap = $("board-wrap");
  const at = wrap.getBoundingClientRect();
  box.style.left = `${Math.max(0, Math.min(e.clientX - at.left - 60, at.width - 170))}px`;
  box.style.top = `${e.clientY - at.top + 12}px`;
  wrap.appendChild(box);
  box.querySelector("button").focus();
}

// A move's control on the board, as GamesmanUni's AutoGUI draws it: `A_`
// a button (a piece at a centre), `M_` and `L_` an arrow or line between
// two centres. Other moves are in the list only.
function drawMove(svg, t, m, discs, moves) {
  const parts = (m.autoguiMove || "").split("_");
  const colour = `var(--${m.moveValue})`;
  const g = el("g", {
    class: `move v-${m.moveValue}`,
    tabindex: "0",
    role: "button",
    "aria-label": moveLabel(m),
    "data-move": m.move,
    "data-value": m.moveValue,
  });
  if (parts[0] === "A" && t.centers[+parts[2]]) {
    const c = t.centers[+parts[2]];
    const img = t.charImages[parts[1]];
    const s = img ? img.scale : 0.25;
    el("circle", { class: "ring", cx: c[0], cy: c[1], r: s * 0.54, fill: colour, "fill-opacity": 0.35, stroke: colour, "stroke-width": 0.03 }, g);
    if (img) piece(parts[1], c, s * 0.82, g);
  } else if ((parts[0] === "M" || parts[0] === "L") && t.centers[+parts[1]] && t.centers[+parts[2]]) {
    const [a, b] = [t.centers[+parts[1]], t.centers[+parts[2]]];
    const width = (t.arrowWidth || 0.04) * 1.6;
    el("line", { class: "ring", x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: colour, "stroke-width": width, "stroke-linecap": "round" }, g);
    const dx = b[0] - a[0], dy = b[1] - a[1];
    if (parts[0] === "M") {
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len, s = width * 2.2;
      const tip = `${b[0]},${b[1]} ${b[0] - ux * s - uy * s * 0.7},${b[1] - uy * s + ux * s * 0.7} ${b[0] - ux * s + uy * s * 0.7},${b[1] - uy * s - ux * s * 0.7}`;
      el("polygon", { points: tip, fill: colour }, g);
    }
    const half = bandHalf(t);
    const [from, to] = clickablePart(parts[0], a, b, discs, half, hasReverse(m, moves));
    // A band around that part, as a shape with an inside (a line has
    // none, and a horizontal one no height to click).
    const len = Math.hypot(dx, dy) || 1;
    const nx = (-dy / len) * half, ny = (dx / len) * half;
    const [p, q] = [[a[0] + dx * from, a[1] + dy * from], [a[0] + dx * to, a[1] + dy * to]];
    const band = [[p[0] + nx, p[1] + ny], [q[0] + nx, q[1] + ny], [q[0] - nx, q[1] - ny], [p[0] - nx, p[1] - ny]];
    el("polygon", { class: "hit", points: band.map((v) => v.join(",")).join(" "), fill: "transparent" }, g);
  } else {
    return;
  }
  el("title", {}, g).textContent = moveLabel(m);
  g.addEventListener("click", () => play(m.move));
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      play(m.move, true);
    }
  });
  svg.appendChild(g);
}

function listMoves(r) {
  const list = $("moves");
  list.replaceChildren();
  if (!r.moves.length) {
    const li = document.createElement("li");
    li.textContent = "No moves: the game is over.";
    list.appendChild(li);
  }
  // An estimate's list is in the order of the share it shows.
  const moves = r.estimated ? [...r.moves].sort((a, b) => (b.estimate ?? 0) - (a.estimate ?? 0)) : r.moves;
  for (const m of moves) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = `v-${m.moveValue}`;
    b.dataset.move = m.move;
    b.dataset.value = m.moveValue;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = m.move;
    const value = document.createElement("span");
    value.className = "value-text";
    value.textContent = ` ${moveText(m)}`;
    b.append(name, value);
    b.setAttribute("aria-label", state.hints ? `${m.move}: ${moveText(m)} for the player moving` : m.move);
    b.addEventListener("click", (e) => play(m.move, e.detail === 0));
    li.appendChild(b);
    list.appendChild(li);
  }
}

// ---- the computer -------------------------------------------------------------

function renderComputers() {
  const box = $("computers");
  box.replaceChildren();
  const names = state.board.players || ["first player", "second player"];
  names.forEach((n, i) => {
    const label = document.createElement("label");
    const c = document.createElement("input");
    c.type = "checkbox";
    c.id = `computer-${i}`;
    c.checked = state.computer[i];
    c.addEventListener("change", () => {
      state.computer[i] = c.checked;
      const r = state.answers[state.at];
      if (r) computerTurn(r);
    });
    label.append(c, ` Computer plays ${n}`);
    box.appendChild(label);
  });
}

// The perfect player moves for the players the computer has, at random
// among its equally good moves.
function computerTurn(r) {
  clearTimeout(state.timer);
  const m = moverIndex(r);
  if (m === null || !state.computer[m] || !r.moves.length) return;
  // Only at the newest position: browsing back through the game pauses
  // it, and the status says so rather than leave the player waiting.
  if (state.at !== state.history.length - 1) {
    $("status").textContent = `${describe(r)} The computer waits while you look back: Redo to the newest position, or play a move here to go on from it.`;
    return;
  }
  // The moves ranked first are those GamesmanUni's computer chooses
  // among (study.js: the position's value kept; of those the quickest win
  // or tie, the slowest loss; every draw alike; the best share).
  const choices = r.moves.filter((x) => siblingRank(r, x) === 1);
  const pick = choices[Math.floor(Math.random() * choices.length)];
  state.timer = setTimeout(() => play(pick.move), 600);
}

// ---- the value history --------------------------------------------------------

async function drawHistory() {
  const ticket = state.request;
  const answers = [];
  for (let i = 0; i < state.history.length; i++) {
    try {
      answers.push(await answerAt(i));
    } catch {
      break;
    }
  }
  if (ticket !== state.request) return;
  const svg = $("history");
  svg.replaceChildren();
  // A board answered by search is charted by its estimates: the first
  // player's expected share, 100% at the left; a solved one by remoteness.
  const estimated = answers.some((a) => a.estimated);
  const rows = Math.max(answers.length, 8);
  const most = Math.max(5, ...answers.filter((a) => !a.estimated).map((a) => a.remoteness));
  const W = 320, row = 14, top = 30, left = 26, H = top + rows * row + 8;
  const mid = left + (W - left) / 2, half = (W - left) / 2 - 10;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const names = state.board.players || ["first", "second"];
  el("text", { x: left, y: 11 }, svg).textContent = `${names[0]} wins ←`;
  el("text", { x: W - 4, y: 11, "text-anchor": "end" }, svg).textContent = `→ ${names[1]} wins`;
  // The scale: remoteness from the middle line out, or shares.
  const ticks = estimated
    ? [[-1, "100%"], [-0.5, "75%"], [0, "50%"], [0.5, "25%"], [1, "0%"]]
    : [-most, -Math.round(most / 2), 0, Math.round(most / 2), most].map((r) => [r / most, String(Math.abs(r))]);
  for (const [f, label] of ticks) {
    const x = mid + f * half;
    el("line", { x1: x, y1: top - 6, x2: x, y2: H - 4, stroke: f === 0 ? "#c9ced6" : "#eceef2" }, svg);
    el("text", { x, y: top - 9, "text-anchor": "middle", class: "tick" }, svg).textContent = label;
  }
  const points = answers.map((a, ply) => {
    const m = moverIndex(a);
    const y = top + ply * row + row / 2;
    if (estimated) {
      // The mover's share from the best move's estimate, a game over's
      // from its value; turned to the first player's.
      const done = { win: 1, lose: 0, tie: 0.5 }[a.positionValue];
      const share = (a.moves.length ? bestShare(a) : done) ?? 0.5;
      const first = m === 1 ? 1 - share : share;
      return [mid - half * (2 * first - 1), y];
    }
    let side = 0;
    if (m !== null && (a.positionValue === "win" || a.positionValue === "lose")) {
      const winner = a.positionValue === "win" ? m : 1 - m;
      side = winner === 0 ? -1 : 1;
    }
    return [mid + side * half * (Math.max(a.remoteness, 0) / most), y];
  });
  if (points.length > 1) {
    const d = points.map(([x, y], i) => `${i ? "L" : "M"}${x},${y}`).join("");
    el("path", { d, fill: "none", stroke: "#7a8594", "stroke-width": 1 }, svg);
  }
  answers.forEach((a, ply) => {
    const [x, y] = points[ply];
    el("text", { x: 4, y: y + 3 }, svg).textContent = String(ply);
    const dot = el("circle", { cx: x, cy: y, r: ply === state.at ? 5 : 3.5, fill: `var(--${a.positionValue}, #999)` }, svg);
    const share = a.estimated && a.moves.length ? bestShare(a) : undefined;
    const what = share === null
      ? "no estimate: the search played no game"
      : share !== undefined
      ? `estimated ${Math.round(100 * share)}% for the player to move`
      : `${a.positionValue}${a.remoteness >= 0 ? ` in ${a.remoteness}` : ""} for the player to move`;
    el("title", {}, dot).textContent = `ply ${ply}: ${what}`;
  });
}

// The best share among an estimated position's moves; null when the
// search tried none of them.
function bestShare(a) {
  const shares = a.moves.map((m) => m.estimate).filter((x) => x !== undefined);
  return shares.length ? Math.max(...shares) : null;
}

// ---- the rules, the hints and the position's facts -----------------------------

// The variant's rules (GamesmanUni's instructions route), in the panel.
async function loadRules(v) {
  const box = $("rules-text");
  try {
    const r = await getJson(`${variantPath(v)}/instructions/?locale=en-US`);
    if (state.current !== v) return;
    if (r.instructions) renderRules(r.instructions, box);
    else box.textContent = "This game gives no rules text.";
  } catch (e) {
    box.textContent = `The rules could not be read: ${e.message}`;
  }
  $("rules-title").textContent = `Rules of ${v.gameName}`;
}

// Playing blind hides every value: the page's colours all turn grey, and
// the chart and the marks on the moves played are hidden.
function applyHints() {
  document.body.classList.toggle("blind", !state.hints);
}

// What a researcher looks the position up by: GamesmanUni's answer for it
// on this server, and where it stands among the moves of the position
// before it.
function describePosition(r) {
  const box = $("facts");
  box.replaceChildren();
  const add = (label, node) => {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.append(node);
    box.append(dt, dd);
  };
  for (const [label, text] of r.facts || []) {
    if (label === "In query") {
      const code = document.createElement("code");
      code.textContent = text;
      add(label, code);
    } else {
      add(label, text);
    }
  }
  const link = document.createElement("a");
  link.href = `${variantPath(state.current)}/positions/?p=${encodeURIComponent(r.position)}`;
  link.textContent = r.position;
  link.id = "position-link";
  add("GamesmanUni's answer", link);
  if (state.at > 0 && state.hints) {
    const parent = state.answers[state.at - 1];
    const m = movePlayed(state.at);
    if (parent && m) {
      const n = parent.moves.length;
      add("Rank among its siblings", `${ordinal(siblingRank(parent, m))} of the ${n} move${n === 1 ? "" : "s"} at ply ${state.at - 1}, best first`);
    }
  }
}

// ---- controls -----------------------------------------------------------------

function undo() {
  if (state.at > 0) {
    state.at -= 1;
    show();
  }
}

function redo() {
  if (state.at < state.history.length - 1) {
    state.at += 1;
    show();
  }
}

function wire() {
  $("variant").addEventListener("change", (e) => chooseVariant(+e.target.value).catch((x) => showError(x.message)));
  $("board").addEventListener("click", onBoardClick);
  window.addEventListener("resize", () => {
    const r = state.answers[state.at];
    const t = state.object && theme();
    if (r && t) choosePickMode($("board"), t, r);
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("restart").addEventListener("click", () => start(state.object.startPosition));
  $("position-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const p = $("position").value.trim();
    if (!p) return;
    // Asked first, so a position the server refuses leaves the game, its
    // undo and the text typed as they were, with the reason beside them.
    let answer;
    try {
      answer = await fetchAnswer(state.current, p);
    } catch (x) {
      showError(`Position ${JSON.stringify(p)}: ${x.message}`);
      $("error").scrollIntoView({ block: "nearest" });
      $("position").focus();
      return;
    }
    await start(p, answer);
  });
  $("copy").addEventListener("click", async () => {
    const p = $("position");
    p.select();
    let done = false;
    try {
      await navigator.clipboard.writeText(p.value);
      done = true;
    } catch {
      done = document.execCommand("copy");
    }
    const said = $("copied");
    said.textContent = done ? "Copied." : "Not copied: the browser refused; the text is selected, copy it with Ctrl+C.";
    clearTimeout(said.timer);
    said.timer = setTimeout(() => { said.textContent = ""; }, 3000);
  });
  $("hints").checked = state.hints;
  $("hints").addEventListener("change", (e) => {
    state.hints = e.target.checked;
    localStorage.setItem("topitop.hints", state.hints ? "on" : "off");
    applyHints();
    if (state.answers[state.at]) show();
  });
  applyHints();
  wireStudy();
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closePicker();
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "u") undo();
    if (e.key === "r") redo();
    if (e.key === "h") $("hints").click();
  });
}

// Links to the tools' pages (Toppo's game against bots).
async function loadTools() {
  const tools = await getJson("/ui/tools").catch(() => []);
  for (const t of tools) {
    const a = document.createElement("a");
    a.href = t.url;
    a.textContent = t.title;
    $("tools").appendChild(a);
  }
}

async function main() {
  wire();
  await loadTools();
  try {
    await loadVariants();
    if (!state.variants.length) {
      throw new Error("this server holds no database: `topitop solve` makes one (the links above need none)");
    }
    const q = new URLSearchParams(location.search);
    const [game, variant] = [q.get("game"), q.get("variant")];
    let wanted = state.variants.findIndex((v) => v.game === game && v.id === variant);
    // A game named without a variant (or with one not served): its first.
    const ofGame = state.variants.findIndex((v) => v.game === game);
    const exact = wanted >= 0;
    if (!exact) wanted = ofGame;
    await chooseVariant(wanted < 0 ? 0 : wanted, exact ? q.get("p") : null);
    // An address naming what is not served says so, rather than opening
    // another game without a word.
    if (game !== null && !exact && (variant !== null || ofGame < 0)) {
      const shown = state.variants[wanted < 0 ? 0 : wanted];
      const what = ofGame < 0 ? `no game ${JSON.stringify(game)}` : `no variant ${JSON.stringify(variant)} of ${game}`;
      showError(`This server has ${what}; showing ${shown.game} ${shown.id} instead.`);
    }
  } catch (e) {
    $("status").textContent = "";
    showError(e.message);
  }
}

main();
