// Toppo against bots: the page draws the game the server keeps and sends
// your actions with the time they happen (milliseconds since the game
// began); the server plays the bots up to each request's time.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const FILL = { red: "#d7263d", yellow: "#f4c20d", white: "#ffffff", green: "#2e9e4f", blue: "#2e6fd6" };
const INK = { red: "#fff", yellow: "#222", white: "#222", green: "#fff", blue: "#fff" };
const state = { id: null, start: 0, data: null, picks: [], seen: 0, timer: null, busy: false, drawn: {} };
// For tests and the curious: the game as the page last had it.
window.toppo = state;

const $ = (id) => document.getElementById(id);
const now = () => Math.max(0, Math.round(performance.now() - state.start));

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// A card as SVG: its colour, its symbol drawn in the middle.
function card(name, scale) {
  const [colour, symbol] = name.split("-");
  const w = 60 * scale, h = 84 * scale;
  const svg = el("svg", { width: w, height: h, viewBox: "0 0 60 84", class: "card", tabindex: "0", role: "button" });
  el("title", {}, svg).textContent = name;
  el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill: FILL[colour] || "#999", stroke: "#555", "stroke-width": 1.5 }, svg);
  const ink = INK[colour] || "#000";
  const g = el("g", { fill: ink, stroke: ink }, svg);
  switch (symbol) {
    case "waves":
      for (const y of [36, 48]) el("path", { d: `M14 ${y} q8 -8 16 0 t16 0`, fill: "none", "stroke-width": 4 }, g);
      break;
    case "circle": el("circle", { cx: 30, cy: 42, r: 13, fill: "none", "stroke-width": 4.5 }, g); break;
    case "square": el("rect", { x: 17, y: 29, width: 26, height: 26, fill: "none", "stroke-width": 4.5 }, g); break;
    case "ih":
      el("rect", { x: 17, y: 28, width: 26, height: 5, stroke: "none" }, g);
      el("rect", { x: 17, y: 51, width: 26, height: 5, stroke: "none" }, g);
      el("rect", { x: 27, y: 33, width: 6, height: 18, stroke: "none" }, g);
      break;
    case "plus":
      el("rect", { x: 27, y: 27, width: 6, height: 30, stroke: "none" }, g);
      el("rect", { x: 15, y: 39, width: 30, height: 6, stroke: "none" }, g);
      break;
  }
  svg.dataset.card = name;
  return svg;
}

async function getJson(url) {
  const r = await fetch(url);
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok || body.error) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

async function newGame(e) {
  if (e) e.preventDefault();
  const bots = Number($("bots").value);
  // As the rules say: the highest running total starts the next game.
  const q = new URLSearchParams({ bots, line: $("line-len").value, speed: $("speed").value, starter: starterFor(bots) });
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed) q.set("seed", seed);
  try {
    const data = await getJson(`/ui/toppo/new?${q}`);
    // Only now is the old game let go: a refused set-up leaves it playing.
    clearInterval(state.timer);
    state.id = data.id;
    state.start = performance.now();
    state.picks = [];
    state.seen = 0;
    state.drawn = {};
    $("log").replaceChildren();
    show(data);
    drawTotals(Number(bots));
    state.timer = setInterval(poll, 100);
    // The keys play the game from here: Space must reveal, not press the
    // New game button again.
    if (document.activeElement && document.activeElement.closest("form")) document.activeElement.blur();
  } catch (err) {
    say(err.message, "penalty");
  }
}

async function poll() {
  if (!state.id || state.busy) return;
  try {
    show(await getJson(`/ui/toppo/state?id=${state.id}&t=${now()}`));
  } catch (err) {
    say(err.message, "penalty");
  }
}

async function act(action, extra) {
  if (!state.id) return;
  state.busy = true;
  const q = new URLSearchParams({ id: state.id, t: now(), action, ...(extra || {}) });
  try {
    show(await getJson(`/ui/toppo/act?${q}`));
  } catch (err) {
    say(err.message, "penalty");
  } finally {
    state.busy = false;
  }
}

function say(text, kind) {
  $("said").textContent = text;
  $("said").className = kind || "";
}

