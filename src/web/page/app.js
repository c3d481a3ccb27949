// The classroom page: one machine per tab (a session on the server), played
// by clicking on the board, trained unattended, its boxes shown and printed.

import { lineChart } from "/charts.js";

const $ = (id) => document.getElementById(id);
const KEY = "menace-session";

let session = sessionStorage.getItem(KEY);
let view = null;
let games = [];
let selected = null;
let polling = false;

function say(text, ok) {
  const m = $("message");
  m.textContent = text || "";
  m.className = ok ? "ok" : "";
}

// A request to the server; a refusal comes back as {error} and is shown, not thrown.
async function api(method, path, body, raw) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = raw ? body : JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

const at = (suffix) => `/api/sessions/${session}${suffix}`;

async function guarded(work) {
  try {
    await work();
  } catch (e) {
    if (e.status === 404 && session) {
      // The session expired: start again with a fresh machine.
      sessionStorage.removeItem(KEY);
      session = null;
      say(`${e.message} A new machine was made.`);
      await start({});
      return;
    }
    say(e.message);
  }
}

async function start(settings) {
  const v = await api("POST", "/api/sessions", settings);
  session = v.session;
  sessionStorage.setItem(KEY, session);
  render(v);
  await refreshExtras();
}

function machineSettings() {
  const custom = $("custom-game").value.trim();
  const seed = $("seed").value.trim();
  const ask = {
    game: custom || $("game").value,
    side: $("side").value || undefined,
    preset: $("preset").value || undefined,
    beads: $("beads").value.trim() || undefined,
    reinforcement: $("reinforcement").value.trim() || undefined,
    empty_box: $("empty-box").value.trim() || undefined,
  };
  if (seed) ask.seed = Number(seed);
  return ask;
}

function fillSides() {
  const spec = $("custom-game").value.trim() || $("game").value;
  const g = games.find((x) => x.spec === spec);
  const side = $("side");
  const keep = side.value;
  side.replaceChildren();
  const players = g ? g.players : ["first", "second"];
  for (const p of players) side.add(new Option(p, p.toLowerCase()));
  if (g) side.value = g.machine_side.toLowerCase();
  if (!g && keep) side.value = keep;
}

// ---- rendering ----

function render(v) {
  view = v;
  selected = null;
  $("machine-title").textContent = v.machine;
  $("game-title").textContent = v.game;
  $("machine-name").textContent = `${v.machine} (${v.machine_side})`;
  $("person-side").textContent = `as ${v.person_side}`;
  $("games-played").textContent = v.games_played;
  $("wins").textContent = v.score.wins;
  $("draws").textContent = v.score.draws;
  $("losses").textContent = v.score.losses;
  const p = v.against_person;
  $("person-score").textContent = `you ${p.losses}, ${v.machine} ${p.wins}, draws ${p.draws}`;
  $("boxes-beads").textContent = `${v.boxes} boxes, ${v.beads} beads`;
  const loss = v.exact && v.exact.perfect ? v.exact.perfect.loss.toFixed(4) : "– (the game is too large)";
  $("exact-loss").textContent = loss;
  $("settings").textContent = `${v.machine}'s settings: ${v.settings}; seed ${v.seed ?? "–"}` +
    (v.trained_against ? `; last trained against ${v.trained_against}` : "");
  $("download").href = at("/state");
  $("labels-pdf").href = at("/labels.pdf");
  $("download").setAttribute("download", `menace-${v.game.replace(/[^a-z0-9]/gi, "-")}.json`);
  $("state-file").textContent = !v.state_file
    ? ""
    : v.state_held_elsewhere
      ? `Not saved: another tab is saving its machine to ${v.state_file}.`
      : `Saved after every game to ${v.state_file}.`;
  if (v.message) say(v.message, true);
  renderBoard(v);
  renderDraw(v.last_draw);
  renderChanges(v.last_changes);
  renderTraining(v.training);
}

