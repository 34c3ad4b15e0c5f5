// The game studied, as lichess's analysis board keeps it: a tree of moves
// from a start position. A move played where another was played before
// starts a variation beside it; the first child of each node is its main
// line. The line shown runs from the start through the node shown and on
// along the moves last taken (`next`), which Redo follows. The address
// holds that line, so a reload, a bookmark or a shared link brings the
// game back, and the browser's Back and Forward step through what was
// shown. The record as text holds the whole tree, and the tab keeps it
// over a reload.
"use strict";

// node: {id, position, move (played into it; none into the start),
// parent, children, next (the child last taken), answer (its position
// object, once asked for)}.
let nodeCount = 0;

function newNode(position, move, parent) {
  const n = { id: ++nodeCount, position, move, parent, children: [], next: null, answer: null };
  state.nodes.set(n.id, n);
  return n;
}

function depth(n) {
  let d = 0;
  for (let p = n.parent; p; p = p.parent) d += 1;
  return d;
}

// A name for a new tree, unlike any of an earlier page load, whose
// history entries the browser keeps.
function newTreeId() {
  return `${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}`;
}

// A new tree from `position`, shown at its start.
function plant(position, answer) {
  state.nodes = new Map();
  state.root = newNode(position, null, null);
  state.root.answer = answer || null;
  state.node = state.root;
  setLine();
}

// The line shown: the start down to the node shown, then on along the
// moves last taken there (the main line where none was).
function setLine() {
  const line = [];
  for (let n = state.node; n; n = n.parent) line.unshift(n);
  state.at = line.length - 1;
  let n = state.node;
  while (n.children.length) {
    n = n.children.includes(n.next) ? n.next : n.children[0];
    line.push(n);
  }
  state.line = line;
}

// Shows `node`; each node above it remembers the way down, so Redo after
// Undo comes back the way it went.
function goTo(node, how = "push") {
  for (let n = node; n.parent; n = n.parent) n.parent.next = n;
  state.node = node;
  setLine();
  state.addressHow = how;
  return show();
}

// The child of `parent` reached by `move` (to `position`), made when it
// is new: a variation beside those played before.
function childBy(parent, move, position) {
  let child = parent.children.find((c) => c.move === move);
  if (!child) {
    child = newNode(position, move, parent);
    parent.children.push(child);
  }
  return child;
}

// Whether `n` lies off the main line: some node above it (or itself) is
// not its parent's first child.
function inVariation(n) {
  for (; n.parent; n = n.parent) if (n.parent.children[0] !== n) return true;
  return false;
}

// Makes the variation holding the node shown one step more important: the
// nearest branch above it moves to the front of its siblings.
function promote() {
  for (let n = state.node; n.parent; n = n.parent) {
    const kids = n.parent.children;
    const i = kids.indexOf(n);
    if (i > 0) {
      kids.splice(i, 1);
      kids.unshift(n);
      return goTo(state.node, "replace");
    }
  }
}

// Deletes the node shown and every move after it; the position before it
// is shown.
function deleteFromHere() {
  const n = state.node;
  if (!n.parent) return;
  const kids = n.parent.children;
  kids.splice(kids.indexOf(n), 1);
  if (n.parent.next === n) n.parent.next = null;
  const gone = [n];
  while (gone.length) {
    const g = gone.pop();
    state.nodes.delete(g.id);
    gone.push(...g.children);
  }
  return goTo(n.parent);
}

// ---- the address ---------------------------------------------------------

// Move names go into the address one after another, separated by spaces
// (a `+` in the address); no game's move names hold one.
function keepAddress() {
  const v = state.current;
  const url = new URL(location.href);
  for (const k of ["p", "start", "moves", "ply"]) url.searchParams.delete(k);
  url.searchParams.set("game", v.game);
  url.searchParams.set("variant", v.id);
  if (state.root.position !== state.object.startPosition) url.searchParams.set("start", state.root.position);
  const moves = state.line.slice(1).map((n) => n.move);
  if (moves.length) url.searchParams.set("moves", moves.join(" "));
  if (state.at < moves.length) url.searchParams.set("ply", String(state.at));
  keepStudy();
  const how = state.addressHow;
  state.addressHow = "replace";
  if (url.href === location.href) return;
  const entry = { node: state.node.id, tree: state.treeId };
  if (how === "push") history.pushState(entry, "", url);
  else history.replaceState(entry, "", url);
}

// What the address asks for: {game, variant, start, moves, ply}. An old
// address's `p` (the position shown) is a start.
function readAddress() {
  const q = new URLSearchParams(location.search);
  const moves = (q.get("moves") || "").split(" ").filter(Boolean);
  const ply = q.has("ply") ? Number(q.get("ply")) : moves.length;
  return {
    game: q.get("game"),
    variant: q.get("variant"),
    start: q.get("start") || q.get("p"),
    moves,
    ply: Number.isInteger(ply) && ply >= 0 && ply <= moves.length ? ply : moves.length,
  };
}

