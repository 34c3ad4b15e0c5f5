// The page's study tools, beyond what GamesmanUni offers: the moves played
// as a tree of variations, each move marked with what it cost; and perfect
// play from the position shown, a variation stepped through on the board.
// They work on the page's state (page.js) and its game tree (tree.js), and
// ask the server only through its `fetchAnswer`.
"use strict";

// The order of values for the player moving: a tie is worth more than a
// draw, which goes on for ever, and a loss least.
const WORTH = { win: 3, tie: 2, draw: 1, lose: 0 };

// A move's key for ranking it among its siblings: larger is better. A win
// is better sooner, a loss later; an estimate is its share.
function moveKey(m) {
  if (m.estimate !== undefined) return [m.estimate, 0];
  const r = Math.max(m.remoteness, 0);
  switch (m.moveValue) {
    case "win": return [WORTH.win, -r];
    case "tie": return [WORTH.tie, -r];
    case "lose": return [WORTH.lose, r];
    default: return [WORTH[m.moveValue] ?? -1, 0];
  }
}

function better(a, b) {
  const [x, y] = [moveKey(a), moveKey(b)];
  return x[0] > y[0] || (x[0] === y[0] && x[1] > y[1]);
}

// `m`'s place among the moves of `parent`: 1 for a best move, moves as
// good sharing a place.
function siblingRank(parent, m) {
  return 1 + parent.moves.filter((o) => better(o, m)).length;
}

function pct(x) {
  return `${Math.round(100 * x)}%`;
}

// What playing `m` at `parent` cost the player moving: nothing (a best
// move), a value thrown away, or moves given up within the same value.
// Returns {kind: "best" | "slower" | "blunder", text}.
function cost(parent, m) {
  if (parent.estimated || m.estimate !== undefined) {
    if (m.estimate === undefined) return { kind: "unknown", text: "not tried by the search: no estimate" };
    const best = bestShare(parent);
    // Within a few points is within the search's own noise.
    if ((m.estimate ?? 0) < best - 0.05) {
      return { kind: "slower", text: `estimated ${pct(m.estimate ?? 0)}, the best ${pct(best)}` };
    }
    return { kind: "best", text: "a best move by the estimates" };
  }
  const was = parent.positionValue;
  const now = m.moveValue;
  if ((WORTH[now] ?? 0) < (WORTH[was] ?? 0)) {
    return { kind: "blunder", text: `threw ${article(was)} away: ${article(now)} now` };
  }
  // Counted as everywhere: the moves left after the move, against those
  // a best move leaves (one fewer than the position's).
  const r = m.remoteness;
  const best = parent.remoteness - 1;
  if (now === "win" && r > best) return { kind: "slower", text: `a slower win: ${r} left, not ${best}` };
  if (now === "tie" && r > best) return { kind: "slower", text: `a slower tie: ${r} left, not ${best}` };
  if (now === "lose" && r < best) return { kind: "slower", text: `a quicker loss: ${r} left, not ${best}` };
  return { kind: "best", text: "a best move" };
}

function article(value) {
  return { win: "a win", tie: "a tie", draw: "a draw", lose: "a loss" }[value] || value;
}

// The move played into `node`, as its parent's answer lists it.
function moveInto(node) {
  const parent = node.parent && node.parent.answer;
  if (!parent) return null;
  return parent.moves.find((m) => m.move === node.move) || null;
}

// The move played into ply `i` (i ≥ 1) of the line shown.
function movePlayed(i) {
  return state.line[i] ? moveInto(state.line[i]) : null;
}

// ---- the moves played --------------------------------------------------------

// The tree of moves as lichess lists it: the main line down, and after a
// move the other moves played in its place, each an indented variation
// with its own line. The line shown is marked, its node current.
function drawRecord() {
  const list = $("record");
  list.replaceChildren();
  const onLine = new Set(state.line);
  list.appendChild(recordRow(state.root, onLine));
  const walk = (first, into) => {
    for (let n = first; n; n = n.children[0]) {
      into.appendChild(recordRow(n, onLine));
      const kids = n.parent.children;
      if (kids[0] !== n) continue;
      for (const alt of kids.slice(1)) {
        const li = document.createElement("li");
        li.className = "variation";
        const ol = document.createElement("ol");
        ol.setAttribute("aria-label", `variation from ply ${depth(alt)}`);
        walk(alt, ol);
        li.appendChild(ol);
        into.appendChild(li);
      }
    }
  };
  if (state.root.children.length) walk(state.root.children[0], list);
  // The ply shown kept in sight inside the list, never by scrolling the
  // page away from the board.
  const current = list.querySelector("[aria-current]");
  if (current) {
    const top = current.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  }
  $("promote").disabled = !inVariation(state.node);
  $("delete").disabled = !state.node.parent;
}

