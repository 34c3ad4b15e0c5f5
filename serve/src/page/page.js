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
  // The game studied (tree.js): its nodes by id, the start, the node
  // shown, the line shown through it (nodes, the start first) and the
  // node's index in that line.
  nodes: new Map(),
  root: null,
  node: null,
  line: [],
  at: 0,
  treeId: "", // which tree (of which page load) a browser history entry belongs to
  computerDelayMs: 600, // the computer's pause before it moves
  computerLimit: 200, // the longest game two computers play
  addressHow: "replace", // how the next address is kept: "push", "replace" or "none"
  computer: [false, false], // which players the computer moves
  request: 0, // the newest position request; older answers are dropped
  timer: null,
  hints: localStorage.getItem("topitop.hints") !== "off", // values shown, or play blind
  focusBoard: false, // a move was played from the keyboard: keep the focus on the board
};

// The line shown, as positions, moves played into them and their answers
// (null until asked for).
Object.defineProperties(state, {
  history: { get: () => state.line.map((n) => n.position) },
  moves: { get: () => state.line.map((n) => n.move) },
  answers: { get: () => state.line.map((n) => n.answer) },
});

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

// Shows variant `i` from `position` (its start when none); `how` keeps
// the address as keepAddress does.
async function chooseVariant(i, position, how = "push") {
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
  await start(position || object.startPosition, null, how);
}

// A new game from `position`, whose answer may be known already.
async function start(position, answer, how = "push") {
  state.treeId = newTreeId();
  plant(position, answer);
  await goTo(state.root, how);
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
  const n = state.line[i];
  if (!n.answer) n.answer = withTurn(await fetchAnswer(state.current, n.position), i);
  return n.answer;
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
      const kids = state.node.parent.children;
      kids.splice(kids.indexOf(state.node), 1);
      await goTo(state.node.parent, "replace");
    } else if (state.root.position !== state.object.startPosition) {
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
  const inN = r.remoteness >= 0 ? `, ${r.remoteness} move${r.remoteness === 1 ? "" : "s"} left` : "";
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
  const first = cameBefore();
  return first === null ? "" : ` This position came before, at ply ${first}: the game is going round.`;
}