function renderBoard(v) {
  const b = v.board;
  $("board").innerHTML = b.svg;
  $("history").textContent = b.history.length ? `Moves: ${b.history.join(" ")}` : "";
  $("choices").replaceChildren();
  const special = $("special");
  special.replaceChildren();
  if (v.training.running) {
    $("status").textContent = `${v.machine} is training…`;
  } else if (b.over) {
    $("status").textContent = b.result ? `${b.result} Press New game to play again.` : "Press New game.";
  } else {
    $("status").textContent = `Your move (${b.to_move}).`;
  }
  for (const m of b.moves) {
    if (m.from === null && m.to === null) {
      const button = document.createElement("button");
      button.textContent = m.name;
      button.dataset.move = m.name;
      button.addEventListener("click", () => play(m.name));
      special.appendChild(button);
    }
  }
  highlight();
}

function cellElement(i) {
  return $("board").querySelector(`[data-cell="${i}"]`);
}

// Mark the cells a click can use: pieces that can move, or, with one chosen, its targets.
function highlight() {
  for (const c of $("board").querySelectorAll(".cell")) c.classList.remove("movable", "selected", "target");
  if (!view || view.training.running) return;
  for (const m of view.board.moves) {
    if (selected !== null) {
      if (m.from === selected && m.to !== null) cellElement(m.to)?.classList.add("target");
    } else if (m.from !== null) {
      cellElement(m.from)?.classList.add("movable");
    } else if (m.to !== null) {
      cellElement(m.to)?.classList.add("target");
    }
  }
  if (selected !== null) cellElement(selected)?.classList.add("selected");
}

function clickCell(i) {
  if (busy || !view || view.board.over || view.training.running) return;
  const moves = view.board.moves;
  $("choices").replaceChildren();
  const candidates = selected !== null
    ? moves.filter((m) => m.from === selected && m.to === i)
    : moves.filter((m) => m.from === null && m.to === i);
  if (candidates.length === 1) return play(candidates[0].name);
  if (candidates.length > 1) {
    // Several moves join the same cells (a promotion): the person chooses.
    for (const m of candidates) {
      const button = document.createElement("button");
      button.textContent = m.name;
      button.dataset.move = m.name;
      button.addEventListener("click", () => play(m.name));
      $("choices").appendChild(button);
    }
    return;
  }
  selected = moves.some((m) => m.from === i) && selected !== i ? i : null;
  highlight();
}

function legend(beads) {
  const ul = document.createElement("ul");
  ul.className = "legend";
  for (const b of beads) {
    const li = document.createElement("li");
    if (b.drawn) li.className = "drawn";
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = b.css;
    li.append(sw, `${b.colour}: ${b.move}, ${b.beads} bead${b.beads === 1 ? "" : "s"}${b.drawn ? "  ← drawn" : ""}`);
    ul.appendChild(li);
  }
  return ul;
}

function renderDraw(d) {
  const host = $("drawn");
  if (!d) {
    host.replaceChildren();
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = "After the machine moves, the box it drew a bead from is shown here: its position, an arrow for each bead colour with its beads, the bead drawn marked.";
    host.appendChild(p);
    return;
  }
  host.replaceChildren();
  const title = document.createElement("p");
  if (d.box === null) {
    title.textContent = `${d.note} It played ${d.move}.`;
    host.appendChild(title);
    return;
  }
  title.innerHTML = "";
  title.append(`${view.machine} drew a bead from box ${d.box} and played `);
  const strong = document.createElement("strong");
  strong.textContent = d.move;
  title.append(strong, ".");
  title.id = "drawn-title";
  const picture = document.createElement("div");
  picture.className = "box-picture";
  picture.innerHTML = d.svg;
  host.append(title, picture, legend(d.beads));
  if (d.mirrored) {
    const note = document.createElement("p");
    note.className = "small";
    note.textContent = `The box holds the mirror image (${d.position}); it is drawn here as on the board.`;
    host.appendChild(note);
  }
}