// The browser's Back or Forward: a node of this tree is shown again; an
// entry from before a reload or of another game is read from its address.
async function onPopState(e) {
  const entry = e.state;
  if (entry && entry.tree === state.treeId && state.nodes.has(entry.node)) {
    await goTo(state.nodes.get(entry.node), "none");
    return;
  }
  await openAddress();
}

// ---- the record as text --------------------------------------------------

const RECORD_HEAD = "topitop game record";

// The whole tree as text: the main line a numbered move a line, and each
// variation after the move it replaces, indented two spaces deeper, with
// the number of the ply it plays (docs/serve.md).
function recordText() {
  const v = state.current;
  const lines = [RECORD_HEAD, `game: ${v.game}`, `variant: ${v.id}`, `start: ${state.root.position}`, "moves:"];
  const write = (first, indent) => {
    for (let n = first; n; n = n.children[0]) {
      lines.push(`${"  ".repeat(indent)}${depth(n)}. ${n.move}`);
      const kids = n.parent.children;
      if (kids[0] === n) for (const alt of kids.slice(1)) write(alt, indent + 1);
    }
  };
  if (state.root.children.length) write(state.root.children[0], 0);
  return lines.join("\n") + "\n";
}

// The record `text` read into {game, variant, start, tree}, where `tree`
// is the start's node of move names: {move, line, ply, children}; or an
// Error naming the line at fault.
function parseRecord(text) {
  const out = {};
  const root = { move: null, ply: 0, children: [], parent: null };
  // The last move read at each indentation.
  const last = [root];
  let inMoves = false;
  let indentBefore = 0;
  const lines = text.replace(/\r/g, "").split("\n");
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k];
    const line = raw.trim();
    const at = `line ${k + 1}`;
    if (!line || line.startsWith("#") || line === RECORD_HEAD) continue;
    const numbered = /^(\d+)\.\s+(\S+)$/.exec(line);
    const field = /^(game|variant|start|moves):\s*(.*)$/.exec(line);
    if (inMoves && numbered) {
      const spaces = raw.length - raw.trimStart().length;
      if (spaces % 2) throw new Error(`${at}: indented by ${spaces} spaces; a variation is indented two spaces deeper than its line`);
      const indent = spaces / 2;
      if (indent > indentBefore + 1 || (indent > 0 && !last[indent - 1])) {
        throw new Error(`${at}: indented deeper than a variation of the line above it`);
      }
      const ply = Number(numbered[1]);
      let parent;
      if (indent === 0 || (indent <= indentBefore && ply === last[indent].ply + 1)) {
        parent = last[indent];
        if (ply !== parent.ply + 1) {
          throw new Error(`${at}: move ${ply} follows move ${parent.ply}; number the moves 1, 2, 3…`);
        }
      } else {
        // A new variation: another move for ply `ply` of the line it is
        // indented under.
        parent = last[indent - 1];
        while (parent && parent.ply >= ply) parent = parent.parent;
        if (!parent || parent.ply !== ply - 1) {
          throw new Error(`${at}: a variation at ply ${ply}, but its line has no ply ${ply}; a variation follows the move it replaces`);
        }
      }
      const node = { move: numbered[2], line: k + 1, ply, children: [], parent };
      parent.children.push(node);
      last[indent] = node;
      last.length = indent + 1;
      indentBefore = indent;
    } else if (field) {
      if (field[1] === "moves") inMoves = true;
      else out[field[1]] = field[2];
    } else {
      throw new Error(`${at}: ${JSON.stringify(line)} is none of game:, variant:, start:, moves: or a numbered move`);
    }
  }
  if (!out.game || !out.variant) throw new Error("a record names its game and variant (lines game: and variant:)");
  out.tree = root;
  return out;
}

// The moves of `names` (a tree of {move, line?, children}) played from
// the node `root` of variant `v`, each checked against the moves the
// server lists there, in the order they are written. A move the position
// does not have throws an Error naming where it was written (`where`);
// the nodes read before it stay. `quiet`: no progress in the status line.
async function grow(v, root, names, where, quiet = false) {
  const total = countMoves(names);
  let done = 0;
  const walk = async (node, name) => {
    for (const kid of name.children) {
      done += 1;
      if (!quiet) $("status").textContent = `Reading the moves: ${done} of ${total}…`;
      if (!node.answer) node.answer = withTurn(await fetchAnswer(v, node.position), depth(node));
      const m = node.answer.moves.find((x) => x.move === kid.move);
      if (!m) {
        const listed = node.answer.moves.map((x) => x.move).join(", ") || "none: the game is over";
        throw new Error(`${where(kid)}: ${JSON.stringify(kid.move)} is not a move at ply ${depth(node)} (its moves: ${listed})`);
      }
      await walk(childBy(node, m.move, m.position), kid);
    }
  };
  await walk(root, names);
}

function countMoves(name) {
  return name.children.reduce((s, c) => s + 1 + countMoves(c), 0);
}