// The first ply of the line at which the position shown stood, when that
// is earlier than the ply shown.
function cameBefore() {
  const first = state.history.indexOf(state.node.position);
  return first < state.at ? first : null;
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// A move's value for the player making it, counted as everywhere
// (docs/reference.md#one-way-to-count): the moves left after it, which is
// the remoteness of the position it leads to, as `query` and GamesmanUni
// show it. A search's move has an estimated share, never a value.
function moveText(m) {
  if (m.moveValue === "unsolved") return "no value known";
  if (m.estimate !== undefined) return `estimated ${Math.round(100 * m.estimate)}% (not solved)`;
  return `${m.moveValue}${movesLeft(m.remoteness, m.moveValue)}`;
}

// ", N left": the moves left with best play, where a value has an end.
function movesLeft(remoteness, value) {
  if (value === "draw" || remoteness < 0) return "";
  return `, ${remoteness} left`;
}

// A move's name, and its value unless the values are hidden.
function moveLabel(m) {
  return state.hints ? `${m.move}: ${moveText(m)}` : m.move;
}

// Plays `move` at the position shown: on along the line when it is the
// move played there before, else a new variation beside it.
function play(move, fromKeyboard) {
  const r = state.node.answer;
  const m = r && r.moves.find((x) => x.move === move);
  if (!m) return;
  state.focusBoard = Boolean(fromKeyboard);
  goTo(childBy(state.node, m.move, m.position));
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
  // In the move list's order, so that the Tab order gives away no more
  // than the list does.
  const ordered = orderedMoves(r);
  const lines = ordered.filter((m) => !isButton(m));
  const buttons = ordered.filter(isButton);
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
  markLastMove(svg, t, r);
  for (const m of buttons) drawMove(svg, t, m, discs, r.moves);
  choosePickMode(svg, t, r);
}

// The move that led to the position shown, marked as lichess marks the
// last move's squares: a dashed box round each piece the move changed (a
// piece placed; a slide's or step's two ends), found by comparing the two
// positions' AutoGUI strings, and a dashed ring where a piece left. Drawn
// over the pieces, which would hide a mark under them, and under the move
// buttons.
function markLastMove(svg, t, r) {
  const n = state.node;
  const parent = n.parent && n.parent.answer;
  if (!parent || !parent.autoguiPosition || !r.autoguiPosition) return;
  const before = parent.autoguiPosition.replace(/^[^_]*_/, "");
  const after = r.autoguiPosition.replace(/^[^_]*_/, "");
  const centers = state.board.centers || t.centers;
  const g = el("g", { class: "last-move", "data-last-move": n.move }, svg);
  const boxes = [];
  const left = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    if (before[i] === after[i] || !centers[i]) continue;
    const drawn = svg.querySelector(`.pieces > g[data-slot="${i}"]`);
    const img = t.charImages[after[i]];
    if (drawn && img) {
      // The piece's drawing, in board units: its own box, moved and
      // scaled as it is placed.
      const b = drawn.getBBox();
      const [cx, cy] = centers[i];
      boxes.push([cx + b.x * img.scale, cy + b.y * img.scale, b.width * img.scale, b.height * img.scale]);
    } else {
      left.push(centers[i]);
    }
  }
  const size = boxes.length ? Math.max(...boxes.map((b) => Math.max(b[2], b[3]))) : 0.5;
  const line = (w) => ({ fill: "none", stroke: "#e0a800", "stroke-width": w, "stroke-dasharray": `${w * 3} ${w * 1.5}` });
  const w = size * 0.05;
  for (const [x, y, bw, bh] of boxes) {
    const pad = size * 0.08;
    el("rect", { x: x - pad, y: y - pad, width: bw + 2 * pad, height: bh + 2 * pad, rx: pad, ...line(w) }, g);
  }
  for (const [x, y] of left) el("circle", { cx: x, cy: y, r: size * 0.3, ...line(w) }, g);
  el("title", {}, g).textContent = `last move: ${n.move}`;
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
  if (!small) growTargets(svg, scale);
}