function show(d) {
  const before = state.data;
  state.data = d;
  // Each part is drawn anew only when what it shows has changed: a redraw
  // takes the keyboard's focus and the pointer's target away, so a bot's
  // reveal must not redraw your line between a press and its release.
  const changed = (part, value) => {
    const key = JSON.stringify(value);
    if (state.drawn[part] === key) return false;
    state.drawn[part] = key;
    return true;
  };
  // Picks go when your line changes under them.
  const mine = d.players[0].line.join(",");
  if (!before || before.players[0].line.join(",") !== mine) state.picks = [];
  if (changed("display", d.display)) drawDisplay(d);
  if (changed("line", [d.players[0].line, state.picks])) drawLine(d);
  if (changed("players", [d.players, d.over])) drawPlayers(d);
  showEvents(d);
}

function drawDisplay(d) {
  const display = $("display");
  display.replaceChildren();
  d.display.forEach((name, i) => {
    const c = card(name, 1.2);
    c.dataset.place = i;
    c.setAttribute("aria-label", `display card ${i + 1}: ${name}`);
    c.addEventListener("click", () => onDisplay(i));
    c.addEventListener("keydown", (e) => { if (e.key === "Enter") onDisplay(i); });
    display.appendChild(c);
  });
}

function drawLine(d) {
  const line = $("line");
  line.replaceChildren();
  d.players[0].line.forEach((name, j) => {
    const c = card(name, 1.2);
    c.dataset.line = j;
    const k = state.picks.indexOf(j);
    if (k >= 0) {
      c.classList.add("picked");
      const badge = el("circle", { cx: 50, cy: 12, r: 9, fill: "#1a73e8" }, c);
      badge.setAttribute("aria-hidden", "true");
      el("text", { x: 50, y: 16, "text-anchor": "middle", fill: "#fff", "font-size": 12, "font-family": "sans-serif" }, c).textContent = k + 1;
    }
    c.setAttribute("aria-label", `your card ${j + 1}: ${name}${k >= 0 ? `, picked ${k + 1}` : ""}`);
    c.addEventListener("click", () => onLine(j));
    c.addEventListener("keydown", (e) => { if (e.key === "Enter") onLine(j); });
    line.appendChild(c);
  });
}

function drawPlayers(d) {
  const you = d.players[0];
  $("you-count").textContent = `(${you.cards} cards left: ${you.deck} in your deck)`;
  const bots = $("bots-view");
  bots.replaceChildren();
  d.players.slice(1).forEach((p) => {
    const row = document.createElement("div");
    row.className = "bot";
    const label = document.createElement("strong");
    label.textContent = `${p.name}: ${p.cards} cards`;
    row.appendChild(label);
    const cards = document.createElement("div");
    cards.className = "cards";
    const small = matchMedia("(max-width: 899px)").matches;
    p.line.forEach((name) => cards.appendChild(card(name, small ? 0.5 : 0.7)));
    row.appendChild(cards);
    bots.appendChild(row);
  });
  // A finished game takes no more actions.
  document.querySelectorAll("#actions button").forEach((b) => { b.disabled = d.over; });
}

function showEvents(d) {
  for (const e of d.events.slice(state.seen)) {
    // The same line again (a key pressed when it does nothing) counts up
    // on the line before instead of filling the log.
    const last = $("log").firstElementChild;
    if (last && last.dataset.text === e.text) {
      last.dataset.times = String(Number(last.dataset.times) + 1);
      last.textContent = `${e.text} (×${last.dataset.times})`;
    } else {
      const li = document.createElement("li");
      li.textContent = e.text;
      li.dataset.text = e.text;
      li.dataset.times = "1";
      li.className = e.kind;
      $("log").prepend(li);
    }
    say(e.text, e.kind);
  }
  state.seen = d.events.length;
  if (!d.started && d.starter !== 0 && !d.over) {
    $("said").textContent ||= `Wait for ${d.players[d.starter].name} to start.`;
  }
  if (d.over) {
    clearInterval(state.timer);
    say(verdict(d), "winner");
    addToTotals(d);
  }
}

// The end of a game in words: who won, and what the points are.
function verdict(d) {
  const least = Math.min(...d.points);
  const winners = d.players.filter((_, k) => d.points[k] === least).map((p) => p.name);
  const who = winners.join(" and ");
  const wins = winners.length > 1 ? "win" : winners[0] === "You" ? "win" : "wins";
  const pts = d.points.map((p, k) => `${d.players[k].name} ${p}`).join(", ");
  return `Game over: ${who} ${wins}. Penalty points, one for each card still held in deck and line (none for the player who called toppo): ${pts}.`;
}

// ---- running totals, across games, kept in the browser --------------------

function totalsKey(bots) {
  return `toppo.totals.${bots}`;
}

