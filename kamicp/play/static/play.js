// The play page: draws the level the server describes, sends every move to the server (whose rules
// engine replays them) and shows what it answers. No state is trusted but the server's replies.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const STEP_MS = 700; // pause between the moves of a shown solution

const state = { level: null, moves: [], colors: [], selected: null, busy: false, busyText: null, status: "playing",
  rotated: false, shown: 0, file: null };
const KEYS = "1–9 pick a colour, U undo, R restart, H hint, S solve, O open a file";
const $ = (id) => document.getElementById(id);

function hexOf(key) {
  const entry = state.level.palette.find((p) => p.key === key);
  return entry ? entry.hex : "#ffffff";
}

function nameOf(key) {
  const entry = state.level.palette.find((p) => p.key === key);
  return entry ? entry.name : key;
}

async function api(path, body, extra = {}) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: state.level.token, moves: body, ...extra }),
  };
  const reply = await fetch(path, options);
  const data = await reply.json();
  if (!reply.ok) {
    const error = new Error(data.error || `HTTP ${reply.status}`);
    error.status = reply.status;
    error.retryAfter = reply.headers.get("Retry-After");
    throw error;
  }
  return data;
}

function say(text) {
  $("message").textContent = text;
}

function showError(text) {
  const box = $("error");
  box.textContent = text ? `error: ${text}` : "";
  box.hidden = !text;
}

function setBusy(busy, what) {
  state.busy = busy;
  for (const id of ["undo", "restart", "hint", "solve", "picker"]) $(id).disabled = busy;
  document.body.classList.toggle("busy", busy);
  if (busy && what) say(what);
  // the busy text ("Thinking…") never outlives the work, whether it answered or failed
  if (!busy && state.busyText !== null && $("message").textContent === state.busyText) say("");
  state.busyText = busy && what ? what : null;
}

// --- drawing -----------------------------------------------------------------------------------------
// A landscape board (Kami 1's 16 x 10) on a portrait screen is drawn turned a quarter, so that it fills
// the width of a phone instead of a third of its height; a portrait board (Kami 2's 29 x 10) is turned
// where that draws it much bigger (a phone held sideways), not on a desktop's wide but tall stage.
function wantsRotation() {
  const level = state.level;
  const stage = $("stage");
  const [w, h] = [stage.clientWidth, stage.clientHeight];
  if (level.width > 1.15 * level.height) return h > 1.15 * w;
  const gain = Math.min(w / level.height, h / level.width) / Math.min(w / level.width, h / level.height);
  return level.height > 1.15 * level.width && gain > 1.3;
}

// Text on a node must be readable on the node's colour: dark on light colours, light on dark ones.
function isLight(hex) {
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.3;
}

// One cell's outline as a subpath, always turning the same way: in one path, cells of opposite turns
// would cancel each other's coverage along their shared edge and leave a hairline there.
function outline(points) {
  let area = 0;
  for (let k = 0; k < points.length; k++) {
    const [x1, y1] = points[k];
    const [x2, y2] = points[(k + 1) % points.length];
    area += x1 * y2 - x2 * y1;
  }
  const turned = area < 0 ? [...points].reverse() : points;
  return `M${turned.map((p) => p.join(",")).join("L")}Z`;
}