// Loads the record in the text box into a new tree. The game shown stays
// as it was when the record is refused, with the reason.
async function importRecord() {
  let rec;
  try {
    rec = parseRecord($("record-text").value);
  } catch (e) {
    showError(`Record: ${e.message}`);
    return;
  }
  const i = state.variants.findIndex((x) => x.game === rec.game && x.id === rec.variant);
  if (i < 0) {
    showError(`Record: this server holds no ${rec.game} ${rec.variant}; the variant list shows what it holds`);
    return;
  }
  const v = state.variants[i];
  const kept = { nodes: state.nodes, root: state.root, node: state.node };
  try {
    const start = rec.start || (await getJson(`${variantPath(v)}/`)).startPosition;
    // Grown apart, the game shown untouched until the record is read.
    state.nodes = new Map();
    const root = newNode(start, null, null);
    const nodes = state.nodes;
    await grow(v, root, rec.tree, (n) => `line ${n.line}`);
    if (state.current !== v) await chooseVariant(i, start, "replace");
    state.treeId = newTreeId();
    Object.assign(state, { nodes, root, node: root });
    setLine();
  } catch (e) {
    Object.assign(state, kept);
    showError(`Record: ${e.message}`);
    if (state.node.answer) $("status").textContent = describe(state.node.answer);
    return;
  }
  // The end of its main line.
  let end = state.root;
  while (end.children.length) end = end.children[0];
  await goTo(end);
}

// Opens what the address names: its game and variant, its start, and its
// moves played on from there; a move that is not one stops the game
// before it, and says so.
async function openAddress() {
  const a = readAddress();
  let wanted = state.variants.findIndex((x) => x.game === a.game && x.id === a.variant);
  const ofGame = state.variants.findIndex((x) => x.game === a.game);
  const exact = wanted >= 0;
  if (!exact) wanted = ofGame < 0 ? 0 : ofGame;
  const v = state.variants[wanted];
  // Read before the new game's first answer keeps its own.
  const kept = keptStudy();
  await chooseVariant(wanted, exact ? a.start : null, "replace");
  // An address naming what is not served says so, rather than opening
  // another game without a word.
  if (a.game !== null && !exact && (a.variant !== null || ofGame < 0)) {
    const what = ofGame < 0 ? `no game ${JSON.stringify(a.game)}` : `no variant ${JSON.stringify(a.variant)} of ${a.game}`;
    const games = [...new Set(state.variants.map((x) => x.game))].join(", ");
    showError(`This server has ${what}; showing ${v.game} ${v.id} instead. It serves: ${games}.`);
    return;
  }
  // A start the server refused: the variant's start is shown with the
  // reason, and the moves, which were played from that start, are not.
  if (!exact || (a.start && state.root.position !== a.start)) return;
  // A reload of this tab: the variations studied come back too.
  const restored = await restoreStudy(v, kept);
  if (!a.moves.length) {
    if (restored) await goTo(state.node, "replace");
    return;
  }
  const names = { children: [] };
  let tip = names;
  a.moves.forEach((move, k) => {
    const kid = { move, index: k + 1, children: [] };
    tip.children.push(kid);
    tip = kid;
  });
  let why = "";
  try {
    await grow(v, state.root, names, (n) => `The address's move ${n.index}`);
  } catch (e) {
    why = `${e.message}; the game is shown up to the move before it.`;
  }
  // The address's line, whatever else the tree holds: Redo follows it.
  const line = [state.root];
  for (const move of a.moves) {
    const next = line[line.length - 1].children.find((c) => c.move === move);
    if (!next) break;
    line[line.length - 1].next = next;
    line.push(next);
  }
  await goTo(line[Math.min(a.ply, line.length - 1)], "replace");
  if (why) showError(why);
}

// ---- the study kept over a reload -----------------------------------------

const STUDY_KEY = "topitop.study";

// The tree of the tab's game, kept for a reload (the address holds only
// the line shown).
function keepStudy() {
  try {
    const v = state.current;
    sessionStorage.setItem(STUDY_KEY, JSON.stringify({ game: v.game, variant: v.id, start: state.root.position, record: recordText() }));
  } catch {
    // A browser that keeps nothing: the address still holds the line.
  }
}

// What this tab kept, or null.
function keptStudy() {
  try {
    return JSON.parse(sessionStorage.getItem(STUDY_KEY));
  } catch {
    return null;
  }
}

// Grows `kept`, the tree this tab kept before a reload, when it is of the
// game shown and its start; true when it brought moves back.
async function restoreStudy(v, kept) {
  if (!kept || kept.game !== v.game || kept.variant !== v.id || kept.start !== state.root.position) return false;
  try {
    await grow(v, state.root, parseRecord(kept.record).tree, (n) => `line ${n.line}`, true);
  } catch {
    // Kept by another version of the page, or of the database: what was
    // read stays, the rest is dropped.
  }
  return state.root.children.length > 0;
}