function readTotals(bots) {
  try {
    return JSON.parse(localStorage.getItem(totalsKey(bots))) || { games: 0, points: [], last: null };
  } catch {
    return { games: 0, points: [], last: null };
  }
}

// Each finished game counted once, by its id.
function addToTotals(d) {
  const bots = d.players.length - 1;
  const t = readTotals(bots);
  if (t.last === d.id) return drawTotals(bots);
  t.games += 1;
  t.last = d.id;
  d.points.forEach((p, k) => { t.points[k] = (t.points[k] || 0) + p; });
  localStorage.setItem(totalsKey(bots), JSON.stringify(t));
  localStorage.setItem("toppo.played", "1");
  drawTotals(bots);
}

// The seat with the highest running total, the person first among equals.
function starterFor(bots) {
  const t = readTotals(bots);
  let best = 0;
  t.points.forEach((p, k) => { if (p > (t.points[best] || 0)) best = k; });
  return best;
}

function drawTotals(bots) {
  const t = readTotals(bots);
  const section = $("totals-section");
  section.hidden = t.games === 0;
  if (!t.games) return;
  const names = ["You", "Bot 1", "Bot 2", "Bot 3"].slice(0, bots + 1);
  const least = Math.min(...names.map((_, k) => t.points[k] || 0));
  const table = $("totals");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["Player", `Points after ${t.games} game${t.games === 1 ? "" : "s"}`]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  names.forEach((n, k) => {
    const row = table.insertRow();
    if ((t.points[k] || 0) === least) row.className = "leader";
    row.insertCell().textContent = n;
    row.insertCell().textContent = String(t.points[k] || 0);
  });
}

function onLine(j) {
  const k = state.picks.indexOf(j);
  if (k >= 0) state.picks.splice(k, 1);
  else state.picks.push(j);
  show(state.data);
}

function onDisplay(i) {
  if (state.picks.length === 1) act("match", { line: state.picks[0], place: i });
  else say("For a match, pick one card of your line first.", "");
}

function shoutTop() {
  const n = state.data ? state.data.line : 0;
  // Some cards picked is no order: say so rather than guess one that
  // could earn a penalty.
  if (state.picks.length && state.picks.length !== n) {
    say(`For Top, pick all ${n} cards of your line in order, or none for the order they lie in.`, "");
    return;
  }
  const order = state.picks.length ? state.picks : [...Array(n).keys()];
  act("top", { order: order.join(",") });
}

function onAction(name) {
  switch (name) {
    case "reveal": return act("reveal");
    case "top": return shoutTop();
    case "renew": return act("renew");
    case "toppo": return act("toppo");
    case "clear": state.picks = []; return show(state.data);
  }
}

// The form offers only what the server accepts: a line length the rules
// refuse with the bots chosen is disabled, its reason its title.
async function loadSetups() {
  let setups;
  try {
    setups = await getJson("/ui/toppo/setups");
  } catch {
    return;
  }
  const apply = () => {
    const bots = Number($("bots").value);
    const options = [...$("line-len").options];
    for (const o of options) {
      const s = setups.find((x) => x.bots === bots && x.line === Number(o.value));
      o.disabled = Boolean(s && !s.ok);
      o.title = s && !s.ok ? s.why : "";
    }
    const chosen = options.find((o) => o.selected);
    if (chosen && chosen.disabled) {
      const first = options.find((o) => !o.disabled);
      if (first) $("line-len").value = first.value;
    }
  };
  $("bots").addEventListener("change", apply);
  apply();
}

document.querySelectorAll("#actions button").forEach((b) => b.addEventListener("click", () => onAction(b.dataset.action)));
$("setup").addEventListener("submit", newGame);
$("speed").addEventListener("input", () => { $("speed-out").textContent = Number($("speed").value).toFixed(1); });
document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("form")) return;
  const key = { " ": "reveal", t: "top", r: "renew", o: "toppo" }[e.key];
  if (key) { e.preventDefault(); onAction(key); }
});
$("reset-totals").addEventListener("click", () => {
  const bots = state.data ? state.data.players.length - 1 : Number($("bots").value);
  localStorage.removeItem(totalsKey(bots));
  drawTotals(bots);
});
// The rules stay open until a first game has been seen through.
if (localStorage.getItem("toppo.played")) $("how").open = false;
$("how").addEventListener("toggle", () => localStorage.setItem("toppo.played", "1"));
drawTotals(Number($("bots").value));
newGame();
loadSetups();