function draw() {
  const level = state.level;
  state.outline = [];
  const svg = $("board");
  svg.replaceChildren();
  state.rotated = wantsRotation();
  const [w, h] = state.rotated ? [level.height, level.width] : [level.width, level.height];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.dataset.geometry = level.geometry;
  svg.dataset.rotated = String(state.rotated);
  const root = document.createElementNS(SVG, "g");
  if (state.rotated) root.setAttribute("transform", `translate(${level.height} 0) rotate(90)`);
  svg.appendChild(root);
  // The colours of grid cells are drawn as one path per colour, under the cells: inside one path the
  // edges cells share are not anti-aliased, so no seam shows between cells of one colour. The cells
  // themselves (transparent) take the taps and carry the hooks and the hint's outline.
  const layers = document.createElementNS(SVG, "g");
  layers.setAttribute("class", "layers");
  root.appendChild(layers);
  const idAttr = level.geometry === "graph" ? "data-node" : "data-cell";
  for (const shape of level.shapes) {
    let el;
    if (shape.kind === "cell") {
      el = document.createElementNS(SVG, "polygon");
      el.setAttribute("points", shape.points.map((p) => p.join(",")).join(" "));
      state.outline[shape.cell] = outline(shape.points);
    } else if (shape.kind === "node") {
      el = document.createElementNS(SVG, "circle");
      el.setAttribute("cx", shape.cx); el.setAttribute("cy", shape.cy); el.setAttribute("r", shape.r);
    } else if (shape.kind === "edge") {
      el = document.createElementNS(SVG, "line");
      el.setAttribute("x1", shape.a[0]); el.setAttribute("y1", shape.a[1]);
      el.setAttribute("x2", shape.b[0]); el.setAttribute("y2", shape.b[1]);
      el.setAttribute("class", "edge");
      root.appendChild(el);
      continue;
    } else if (shape.kind === "label") {
      el = document.createElementNS(SVG, "text");
      el.setAttribute("x", shape.x); el.setAttribute("y", shape.y);
      el.setAttribute("class", "node-label");
      if (shape.cell !== null && shape.cell !== undefined) el.dataset.labelFor = shape.cell;
      el.textContent = shape.text;
      root.appendChild(el);
      continue;
    } else continue;
    el.setAttribute("class", shape.kind);
    el.setAttribute(idAttr, level.cells[shape.cell]);
    el.dataset.index = shape.cell;
    el.addEventListener("click", () => tap(shape.cell));
    root.appendChild(el);
  }
  paint();
}

function paint() {
  const outlines = new Map(); // colour key -> the outlines of its cells, as one path
  for (const el of $("board").querySelectorAll("[data-index]")) {
    const key = state.colors[Number(el.dataset.index)];
    el.setAttribute("fill", hexOf(key));
    el.dataset.fill = key; // (a cell's colour is state; data-colour is the palette's hook)
    if (el.tagName === "polygon") {
      if (!outlines.has(key)) outlines.set(key, []);
      outlines.get(key).push(state.outline[Number(el.dataset.index)]);
    }
  }
  for (const el of $("board").querySelectorAll("[data-label-for]")) {
    el.classList.toggle("on-light", isLight(hexOf(state.colors[Number(el.dataset.labelFor)])));
  }
  const layers = $("board").querySelector(".layers");
  layers.replaceChildren();
  for (const [key, parts] of outlines) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", parts.join(""));
    path.setAttribute("fill", hexOf(key));
    path.setAttribute("stroke", hexOf(key));
    layers.appendChild(path);
  }
  $("moves").textContent = String(state.moves.length);
  $("par").textContent = state.level.par === null ? "-" : String(state.level.par);
  $("status").textContent = state.status;
  $("status").dataset.status = state.status;
}

function drawPalette() {
  const bar = $("palette");
  bar.replaceChildren();
  for (const entry of state.level.palette) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "swatch";
    button.dataset.colour = entry.key;
    button.setAttribute("aria-label", entry.name);
    button.title = entry.name;
    button.style.background = entry.hex;
    const n = bar.children.length + 1;
    if (n <= 9) button.dataset.key = String(n);
    button.addEventListener("click", () => select(entry.key));
    bar.appendChild(button);
  }
  select(state.level.palette[0].key);
}

function select(key) {
  state.selected = key;
  for (const b of $("palette").querySelectorAll(".swatch")) {
    b.setAttribute("aria-pressed", String(b.dataset.colour === key));
  }
}

function highlight(ids) {
  const wanted = new Set(ids);
  for (const el of $("board").querySelectorAll("[data-index]")) {
    el.classList.toggle("hinted", wanted.has(el.getAttribute("data-cell") ?? el.getAttribute("data-node")));
  }
}