function renderChanges(changes) {
  const host = $("changes");
  host.replaceChildren();
  if (!view.board.over || !view.board.result) return;
  const h = document.createElement("p");
  h.id = "changes-title";
  h.textContent = changes.length
    ? `After the game, ${view.machine}'s beads changed:`
    : `After the game, ${view.machine}'s beads are unchanged.`;
  host.appendChild(h);
  for (const c of changes) {
    const div = document.createElement("div");
    div.className = "change";
    div.innerHTML = c.svg;
    const delta = c.after - c.before;
    const line = document.createElement("div");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = c.css;
    const d = document.createElement("span");
    d.className = `delta ${delta < 0 ? "down" : "up"}`;
    d.textContent = `${delta > 0 ? "+" : ""}${delta}`;
    line.append(sw, `box ${c.box}, ${c.move}: ${c.before} → ${c.after} `, d);
    div.appendChild(line);
    host.appendChild(div);
  }
}

function renderTraining(t) {
  $("train").disabled = t.running;
  $("stop").disabled = !t.running;
  $("progress").max = Math.max(t.total, 1);
  $("progress").value = t.done;
  $("progress-text").textContent = t.total
    ? `${t.done} of ${t.total} games against ${t.opponent}${t.running ? "…" : " done"}`
    : "";
}

function renderCurves(c) {
  const pts = c.points;
  const series = (key) => pts.filter((p) => key in p).map((p) => [p.game, p[key]]);
  lineChart($("chart-score"), {
    title: "Cumulative score",
    xLabel: "games played",
    yLabel: "score",
    series: [
      { name: "+3 win, +1 draw, −1 loss", colour: "#1f77b4", points: series("michie_score") },
      { name: "wins − losses", colour: "#d62728", points: series("wins_minus_losses") },
    ],
  });
  lineChart($("chart-rates"), {
    title: `Wins, draws, losses over the last ${c.window} games`,
    xLabel: "games played",
    yLabel: "share of games",
    yMin: 0,
    yMax: 1,
    series: [
      { name: "win", colour: "#2ca02c", points: series("win_rate") },
      { name: "draw", colour: "#7f7f7f", points: series("draw_rate") },
      { name: "loss", colour: "#d62728", points: series("loss_rate") },
    ],
  });
  lineChart($("chart-exact"), {
    title: "Exact chance of losing to perfect play",
    xLabel: "games played",
    yLabel: "probability",
    yMin: 0,
    yMax: 1,
    series: [{ name: "loss against perfect", colour: "#9467bd", points: series("exact_perfect_loss") }],
  });
}

async function refreshBoxes() {
  const b = await api("GET", at("/boxes"));
  const host = $("boxes-list");
  host.replaceChildren();
  $("boxes-summary").textContent = `${b.machine} plays ${b.side} in ${b.game}: ${b.total} boxes` +
    (b.boxes.length < b.total ? ` (the first ${b.boxes.length} shown)` : "") + ".";
  const groups = new Map();
  for (const box of b.boxes) {
    if (!groups.has(box.own_move)) groups.set(box.own_move, []);
    groups.get(box.own_move).push(box);
  }
  for (const [move, list] of groups) {
    const group = document.createElement("div");
    group.className = "move-group";
    const h = document.createElement("h3");
    h.textContent = `${b.machine}'s move ${move}: ${list.length} box${list.length === 1 ? "" : "es"}`;
    group.appendChild(h);
    for (const box of list) {
      const card = document.createElement("div");
      card.className = box.changed ? "box-card changed" : "box-card";
      card.dataset.box = box.box;
      const title = document.createElement("div");
      title.className = "title";
      title.textContent = `Box ${box.box}`;
      const pos = document.createElement("div");
      pos.className = "pos";
      pos.textContent = box.position;
      const pic = document.createElement("div");
      pic.innerHTML = box.svg;
      card.append(title, pos, pic, legend(box.beads));
      group.appendChild(card);
    }
    host.appendChild(group);
  }
}