// One move of the tree, a button that shows it.
function recordRow(n, onLine) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  const ply = depth(n);
  b.dataset.ply = String(ply);
  b.dataset.node = String(n.id);
  if (onLine.has(n)) b.classList.add("on-line");
  if (n === state.node) b.setAttribute("aria-current", "step");
  const parent = n.parent && n.parent.answer;
  const m = moveInto(n);
  if (!n.parent) {
    b.textContent = "Start";
  } else {
    const names = state.board.players || ["first player", "second player"];
    const mover = parent ? moverIndex(parent) : null;
    const who = mover === null ? "" : `${names[mover]} `;
    b.append(`${ply}. ${who}`);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = n.move;
    b.appendChild(name);
  }
  if (m && parent) {
    const c = cost(parent, m);
    const mark = document.createElement("span");
    mark.className = `mark cost-${c.kind}`;
    const place = `${ordinal(siblingRank(parent, m))} of ${parent.moves.length}`;
    mark.textContent = c.kind === "best" ? ` best, ${place}` : ` ${place}: ${c.text}`;
    b.dataset.cost = c.kind;
    b.appendChild(mark);
  }
  b.addEventListener("click", () => goTo(n));
  li.appendChild(b);
  return li;
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}

// Shows ply `i` of the line shown.
function jumpTo(i) {
  if (i < 0 || i >= state.line.length || i === state.at) return;
  goTo(state.line[i]);
}

// ---- perfect play ------------------------------------------------------------

// The longest line worked out: past it a game is not going to end.
const LINE_LIMIT = 400;

// Both sides' best play from the position shown to the end, a variation
// from here (or the line already played, where it is the same), so Redo
// steps through it on the board.
async function perfectPlay() {
  const ticket = state.request;
  const note = $("study-note");
  const from = state.node;
  const at = state.at;
  const steps = []; // [move, position, answer]
  let answer = await answerAt(at);
  const seen = new Map([[from.position, 0]]);
  let ending = "";
  for (;;) {
    if (ticket !== state.request) return;
    if (answer.estimated) {
      note.textContent = "Perfect play needs a solved variant: this board is answered by estimates.";
      return;
    }
    if (!answer.moves.length) {
      ending = `to the end: ${describe(answer).replace(/\.$/, "")}`;
      break;
    }
    if (steps.length >= LINE_LIMIT) {
      ending = `for ${LINE_LIMIT} moves, and it goes on`;
      break;
    }
    // The first of the best, so that the line is the same each time.
    const m = answer.moves.find((x) => siblingRank(answer, x) === 1);
    if (seen.has(m.position)) {
      // Its answer is already known, at its first place in the line.
      steps.push([m.move, m.position, null]);
      ending = `until it comes back to the position of ply ${at + seen.get(m.position)}: ${article(answer.positionValue)}, played for ever`;
      break;
    }
    seen.set(m.position, steps.length + 1);
    note.textContent = `Working out perfect play: ${steps.length + 1} moves so far…`;
    const next = withTurn(await fetchAnswer(state.current, m.position), at + steps.length + 1);
    steps.push([m.move, m.position, next]);
    answer = next;
  }
  // Hung on the tree from the node it started at; Redo follows it.
  let n = from;
  for (const [move, position, a] of steps) {
    const child = childBy(n, move, position);
    if (a && !child.answer) child.answer = a;
    n.next = child;
    n = child;
  }
  const variation = inVariation(n) && !inVariation(from) ? " It is a variation beside the line played." : "";
  note.textContent = `Perfect play from ply ${at}, ${steps.length} moves ${ending}.${variation} ` +
    "Redo (r or →) steps through it on the board; the plies are listed under Moves played.";
  await goTo(from, "replace");
}

// ---- wiring ------------------------------------------------------------------

function wireStudy() {
  $("perfect").addEventListener("click", () => perfectPlay().catch((e) => showError(e.message)));
  $("export").addEventListener("click", () => {
    $("record-text").value = recordText();
    $("record-text").select();
  });
  $("import").addEventListener("click", () => importRecord());
  $("promote").addEventListener("click", () => promote());
  $("delete").addEventListener("click", () => deleteFromHere());
}