function tapId(tap) {
  return Array.isArray(tap) ? tap.join(",") : String(tap);
}

// --- playing -----------------------------------------------------------------------------------------
async function load() {
  state.level = await api("/api/level");
  start();
}

function start() {
  state.moves = [];
  state.shown = 0;
  state.colors = [...state.level.colors];
  state.status = "playing";
  $("title").textContent = state.level.name || "kamicp";
  document.title = `${state.level.name || "level"} - kamicp play`;
  draw();
  drawPalette();
  const goal = state.level.par === null ? "Paint the board one colour"
    : `Paint the board one colour in ${state.level.par} moves`;
  say(`${goal}: pick a colour below, then tap a region.`);
  showCurrent();
}

// The Levels menu shows the level on the board when it is one of the bundled ones, else its title.
function showCurrent() {
  const picker = $("picker");
  const files = [...picker.options].map((o) => o.value);
  const file = [state.file, `${state.level.name}.json`].find((f) => f && files.includes(f));
  picker.value = file || "";
}

async function play(moves) {
  // "prove": false: a win answers at once; when the level's optimum is not proven yet ("checking"), the
  // page says so while /api/optimum proves it (up to the server's time limit), then gives the answer.
  let reply = await api("/api/move", moves, { prove: false });
  state.moves = moves;
  state.colors = reply.colors;
  state.status = reply.status;
  highlight([]);
  paint();
  if (reply.status === "solved" && reply.checking) {
    say(`${winText(reply)} Checking whether ${reply.moves} move${reply.moves === 1 ? "" : "s"} is optimal…`);
    $("message").dataset.checking = "true";
    try {
      reply = { ...reply, ...(await api("/api/optimum", moves)), checking: false };
    } finally {
      delete $("message").dataset.checking;
    }
    if (state.moves !== moves) return reply; // (undone or restarted meanwhile)
  }
  if (reply.status === "solved") say(winText(reply));
  else if (reply.status === "failed") say(`Out of moves: par is ${state.level.par}. Undo, restart or ask for a hint.`);
  else say("");
  return reply;
}

function winText(reply) {
  const n = reply.moves;
  const par = state.level.par;
  const parText = par === null ? "" : n <= par ? ` Within par (${par}).` : ` Over par (${par}).`;
  let best = "";
  if (reply.checking) best = ""; // (the page says it is checking)
  else if (reply.optimal === true) best = ` Optimal: ${reply.optimum} moves is the proven minimum.`;
  else if (reply.optimal === false) best = ` The proven optimum is ${reply.optimum}.`;
  else best = " Whether it is optimal is unknown: the time limit ran out before a proof.";
  const plural = (k) => `${k} move${k === 1 ? "" : "s"}`;
  // (after Solve the moves are the solver's: the text must not read as if the player won)
  const who = state.shown === 0 ? `Solved in ${plural(n)}!`
    : state.shown === n ? `The solver's solution is shown: ${plural(n)}.`
      : `Your ${plural(n - state.shown)} and the solver's ${plural(state.shown)} are shown: ${plural(n)} in all.`;
  return `${who}${parText}${best}`;
}

async function guarded(what, work) {
  if (state.busy) return;
  showError("");
  setBusy(true, what);
  try {
    await work();
  } catch (e) {
    // One message: a busy server says when to try again; anything else (the server stopping, no answer
    // in time, bad input) is the error line alone, with no busy text beside it.
    const stopping = /stopping/.test(e.message);
    if (e.status === 503 && e.retryAfter && !stopping) {
      say(`The server is busy: try again in ${e.retryAfter} s.`);
    } else {
      say("");
      showError(stopping ? `${e.message}: reload the page once it runs again` : e.message);
    }
  } finally {
    setBusy(false);
  }
}

function tap(cell) {
  if (state.busy || state.status === "solved") return;
  state.shown = 0;
  if (state.colors[cell] === state.selected) {
    say(`That region is already ${nameOf(state.selected)}: pick another colour below.`);
    return;
  }
  guarded(null, () => play([...state.moves, { tap: state.level.cells[cell], colour: state.selected }]));
}