async function refreshExtras() {
  const c = await api("GET", at("/curves"));
  renderCurves(c);
  await refreshBoxes();
}

// ---- actions ----

// One move at a time: clicks while a move is on its way are ignored.
let busy = false;

function setBusy(on) {
  busy = on;
  document.body.dataset.busy = on ? "yes" : "no";
}

async function play(name) {
  if (busy) return;
  setBusy(true);
  selected = null;
  for (const c of $("board").querySelectorAll(".cell")) c.classList.remove("movable", "selected", "target");
  try {
    await guarded(async () => {
      say("");
      const v = await api("POST", at("/move"), { move: name });
      const ended = v.board.over;
      render(v);
      if (ended) await refreshExtras();
    });
  } finally {
    setBusy(false);
  }
}

async function poll() {
  if (polling) return;
  polling = true;
  try {
    for (;;) {
      const c = await api("GET", at("/curves"));
      renderCurves(c);
      renderTraining({ ...view.training, ...c.training, opponent: view.training.opponent });
      $("games-played").textContent = c.games_played;
      if (!c.training.running) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    render(await api("GET", at("")));
    await refreshExtras();
  } finally {
    polling = false;
  }
}

function wire() {
  $("board").addEventListener("click", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell) clickCell(Number(cell.dataset.cell));
  });
  $("game").addEventListener("change", () => { $("custom-game").value = ""; fillSides(); });
  $("custom-game").addEventListener("change", fillSides);
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(async () => {
      const v = await api("POST", at("/machine"), machineSettings());
      say(`A new machine: ${v.machine} plays ${v.machine_side} in ${v.game}.`, true);
      render(v);
      await refreshExtras();
    });
  });
  $("new-game").addEventListener("click", () => guarded(async () => { say(""); render(await api("POST", at("/game"))); }));
  $("resign").addEventListener("click", () => guarded(async () => {
    render(await api("POST", at("/resign")));
    await refreshExtras();
  }));
  $("opponent").addEventListener("change", () => { $("playouts-label").hidden = $("opponent").value !== "mcts"; });
  $("train-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(async () => {
      let opponent = $("opponent").value;
      if (opponent === "mcts") opponent = `mcts:${$("playouts").value}`;
      const v = await api("POST", at("/train"), { opponent, games: Number($("train-games").value) });
      say("");
      render(v);
      await poll();
    });
  });
  $("stop").addEventListener("click", () => guarded(() => api("POST", at("/stop"))));
  $("reset").addEventListener("click", () => guarded(async () => {
    const v = await api("POST", at("/machine"), { ...machineSettings(), game: view.game, side: view.machine_side.toLowerCase() });
    say(`${v.machine} starts again with fresh boxes.`, true);
    render(v);
    await refreshExtras();
  }));
  $("upload").addEventListener("change", () => guarded(async () => {
    const file = $("upload").files[0];
    if (!file) return;
    const text = await file.text();
    const v = await api("PUT", at("/state"), text, true);
    $("upload").value = "";
    say(`Loaded ${file.name}: ${v.machine} plays ${v.machine_side} in ${v.game}, ${v.games_played} games played.`, true);
    render(v);
    await refreshExtras();
  }));
  $("refresh-boxes").addEventListener("click", () => guarded(refreshBoxes));
  $("print-boxes").addEventListener("click", () => window.print());
}

async function main() {
  wire();
  const catalogue = await api("GET", "/api/games");
  games = catalogue.games;
  for (const g of games) $("game").add(new Option(g.title, g.spec));
  fillSides();
  await guarded(async () => {
    if (session) {
      render(await api("GET", at("")));
      await refreshExtras();
      if (view.training.running) await poll();
    } else {
      await start({});
    }
  });
  const g = games.find((x) => x.spec === view?.game);
  if (g) { $("game").value = g.spec; fillSides(); $("side").value = view.machine_side.toLowerCase(); }
  document.body.dataset.ready = "yes";
}

main().catch((e) => say(e.message));
