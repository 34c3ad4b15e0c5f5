// The page's study tools, beyond what GamesmanUni offers: the moves played,
// each marked with what it cost; the game's record as text, to keep and to
// load again; and perfect play from the position shown, stepped through on
// the board. They work on the page's state (page.js) and ask the server
// only through its `fetchAnswer`.
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
  const r = m.remoteness + 1;
  const best = parent.remoteness;
  if (now === "win" && r > best) return { kind: "slower", text: `a slower win: in ${r}, not ${best}` };
  if (now === "tie" && r > best) return { kind: "slower", text: `a slower tie: in ${r}, not ${best}` };
  if (now === "lose" && r < best) return { kind: "slower", text: `a quicker loss: in ${r}, not ${best}` };
  return { kind: "best", text: "a best move" };
}

function article(value) {
  return { win: "a win", tie: "a tie", draw: "a draw", lose: "a loss" }[value] || value;
}

// The move played into ply `i` (i ≥ 1) as its parent's answer lists it.
function movePlayed(i) {
  const parent = state.answers[i - 1];
  if (!parent) return null;
  return parent.moves.find((m) => m.move === state.moves[i]) || null;
}

// ---- the moves played --------------------------------------------------------

function drawRecord() {
  const list = $("record");
  list.replaceChildren();
  const names = state.board.players || ["first player", "second player"];
  for (let i = 0; i < state.history.length; i++) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.ply = String(i);
    if (i === state.at) b.setAttribute("aria-current", "step");
    const parent = state.answers[i - 1];
    const m = i > 0 ? movePlayed(i) : null;
    if (i === 0) {
      b.textContent = "Start";
    } else {
      const mover = parent ? moverIndex(parent) : null;
      const who = mover === null ? "" : `${names[mover]} `;
      b.append(`${i}. ${who}`);
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = state.moves[i];
      b.appendChild(name);
    }
    if (m && parent) {
      const c = cost(parent, m);
      const mark = document.createElement("span");
      mark.className = `mark cost-${c.kind}`;
      const n = parent.moves.length;
      const place = `${ordinal(siblingRank(parent, m))} of ${n}`;
      mark.textContent = c.kind === "best" ? ` best, ${place}` : ` ${place}: ${c.text}`;
      b.dataset.cost = c.kind;
      b.appendChild(mark);
    }
    b.addEventListener("click", () => jumpTo(i));
    li.appendChild(b);
    list.appendChild(li);
  }
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
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}

function jumpTo(i) {
  if (i < 0 || i >= state.history.length || i === state.at) return;
  state.at = i;
  show();
}

// ---- the record as text ------------------------------------------------------

const RECORD_HEAD = "topitop game record";

function recordText() {
  const v = state.current;
  const lines = [RECORD_HEAD, `game: ${v.game}`, `variant: ${v.id}`, `start: ${state.history[0]}`, "moves:"];
  for (let i = 1; i < state.history.length; i++) lines.push(`${i}. ${state.moves[i]}`);
  return lines.join("\n") + "\n";
}

// The record `text` read into {game, variant, start, moves}, or an Error
// naming the line at fault.
function parseRecord(text) {
  const out = { moves: [] };
  let inMoves = false;
  const lines = text.replace(/\r/g, "").split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (!line || line.startsWith("#") || line === RECORD_HEAD) continue;
    const numbered = /^(\d+)\.\s+(.+)$/.exec(line);
    const field = /^(game|variant|start|moves):\s*(.*)$/.exec(line);
    if (inMoves && numbered) {
      if (+numbered[1] !== out.moves.length + 1) {
        throw new Error(`line ${n + 1}: move ${numbered[1]} follows move ${out.moves.length}; number the moves 1, 2, 3…`);
      }
      out.moves.push({ move: numbered[2], line: n + 1 });
    } else if (field) {
      if (field[1] === "moves") inMoves = true;
      else out[field[1]] = field[2];
    } else {
      throw new Error(`line ${n + 1}: ${JSON.stringify(line)} is none of game:, variant:, start:, moves: or a numbered move`);
    }
  }
  if (!out.game || !out.variant) throw new Error("a record names its game and variant (lines game: and variant:)");
  return out;
}