// Each button's tap area at least 24 px across (WCAG's minimum target),
// as far as half the way to the nearest other button allows, so that no
// two overlap.
function growTargets(svg, scale) {
  const discs = [...svg.querySelectorAll(".move circle.hit-disc")];
  const at = discs.map((d) => [+d.getAttribute("cx"), +d.getAttribute("cy")]);
  discs.forEach((d, i) => {
    const near = Math.min(...at.filter((_, j) => j !== i).map(([x, y]) => Math.hypot(x - at[i][0], y - at[i][1])), Infinity);
    const visible = +d.nextElementSibling.getAttribute("r");
    d.setAttribute("r", String(Math.max(visible, Math.min(12.5 / scale, near / 2))));
  });
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
  const colour = m.estimate === undefined ? `var(--${m.moveValue})` : `var(--est-${lean(m)})`;
  const g = el("g", {
    class: `move ${valueClass(m)}${isBest({ moves }, m) ? " best" : ""}`,
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
    // Under the ring, a clear disc that takes taps, grown on a small
    // screen to a fingertip where the neighbours leave room (growTargets).
    el("circle", { class: "hit-disc", cx: c[0], cy: c[1], r: s * 0.54, fill: "transparent" }, g);
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
  for (const m of orderedMoves(r)) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = valueClass(m);
    b.dataset.move = m.move;
    b.dataset.value = m.moveValue;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = m.move;
    const value = document.createElement("span");
    value.className = "value-text";
    value.textContent = ` ${moveText(m)}`;
    b.append(name, value);
    const best = isBest(r, m);
    if (best) {
      b.classList.add("best");
      const mark = document.createElement("span");
      mark.className = "best-mark value-text";
      mark.textContent = " ★ best";
      b.appendChild(mark);
    }
    const said = `${m.move}: ${moveText(m)} for the player moving${best ? ", a best move" : ""}`;
    b.setAttribute("aria-label", state.hints ? said : m.move);
    b.addEventListener("click", (e) => play(m.move, e.detail === 0));
    li.appendChild(b);
    list.appendChild(li);
  }
}

// The moves in the order the list and the board's Tab order take them:
// best first, an estimate's by the share it shows; playing blind, by name,
// so that the order gives nothing away.
function orderedMoves(r) {
  if (!state.hints) return [...r.moves].sort((a, b) => byName(a.move, b.move));
  if (r.estimated) return [...r.moves].sort((a, b) => (b.estimate ?? -1) - (a.estimate ?? -1));
  return r.moves;
}

const byName = new Intl.Collator("en", { numeric: true }).compare;

// The best of a position's moves, where that says more than its colour:
// a solved win sooner or loss later than another move of the same value.
// Nothing when every move of the best value is as good.
function isBest(r, m) {
  if (r.estimated || m.estimate !== undefined || siblingRank(r, m) !== 1) return false;
  return r.moves.some((o) => o.moveValue === m.moveValue && siblingRank(r, o) !== 1);
}

// A move's colour class: its value, or for a search's estimate how the
// share leans (an estimate is drawn dashed, never in a value's colour).
function valueClass(m) {
  return m.estimate === undefined ? `v-${m.moveValue}` : `v-estimate lean-${lean(m)}`;
}

// How an estimated move's share leans: good, even or poor.
function lean(m) {
  return m.estimate >= 0.6 ? "good" : m.estimate <= 0.4 ? "poor" : "even";
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
  // Two computers in a drawn game would play for ever: they stop where a
  // position comes again, or at a move limit, and say so.
  if (state.computer.every(Boolean)) {
    const first = cameBefore();
    if (first !== null) {
      $("status").textContent = `${describe(r)} The computers stopped: this position came before, at ply ${first}, so their game would go round for ever.`;
      return;
    }
    if (state.at >= state.computerLimit) {
      $("status").textContent = `${describe(r)} The computers stopped after ${state.computerLimit} moves, the limit of a game between them.`;
      return;
    }
  }
  const choices = r.moves.filter((x) => siblingRank(r, x) === 1);
  const pick = choices[Math.floor(Math.random() * choices.length)];
  state.timer = setTimeout(() => play(pick.move), state.computerDelayMs);
}

// ---- the value history --------------------------------------------------------

// Where an answer sits across the chart, from -1 (the first player wins,
// or expects everything) to 1 (the second does): a solved value by its
// remoteness over `most`, an estimate by the first player's share.
function across(mover, value, remoteness, most, share) {
  if (share !== undefined) {
    const first = mover === 1 ? 1 - share : share;
    return 1 - 2 * first;
  }
  if (mover === null || (value !== "win" && value !== "lose")) return 0;
  const winner = value === "win" ? mover : 1 - mover;
  return (winner === 0 ? -1 : 1) * (Math.max(remoteness, 0) / most);
}

// One row a ply of the line shown, as GamesmanUni's visual value history
// draws it: the position's dot, joined ply to ply, and on the row below it
// a small dot for each move it had, where that move's position sits; the
// move played is ringed. A row is clicked (or tapped: rows are at least
// 24 px high on a phone) to go to its ply.
async function drawHistory() {
  const ticket = state.request;
  const answers = [];
  for (let i = 0; i < state.line.length; i++) {
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
  const rows = Math.max(answers.length + 1, 6);
  const remotes = answers.filter((a) => !a.estimated).flatMap((a) => [a.remoteness, ...a.moves.map((m) => m.remoteness)]);
  const most = Math.max(5, ...remotes);
  const W = 320, row = 22, top = 30, left = 26, H = top + rows * row + 4;
  const mid = left + (W - left) / 2, half = (W - left) / 2 - 10;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.style.maxHeight = `${H * 1.6}px`;
  const names = state.board.players || ["first", "second"];
  el("text", { x: left, y: 11 }, svg).textContent = `${names[0]} wins ←`;
  el("text", { x: W - 4, y: 11, "text-anchor": "end" }, svg).textContent = `→ ${names[1]} wins`;
  // The scale: moves left from the middle line out, or shares.
  const ticks = estimated
    ? [[-1, "100%"], [-0.5, "75%"], [0, "50%"], [0.5, "25%"], [1, "0%"]]
    : [-most, -Math.round(most / 2), 0, Math.round(most / 2), most].map((r) => [r / most, String(Math.abs(r))]);
  for (const [f, label] of ticks) {
    const x = mid + f * half;
    el("line", { class: f === 0 ? "middle" : "tick", x1: x, y1: top - 6, x2: x, y2: H - 4, stroke: f === 0 ? "#c9ced6" : "#eceef2" }, svg);
    el("text", { x, y: top - 9, "text-anchor": "middle", class: "tick" }, svg).textContent = label;
  }
  const rowY = (ply) => top + ply * row + row / 2;
  // The rows take the clicks, under the dots.
  answers.forEach((a, ply) => {
    const r = el("rect", { class: "row", x: 0, y: rowY(ply) - row / 2, width: W, height: row, "data-ply": ply }, svg);
    if (ply === state.at) r.classList.add("current");
    r.addEventListener("click", () => jumpTo(ply));
  });
  const shareOf = (a) => {
    if (!a.estimated) return undefined;
    const done = { win: 1, lose: 0, tie: 0.5 }[a.positionValue];
    return (a.moves.length ? bestShare(a) : done) ?? 0.5;
  };
  const points = answers.map((a, ply) => [mid + half * across(moverIndex(a), a.positionValue, a.remoteness, most, shareOf(a)), rowY(ply)]);
  if (points.length > 1) {
    const d = points.map(([x, y], i) => `${i ? "L" : "M"}${x},${y}`).join("");
    el("path", { d, fill: "none", stroke: "#7a8594", "stroke-width": 1 }, svg);
  }
  // Every move of each ply, where its position sits on the next row. A
  // move's value is the mover's; its position's, the other player's.
  answers.forEach((a, ply) => {
    const mover = moverIndex(a);
    const played = state.line[ply + 1] ? state.line[ply + 1].move : null;
    for (const m of a.moves) {
      const share = m.estimate === undefined ? (a.estimated ? null : undefined) : m.estimate;
      if (share === null) continue;
      const childShare = share === undefined ? undefined : 1 - share;
      const next = mover === null ? null : 1 - mover;
      const value = { win: "lose", lose: "win" }[m.moveValue] || m.moveValue;
      const x = mid + half * across(next, value, m.remoteness, most, childShare);
      const dot = el("circle", {
        class: `alt${m.move === played ? " played" : ""}`,
        cx: x, cy: rowY(ply + 1), r: m.move === played ? 4 : 2.2,
        fill: `var(--${m.moveValue}, #999)`, "data-move": m.move, "data-ply": ply,
      }, svg);
      el("title", {}, dot).textContent = `ply ${ply}: ${m.move}, ${moveText(m)} for the player moving${m.move === played ? " (played)" : ""}`;
    }
  });
  answers.forEach((a, ply) => {
    const [x, y] = points[ply];
    el("text", { x: 4, y: y + 3 }, svg).textContent = String(ply);
    const dot = el("circle", { class: "ply", cx: x, cy: y, r: ply === state.at ? 5 : 3.5, fill: `var(--${a.positionValue}, #999)`, "data-ply": ply }, svg);
    const share = a.estimated && a.moves.length ? bestShare(a) : undefined;
    const what = share === null
      ? "no estimate: the search played no game"
      : share !== undefined
      ? `estimated ${Math.round(100 * share)}% for the player to move`
      : `${a.positionValue}${movesLeft(a.remoteness, a.positionValue)} for the player to move`;
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
  jumpTo(state.at - 1);
}

function redo() {
  jumpTo(state.at + 1);
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
  window.addEventListener("popstate", (e) => onPopState(e).catch((x) => showError(x.message)));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closePicker();
    if (e.target.closest("input, select, textarea")) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    // As lichess: the arrows step through the line, Home and End go to
    // its ends.
    const step = { u: undo, r: redo, ArrowLeft: undo, ArrowRight: redo, Home: () => jumpTo(0), End: () => jumpTo(state.line.length - 1) }[e.key];
    if (step) {
      e.preventDefault();
      step();
    }
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
    await openAddress();
  } catch (e) {
    $("status").textContent = "";
    showError(e.message);
  }
}

main();