function undo() {
  if (state.moves.length === 0) return;
  state.shown = 0;
  guarded(null, () => play(state.moves.slice(0, -1)));
}

function restart() {
  guarded(null, async () => start());
}

function hint() {
  guarded("Thinking…", async () => {
    const h = await api("/api/hint", state.moves);
    if (!h.move) { say("The board is already solved."); return; }
    highlight(h.region.map(tapId));
    select(h.move.colour);
    const where = tapId(h.move.tap);
    const left = h.remaining === null
      ? `at least ${h.lower_bound} more moves (time ran out before a proof)`
      : `${h.remaining} more move${h.remaining === 1 ? "" : "s"} (proven optimal)`;
    const par = h.par_still_possible === false ? " Par is no longer possible." : "";
    say(`Hint: paint the highlighted region (${where}) ${nameOf(h.move.colour)}: ${left}.${par}`);
  });
}

function solve() {
  guarded("Solving…", async () => {
    const s = await api("/api/solve", state.moves);
    if (s.moves.length === 0) { say("The board is already solved."); return; }
    const proven = s.status === "optimal" ? "the proven optimal" : "the best found (not proven optimal)";
    const par = state.level.par;
    const total = state.moves.length + s.moves.length;
    const over = par !== null && total > par ? ` It ends after ${total} moves: over par (${par}).` : "";
    for (const [k, move] of s.moves.entries()) {
      state.shown = k + 1;
      highlight([tapId(move.tap)]);
      select(move.colour);
      say(`Playing ${proven} solution: move ${k + 1} of ${s.moves.length}.${over}`);
      await new Promise((done) => setTimeout(done, STEP_MS));
      await play([...state.moves, { tap: tapId(move.tap), colour: move.colour }]);
    }
  });
}

async function openFile(file) {
  if (!file) return;
  guarded(`Opening ${file.name}…`, async () => {
    const reply = await fetch(`/api/open?name=${encodeURIComponent(file.name)}`, {
      method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file,
    });
    const data = await reply.json();
    if (!reply.ok) throw new Error(data.error || `HTTP ${reply.status}`);
    state.level = data;
    state.file = null;
    start();
  });
}

async function pick(file) {
  if (!file) return;
  guarded(`Opening ${file}…`, async () => {
    const reply = await fetch("/api/pick", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ file }),
    });
    const data = await reply.json();
    if (!reply.ok) throw new Error(data.error || `HTTP ${reply.status}`);
    state.level = data;
    state.file = file;
    start();
  });
}

async function listLevels() {
  const { levels } = await api("/api/levels");
  const picker = $("picker");
  for (const file of levels) {
    const option = document.createElement("option");
    option.value = file;
    option.textContent = file.replace(/\.json$/, "");
    picker.appendChild(option);
  }
  picker.hidden = levels.length === 0;
  if (state.level) showCurrent();
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("select, input, textarea")) return;
  const key = e.key.toLowerCase();
  const swatch = $("palette").querySelector(`.swatch[data-key="${key}"]`);
  const actions = { u: undo, backspace: undo, r: restart, h: hint, s: solve, o: () => $("open").click() };
  if (swatch) select(swatch.dataset.colour);
  else if (actions[key]) actions[key]();
  else return;
  e.preventDefault();
}

function wire() {
  $("keys").textContent = `Keys: ${KEYS}.`;
  $("picker").addEventListener("change", (e) => pick(e.target.value));
  document.addEventListener("keydown", onKey);
  new ResizeObserver(() => { if (state.level && wantsRotation() !== state.rotated) draw(); }).observe($("stage"));
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", restart);
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", solve);
  $("open").addEventListener("change", (e) => { openFile(e.target.files[0]); e.target.value = ""; });
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    openFile(e.dataTransfer.files[0]);
  });
}

wire();
load().catch((e) => showError(e.message));
listLevels().catch(() => { $("picker").hidden = true; });