// Loads the record in the text box: its variant, its start, then each move
// checked against the moves the server lists. A bad move stops the load at
// the ply before it, with the reason.
async function importRecord() {
  let rec;
  try {
    rec = parseRecord($("record-text").value);
  } catch (e) {
    showError(`Record: ${e.message}`);
    return;
  }
  const i = state.variants.findIndex((v) => v.game === rec.game && v.id === rec.variant);
  if (i < 0) {
    showError(`Record: this server holds no ${rec.game} ${rec.variant}; the variant list shows what it holds`);
    return;
  }
  // Checked before the game shown is replaced, like a typed position.
  const v = state.variants[i];
  const first = rec.start || null;
  let answers = [];
  const history = [];
  const moves = [null];
  try {
    const start = first ?? (await getJson(`${variantPath(v)}/`)).startPosition;
    history.push(start);
    for (let k = 0; k <= rec.moves.length; k++) {
      $("status").textContent = `Reading the record: ply ${k} of ${rec.moves.length}…`;
      const a = await fetchAnswer(v, history[k]);
      answers.push(a);
      if (k === rec.moves.length) break;
      const want = rec.moves[k];
      const m = a.moves.find((x) => x.move === want.move);
      if (!m) {
        const listed = a.moves.map((x) => x.move).join(", ") || "none: the game is over";
        throw new Error(`line ${want.line}: ${JSON.stringify(want.move)} is not a move at ply ${k} (its moves: ${listed})`);
      }
      history.push(m.position);
      moves.push(m.move);
    }
  } catch (e) {
    showError(`Record: ${e.message}`);
    if (state.answers[state.at]) $("status").textContent = describe(state.answers[state.at]);
    return;
  }
  if (state.current !== v) await chooseVariant(i, history[0]);
  state.history = history;
  state.moves = moves;
  state.answers = answers;
  state.at = history.length - 1;
  await show();
}

// ---- perfect play ------------------------------------------------------------

// The longest line worked out: past it a game is not going to end.
const LINE_LIMIT = 400;

// Both sides' best play from the position shown to the end, put in the
// game's future, so Redo steps through it on the board.
async function perfectPlay() {
  const ticket = state.request;
  const note = $("study-note");
  const line = [state.history[state.at]];
  const names = [null];
  const answers = [await answerAt(state.at)];
  const seen = new Map([[line[0], 0]]);
  let ending = "";
  for (;;) {
    if (ticket !== state.request) return;
    const a = answers[answers.length - 1];
    if (a.estimated) {
      note.textContent = "Perfect play needs a solved variant: this board is answered by estimates.";
      return;
    }
    if (!a.moves.length) {
      ending = `to the end: ${describe(a)}`;
      break;
    }
    if (line.length > LINE_LIMIT) {
      ending = `for ${LINE_LIMIT} moves, and it goes on`;
      break;
    }
    // The first of the best, so that the line is the same each time.
    const m = a.moves.find((x) => siblingRank(a, x) === 1);
    line.push(m.position);
    names.push(m.move);
    if (seen.has(m.position)) {
      // Its answer is already known, at its first place in the line.
      ending = `until it comes back to the position of ply ${state.at + seen.get(m.position)}: ${article(a.positionValue)}, played for ever`;
      break;
    }
    seen.set(m.position, line.length - 1);
    note.textContent = `Working out perfect play: ${line.length - 1} moves so far…`;
    answers.push(withTurn(await fetchAnswer(state.current, m.position), state.at + answers.length));
  }
  // Set by index: the arrays may have holes (answers not yet asked for).
  state.history.length = state.at;
  state.history.push(...line);
  state.moves.length = state.at + 1;
  state.moves.push(...names.slice(1));
  state.answers.length = state.at;
  answers.forEach((a, k) => {
    state.answers[state.at + k] = a;
  });
  note.textContent = `Perfect play from ply ${state.at}, ${line.length - 1} moves ${ending}. ` +
    "Redo (r) steps through it on the board; the plies are listed under Moves played.";
  show();
}

// ---- wiring ------------------------------------------------------------------

function wireStudy() {
  $("perfect").addEventListener("click", () => perfectPlay().catch((e) => showError(e.message)));
  $("export").addEventListener("click", () => {
    $("record-text").value = recordText();
    $("record-text").select();
  });
  $("import").addEventListener("click", () => importRecord());
}
