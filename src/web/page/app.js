// The classroom page: one machine per tab (a session on the server), played
// by clicking on the board, watched or trained against an opponent, its
// boxes shown a page at a time and printed.

import { lineChart, plain } from "/charts.js";

const $ = (id) => document.getElementById(id);
const KEY = "menace-session";

let session = sessionStorage.getItem(KEY);
let view = null;
let games = [];
let selected = null;
let polling = false;
let lastCurves = null;
let listedBoxes = -1;
// How many box listings were asked for: an answer to an older one than the
// last is dropped (a filter changed while a refresh was on its way).
let boxesAsked = 0;
const boxQuery = { page: 1, own_move: "", find: "", machine: "" };

// Games a second, slowest first; the last is "as fast as possible" (trained on the server).
const SPEEDS = [0.5, 1, 2, 5, 10, 20, 50, Infinity];

function say(text, ok) {
  const m = $("message");
  m.textContent = text || "";
  m.className = ok ? "ok" : "";
}

const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const plural = (n, one, many) => `${plain(n)} ${n === 1 ? one : many}`;

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

// The sides of the game named: a known game's from the list; a spec typed
// in is asked of the server, and a bad one keeps the menu as it was and says why.
async function fillSides() {
  const spec = $("custom-game").value.trim() || $("game").value;
  const side = $("side");
  $("spec-error").textContent = "";
  let g = games.find((x) => x.spec === spec);
  if (!g && spec) {
    try {
      g = await api("GET", `/api/games/${encodeURIComponent(spec)}`);
    } catch (e) {
      $("spec-error").textContent = e.message;
      return;
    }
  }
  if (!g) return;
  side.replaceChildren();
  for (const p of g.players) side.add(new Option(p, p.toLowerCase()));
  side.value = g.machine_side.toLowerCase();
}

// ---- rendering ----

function render(v) {
  view = v;
  selected = null;
  $("machine-title").textContent = v.machine;
  $("game-title").textContent = v.game;
  $("machine-name").textContent = `${v.machine} (${v.machine_side})`;
  $("person-side").textContent = `as ${v.person_side}`;
  $("games-played").textContent = plain(v.games_played);
  $("wins").textContent = plain(v.score.wins);
  $("draws").textContent = plain(v.score.draws);
  $("losses").textContent = plain(v.score.losses);
  const p = v.against_person;
  $("person-score").textContent = `you ${p.losses}, ${v.machine} ${p.wins}, draws ${p.draws}`;
  $("boxes-beads").textContent = `${plural(v.boxes, "box", "boxes")}, ${plural(v.beads, "bead", "beads")}`;
  const loss = v.exact && v.exact.perfect ? v.exact.perfect.loss.toFixed(4) : "– (the game is too large)";
  $("exact-loss").textContent = loss;
  $("settings").textContent = `${v.machine}'s settings: ${v.settings}; seed ${v.seed ?? "–"}` +
    (v.trained_against ? `; last trained against ${opponentName(v.trained_against)}` : "");
  $("download").href = at("/state");
  $("labels-pdf").href = at("/labels.pdf");
  $("curves-csv").href = at("/curves.csv");
  $("curves-json").href = at("/curves.json");
  $("download").setAttribute("download", `menace-${v.game.replace(/[^a-z0-9]/gi, "-")}.json`);
  $("state-file").textContent = !v.state_file
    ? ""
    : v.state_held_elsewhere
      ? `Not saved: another tab is saving its machine to ${v.state_file}.`
      : `Saved after every game to ${v.state_file}.`;
  if (v.message) say(v.message, true);
  renderRules(v);
  renderBoard(v.board, v);
  $("referee").checked = Boolean(v.referee);
  if (v.awaiting_bead) renderAwaiting(v.awaiting_bead);
  else renderDraw(v.last_draw);
  renderChanges(v.last_changes, v.board.over && v.board.result);
  renderTraining(v.training);
}

// Paragraphs of text in `host`, one a line.
function paragraphs(host, lines) {
  host.replaceChildren(...lines.map((line) => {
    const p = document.createElement("p");
    p.textContent = line;
    return p;
  }));
}

// The game's rules and what the machine does, both as the server words them
// from the game and the machine's own settings.
function renderRules(v) {
  if (!v.rules) return;
  $("rules-title").textContent = v.rules.title;
  paragraphs($("rules"), v.rules.rules);
  $("machine-rules-name").textContent = v.machine;
  const [first, ...rest] = v.rules.machine;
  paragraphs($("machine-rules"), [`${v.machine} plays ${v.machine_side}. ${first}`, ...rest]);
  $("symmetry-note").textContent = v.symmetry_note || "";
}

function boardUpdated() {
  document.body.dataset.boardUpdates = String(Number(document.body.dataset.boardUpdates || 0) + 1);
}

function renderBoard(b, v) {
  $("board").innerHTML = b.svg;
  boardUpdated();
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
  if (!view || view.training.running || watching || (isStudent() && !studentTurn)) return;
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
  if (busy || watching || !view || view.board.over || view.training.running) return;
  if (isStudent() && !studentTurn) return;
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

// A box's bead colours, each with its move and beads; `mark` picks the one to mark and how.
function legend(beads, mark) {
  const ul = document.createElement("ul");
  ul.className = "legend";
  beads.forEach((b, k) => {
    const li = document.createElement("li");
    const note = mark ? mark(b, k) : "";
    if (note) li.className = "marked";
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = b.css;
    sw.dataset.css = b.css;
    li.append(sw, `${b.colour}: ${b.move}, ${plural(b.beads, "bead", "beads")}${note}`);
    ul.appendChild(li);
  });
  return ul;
}

function hint() {
  const p = document.createElement("p");
  p.className = "hint";
  p.textContent = "After the machine moves, the box it drew a bead from is shown here: its position, an arrow for each bead colour with its beads, the bead drawn marked.";
  return p;
}

function renderDraw(d) {
  const host = $("drawn");
  host.replaceChildren();
  if (!d) {
    host.appendChild(hint());
    return;
  }
  const title = document.createElement("p");
  if (d.box === null) {
    title.textContent = `${d.note} It played ${d.move}.`;
    host.appendChild(title);
    return;
  }
  title.id = "drawn-title";
  title.append(`${d.moment}: ${view.machine} drew a bead from box ${d.box} and played `);
  const strong = document.createElement("strong");
  strong.className = "move-name";
  strong.textContent = d.move;
  title.append(strong, ".");
  const picture = document.createElement("div");
  picture.className = "box-picture";
  picture.innerHTML = d.svg;
  host.append(title, picture, legend(d.beads, (b) => (b.drawn ? "  ← drawn" : "")));
  if (d.mirror_note) host.appendChild(mirrorNote(d.mirror_note));
}

// Referee: the box to draw from, and a button for each colour it holds
// (or one for an empty box), named as its printed label names them.
function renderAwaiting(d) {
  const host = $("drawn");
  host.replaceChildren();
  const title = document.createElement("p");
  title.id = "drawn-title";
  title.append(`${d.moment}: take box ${d.box}, draw one bead without looking, and click its colour.`);
  const picture = document.createElement("div");
  picture.className = "box-picture";
  picture.innerHTML = d.svg;
  const choices = document.createElement("div");
  choices.id = "bead-choices";
  const held = d.beads.filter((b) => b.beads > 0);
  for (const b of held) {
    const button = document.createElement("button");
    button.dataset.colour = b.colour;
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = b.css;
    button.append(sw, `${b.colour}: ${b.move}`);
    button.addEventListener("click", () => giveBead(b.colour));
    choices.appendChild(button);
  }
  if (!held.length) {
    const button = document.createElement("button");
    button.dataset.colour = "";
    button.textContent = "The box is empty";
    button.addEventListener("click", () => giveBead(null));
    choices.appendChild(button);
  }
  host.append(title, picture, legend(d.beads), choices);
  if (d.mirror_note) host.appendChild(mirrorNote(d.mirror_note));
  $("status").textContent = `Draw a bead from box ${d.box}.`;
}

async function giveBead(colour) {
  if (busy) return;
  setBusy(true);
  try {
    await guarded(async () => {
      const v = await api("POST", at("/bead"), { colour });
      render(v);
      if (v.board.over) await refreshExtras();
    });
  } finally {
    setBusy(false);
  }
}

function mirrorNote(text) {
  const note = document.createElement("p");
  note.className = "small mirror-note";
  note.textContent = text;
  return note;
}

function renderChanges(changes, ended) {
  const host = $("changes");
  host.replaceChildren();
  if (!ended) return;
  const h = document.createElement("p");
  h.id = "changes-title";
  h.textContent = changes.length
    ? `After the game, ${view.machine}'s beads changed:`
    : `After the game, ${view.machine}'s beads are unchanged.`;
  host.appendChild(h);
  if (view.referee) {
    // What to do to the real boxes, in the labels' numbers and colours.
    const steps = document.createElement("div");
    steps.className = "referee-steps";
    const first = changes.length
      ? "Put every bead drawn back in its box, then:"
      : "Put every bead drawn back in its box; nothing else changes.";
    const lines = [first, ...changes.map((c) => {
      const d = c.after - c.before;
      const n = Math.abs(d);
      const what = `${n} ${c.colour} bead${n === 1 ? "" : "s"}`;
      return `Box ${c.box}: ${d < 0 ? `take ${what} out` : `put ${what} more in`} (${c.colour} ${c.before} → ${c.after}).`;
    })];
    steps.replaceChildren(...lines.map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    }));
    host.appendChild(steps);
  }
  for (const c of changes) {
    const div = document.createElement("div");
    div.className = "change";
    div.dataset.box = c.box;
    const title = document.createElement("p");
    title.className = "change-title";
    const delta = c.after - c.before;
    const d = document.createElement("span");
    d.className = `delta ${delta < 0 ? "down" : "up"}`;
    d.textContent = `${delta > 0 ? "+" : "−"}${Math.abs(delta)}`;
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = c.css;
    const name = document.createElement("strong");
    name.className = "move-name";
    name.textContent = c.move;
    title.append(`${c.moment ? c.moment + ", " : ""}box ${c.box}: `, sw, `${c.colour}, `, name, `: ${c.before} → ${c.after} `, d);
    const picture = document.createElement("div");
    picture.className = "box-picture";
    picture.innerHTML = c.svg;
    div.append(title, picture);
    if (c.mirror_note) div.appendChild(mirrorNote(c.mirror_note));
    host.appendChild(div);
  }
}

// The opponent as a class reads it: a second machine by its machine's name.
const opponentName = (o) => (o === "menace" ? `a second ${view ? view.machine : "machine"}` : o);

function renderTraining(t) {
  const running = t.running || watching;
  $("train").disabled = running;
  $("stop").disabled = !running;
  if (watching || (!t.running && watched)) return;
  $("progress").max = Math.max(t.total, 1);
  $("progress").value = t.done;
  $("progress-text").textContent = t.total
    ? `${plain(t.done)} of ${plain(t.total)} games against ${opponentName(t.opponent)}${t.running ? "…" : " done"}`
    : "";
}

function renderCurves(c) {
  lastCurves = c;
  const pts = c.points;
  const series = (key) => pts.filter((p) => key in p).map((p) => [p.game, p[key]]);
  lineChart($("chart-score"), {
    title: "Score so far",
    xLabel: "games played",
    yLabel: "score",
    series: [
      { name: "+3 a win, +1 a draw, −1 a loss", colour: "#1f77b4", points: series("michie_score") },
      { name: "wins − losses", colour: "#d62728", points: series("wins_minus_losses") },
    ],
  });
  lineChart($("chart-rates"), {
    title: `Share of the last ${c.window} games`,
    xLabel: "games played",
    yLabel: "share of games",
    yMin: 0,
    yMax: 1,
    series: [
      { name: "won", colour: "#2ca02c", points: series("win_rate") },
      { name: "drawn", colour: "#7f7f7f", points: series("draw_rate") },
      { name: "lost", colour: "#d62728", points: series("loss_rate") },
    ],
  });
  const exact = series("exact_perfect_loss");
  $("chart-exact").hidden = !exact.length;
  if (exact.length) {
    lineChart($("chart-exact"), {
      title: "Chance of losing to perfect play",
      xLabel: "games played",
      yLabel: "probability",
      yMin: 0,
      yMax: 1,
      series: [{ name: "worked out from the beads", colour: "#9467bd", points: exact }],
    });
  }
  lineChart($("chart-first"), {
    title: "Beads in the first-move boxes",
    xLabel: "games played",
    yLabel: "beads",
    yMin: 0,
    series: [
      {
        name: "all the boxes of the machine's first move, added up",
        colour: "#9a5b13",
        points: series("first_box_beads"),
      },
    ],
  });
}

// A box as a card: its number and move, its position, the picture and the legend.
function boxCard(b, box) {
  const card = document.createElement("div");
  card.className = box.in_last_game ? "box-card changed" : "box-card";
  card.dataset.box = box.box;
  const title = document.createElement("div");
  title.className = "title";
  title.textContent = `Box ${box.box}, ${b.machine}'s move ${box.own_move}`;
  const pos = document.createElement("div");
  pos.className = "pos";
  pos.textContent = box.position;
  const pic = document.createElement("div");
  pic.innerHTML = box.svg;
  card.append(title, pos, pic, legend(box.beads));
  return card;
}

async function refreshBoxes() {
  const asked = ++boxesAsked;
  const q = new URLSearchParams({ page: boxQuery.page });
  if (boxQuery.own_move) q.set("own_move", boxQuery.own_move);
  if (boxQuery.find) q.set("find", boxQuery.find);
  // The second machine's boxes, while it has one.
  const second = view && view.second_machine_boxes != null;
  $("box-machine-label").hidden = !second;
  if (!second) boxQuery.machine = "";
  $("box-machine").options[0].textContent = view ? view.machine : "the machine";
  $("box-machine").options[1].textContent = view ? `a second ${view.machine}` : "the second machine";
  $("box-machine").value = boxQuery.machine;
  if (boxQuery.machine) q.set("machine", boxQuery.machine);
  const b = await api("GET", at(`/boxes?${q}`));
  if (asked !== boxesAsked) return;
  listedBoxes = b.total;
  boxQuery.page = b.page;
  $("boxes-summary").textContent = `${capitalised(b.machine)} plays ${b.side} in ${b.game}: ${plural(b.total, "box", "boxes")}` +
    (b.matched < b.total ? `, ${plain(b.matched)} shown by the filter` : "");
  const menu = $("box-move");
  const keep = boxQuery.own_move;
  menu.replaceChildren(new Option("every move", ""));
  for (const m of b.moves) menu.add(new Option(`${b.machine}'s move ${m.own_move} (${plural(m.boxes, "box", "boxes")})`, String(m.own_move)));
  menu.value = keep;
  $("box-page").textContent = `page ${b.page} of ${b.pages}, ${b.per_page} a page`;
  $("box-prev").disabled = b.page <= 1;
  $("box-next").disabled = b.page >= b.pages;
  const last = $("last-game");
  last.replaceChildren();
  if (b.last_game.length) {
    const group = document.createElement("div");
    group.className = "move-group";
    const h = document.createElement("h3");
    h.textContent = `The last game's ${plural(b.last_game.length, "box", "boxes")}`;
    group.append(h, ...b.last_game.map((box) => boxCard(b, box)));
    last.appendChild(group);
  }
  const host = $("boxes-list");
  host.replaceChildren();
  host.dataset.games = String(view.games_played);
  const groups = new Map();
  for (const box of b.boxes) {
    if (!groups.has(box.own_move)) groups.set(box.own_move, []);
    groups.get(box.own_move).push(box);
  }
  for (const [move, list] of groups) {
    const group = document.createElement("div");
    group.className = "move-group";
    const h = document.createElement("h3");
    h.textContent = `${b.machine}'s move ${move}: ${plural(list.length, "box", "boxes")} on this page`;
    group.appendChild(h);
    for (const box of list) group.appendChild(boxCard(b, box));
    host.appendChild(group);
  }
}

async function refreshExtras() {
  renderCurves(await api("GET", at("/curves")));
  await refreshBoxes();
}

// ---- actions ----

// One move at a time: clicks while a move is on its way are ignored.
let busy = false;
let watching = false;
// Games were watched since the last training run: the progress shows them.
let watched = false;
let stopWatching = false;

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
      if (isStudent()) {
        // A student's move goes to the class machine, and the class answers.
        showStudent(await api("POST", "/api/class/move", { move: name }), true);
        return;
      }
      const v = await api("POST", at("/move"), { move: name });
      render(v);
      if (v.board.over) await refreshExtras();
      else if (v.boxes !== listedBoxes) await refreshBoxes();
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
      let c;
      try {
        c = await api("GET", at("/curves"));
      } catch (e) {
        if (e.status === 404) throw e;
        // One answer lost (a dropped connection, a server too busy to
        // answer): the run goes on, so the page asks again rather than
        // stop following it.
        say(e.message);
        await pause(1000);
        continue;
      }
      renderCurves(c);
      renderTraining({ ...view.training, ...c.training, opponent: view.training.opponent });
      $("games-played").textContent = plain(c.games_played);
      // The counters follow the run, not only its end.
      $("wins").textContent = plain(c.score.wins);
      $("draws").textContent = plain(c.score.draws);
      $("losses").textContent = plain(c.score.losses);
      if (!c.training.running) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    render(await api("GET", at("")));
    await refreshExtras();
  } finally {
    polling = false;
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function speed() {
  return SPEEDS[Number($("speed").value)];
}

function showSpeed() {
  const s = speed();
  $("speed-text").textContent = s === Infinity
    ? "as fast as possible"
    : s < 1 ? `a game every ${1 / s} seconds` : `${s} game${s === 1 ? "" : "s"} a second`;
}

// Watch games one by one: each played on the server, then shown move by
// move (slow speeds) or as it ended (fast ones), at the speed set.
async function watch(opponent, total, discard) {
  watching = true;
  watched = true;
  stopWatching = false;
  renderTraining(view.training);
  $("watch-log").replaceChildren();
  $("progress").max = total;
  let lastBoxes = 0;
  try {
    for (let done = 0; done < total && !stopWatching; done++) {
      const s = speed();
      if (s === Infinity) break;
      const began = performance.now();
      const frames = s <= 2;
      const v = await api("POST", at("/watch"), { opponent, frames, discard: discard && done === 0 });
      const game = v.watched;
      if (frames) {
        // One game at a time: its moves so far, its board, its box drawn;
        // nothing of the game before (its changes go until this one ends).
        const each = 1000 / s / Math.max(game.steps.length, 1);
        const moves = [];
        $("changes").replaceChildren();
        $("drawn").replaceChildren(hint());
        for (const step of game.steps) {
          moves.push(step.move);
          $("history").textContent = `Moves: ${moves.join(" ")}`;
          $("status").textContent = `${capitalised(step.mover)} plays ${step.move} (move ${step.ply} of the game).`;
          if (step.draw) renderDraw(step.draw);
          $("board").innerHTML = step.board;
          boardUpdated();
          await pause(each);
        }
      }
      render(v);
      const li = document.createElement("li");
      li.dataset.plies = game.plies;
      li.textContent = `${game.result} (${plural(game.plies, "move", "moves")})`;
      $("watch-log").prepend(li);
      while ($("watch-log").children.length > 8) $("watch-log").lastChild.remove();
      // A game stopped halfway is not one of those watched.
      if (game.stopped) break;
      $("progress").value = done + 1;
      $("progress-text").textContent = `${plain(done + 1)} of ${plain(total)} games watched against ${opponentName(opponent)}`;
      document.body.dataset.watched = String(done + 1);
      renderCurves(await api("GET", at("/curves")));
      if (performance.now() - lastBoxes > 1000 || done + 1 === total) {
        lastBoxes = performance.now();
        await refreshBoxes();
      }
      const left = 1000 / s - (performance.now() - began);
      if (left > 0) await pause(left);
    }
  } finally {
    watching = false;
    // The buttons only: the progress says what was watched until the next run.
    $("train").disabled = false;
    $("stop").disabled = true;
    highlight();
  }
}

// Train or watch, but never drop a game in progress unasked.
function ask(go) {
  const moves = view.board.over ? 0 : view.board.person_moves;
  if (!moves) return go(false);
  $("confirm-text").textContent = `A game is in progress (${plural(moves, "move", "moves")} of yours). Playing games without you now drops it: no beads change for it.`;
  $("confirm-drop").hidden = false;
  $("drop-game").onclick = () => { $("confirm-drop").hidden = true; go(true); };
  $("keep-game").onclick = () => { $("confirm-drop").hidden = true; };
}

// A machine replaced (made anew, reset or loaded): nothing of the old one
// stays on screen, and the boxes view shows every box again.
function resetPanels() {
  watched = false;
  $("watch-log").replaceChildren();
  $("progress").max = 1;
  $("progress").value = 0;
  $("progress-text").textContent = "";
  boxQuery.page = 1;
  boxQuery.own_move = "";
  boxQuery.find = "";
  boxQuery.machine = "";
  $("box-machine").value = "";
  $("box-move").value = "";
  $("box-find").value = "";
  lastCurves = null;
}

// ---- the classroom (`menace serve --classroom`) ----

// The class as the server last told it ({class, view}), or null: not a classroom.
let klass = null;
// A student's game is on the board.
let studentTurn = false;
// What the board shows, to redraw only when it changes.
const boardSign = (v) => `${v.games_played}|${v.board.history.join(" ")}|${v.board.over}`;

const isStudent = () => klass !== null && klass.class.role !== "teacher";

function renderClass(k) {
  klass = k;
  const c = k.class;
  $("class-panel").hidden = false;
  $("class-join").hidden = c.role !== "guest";
  $("class-info").hidden = c.role === "guest";
  document.body.dataset.role = c.role;
  // A guest is told nothing of the class but how to join it.
  if (c.role === "guest") return;
  if (c.role === "teacher") {
    $("class-code").textContent = `Join at ${k.join} with the code ${c.code}`;
  } else {
    $("class-code").textContent = c.you ? `You are ${c.you}.` : "";
  }
  const waiting = c.queue.length ? ` Waiting: ${c.queue.join(", ")}.` : "";
  // The game before stays on the board until the student whose turn it is starts theirs.
  const over = Boolean(k.view && k.view.board.over);
  $("class-turn").textContent = c.your_turn
    ? over ? "Your turn: press Start your game." : "Your game against the class machine: your move."
    : c.queued
      ? `You are number ${c.queued} in the queue.${c.playing ? ` ${c.playing} is playing.` : ""}`
      : c.playing
        ? `${c.playing} is playing the class machine.${waiting}`
        : `No game on the board.${waiting}${c.role === "student" ? " Press Play a game." : ""}`;
  $("class-play").hidden = c.role !== "student" || Boolean(c.queued) || (c.your_turn && !over);
  $("class-play").textContent = c.your_turn ? "Start your game" : "Play a game";
  $("class-skip").hidden = c.role !== "teacher" || !c.playing;
  const body = $("class-students").querySelector("tbody");
  body.replaceChildren(...c.students.map((s) => {
    const tr = document.createElement("tr");
    for (const x of [s.name, s.wins, s.draws, s.losses]) {
      const td = document.createElement("td");
      td.textContent = String(x);
      tr.appendChild(td);
    }
    return tr;
  }));
  $("class-log").replaceChildren(...c.log.map((g) => {
    const li = document.createElement("li");
    li.value = g.game;
    li.textContent = `${g.student}: ${g.moves.join(" ")}. ${g.result}`;
    return li;
  }));
  document.body.dataset.classGames = String(c.games);
}

// A student's page: the class panel, and the class machine's board (moves
// only on their own turn).
let seenGames = null;
function showStudent(k, fresh) {
  renderClass(k);
  // The student's own game just ended (the board has gone to the next player): say how.
  const last = k.class.log[0];
  if (seenGames !== null && last && last.game > seenGames && last.student === k.class.you) {
    say(`Your game against the class machine: ${last.result}`, true);
  }
  seenGames = k.class.games;
  studentTurn = k.class.your_turn && !k.view.board.over;
  if (fresh || !view || boardSign(k.view) !== boardSign(view)) render(k.view);
  else highlight();
  if (!studentTurn && !k.view.board.over) {
    $("status").textContent = k.class.playing ? `${k.class.playing} is playing.` : "No game on the board.";
  } else if (k.view.board.over) {
    // A student has no New game button: the queue is how to play again.
    $("status").textContent = `${k.view.board.result || "The game is over."} Press Play a game to play again.`;
  }
}

// Every second, the class as it stands: a student's board, or the teacher's
// page (the projector) following the students' games.
async function followClass() {
  for (;;) {
    await pause(1000);
    if (busy || polling || watching) continue;
    try {
      const k = await api("GET", "/api/class");
      if (isStudent()) {
        showStudent(k, false);
      } else {
        renderClass(k);
        if (!view || boardSign(k.view) !== boardSign(view)) {
          const ended = !view || k.view.games_played !== view.games_played;
          render(k.view);
          if (ended) await refreshExtras();
        }
      }
    } catch (e) {
      say(e.message);
    }
  }
}

function wireClass() {
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(async () => {
      const k = await api("POST", "/api/class/join", { code: $("join-code").value.trim(), name: $("join-name").value.trim() });
      showStudent(k, true);
      say(`Welcome, ${k.class.you}: press Play a game to play the class's machine.`, true);
    });
  });
  $("class-skip").addEventListener("click", () => guarded(async () => {
    const k = await api("POST", "/api/class/skip");
    renderClass(k);
    render(k.view);
  }));
  $("class-play").addEventListener("click", () => guarded(async () => {
    showStudent(await api("POST", "/api/class/play"), true);
  }));
}

// The projector layout and the box pictures' size, remembered on this device.
const LAYOUT_KEY = "menace-projector";
const SIZE_KEY = "menace-box-size";

function setProjector(on) {
  document.body.classList.toggle("projector", on);
  $("projector").setAttribute("aria-pressed", on ? "true" : "false");
  localStorage.setItem(LAYOUT_KEY, on ? "on" : "off");
}

function setBoxSize(px) {
  const size = Math.min(520, Math.max(160, Number(px) || 220));
  $("box-size").value = String(size);
  for (const id of ["boxes-list", "last-game"]) {
    $(id).style.setProperty("--card", `${size}px`);
    $(id).style.setProperty("--card-scale", String(Math.max(1, size / 220)));
  }
  localStorage.setItem(SIZE_KEY, String(size));
}

function wire() {
  setProjector(localStorage.getItem(LAYOUT_KEY) === "on");
  $("projector").addEventListener("click", () => setProjector(!document.body.classList.contains("projector")));
  setBoxSize(localStorage.getItem(SIZE_KEY) || 220);
  $("box-size").addEventListener("input", () => setBoxSize($("box-size").value));
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
      resetPanels();
      say(`A new machine: ${v.machine} plays ${v.machine_side} in ${v.game}.`, true);
      render(v);
      await refreshExtras();
    });
  });
  $("new-game").addEventListener("click", () => guarded(async () => {
    say("");
    render(await api("POST", at("/game")));
    await refreshBoxes();
  }));
  $("referee").addEventListener("change", () => guarded(async () => {
    render(await api("POST", at("/referee"), { on: $("referee").checked }));
  }));
  $("resign").addEventListener("click", () => guarded(async () => {
    render(await api("POST", at("/resign")));
    await refreshExtras();
  }));
  $("opponent").addEventListener("change", () => {
    $("playouts-label").hidden = $("opponent").value !== "mcts";
    $("chance-label").hidden = $("opponent").value !== "perfect";
  });
  $("speed").addEventListener("input", showSpeed);
  $("train-form").addEventListener("submit", (e) => {
    e.preventDefault();
    let opponent = $("opponent").value;
    if (opponent === "mcts") opponent = `mcts:${$("playouts").value}`;
    // perfect:P plays a best move with chance P, else a random one.
    if (opponent === "perfect" && Number($("chance").value) !== 1) opponent = `perfect:${$("chance").value}`;
    const total = Number($("train-games").value);
    ask((discard) => guarded(async () => {
      say("");
      if (speed() !== Infinity) {
        await watch(opponent, total, discard);
        return;
      }
      const v = await api("POST", at("/train"), { opponent, games: total, discard });
      watched = false;
      render(v);
      await poll();
    }));
  });
  $("stop").addEventListener("click", () => {
    stopWatching = true;
    // A training run stops, and so does a watched game under way (left unfinished).
    guarded(() => api("POST", at("/stop")));
  });
  $("reset").addEventListener("click", () => guarded(async () => {
    const v = await api("POST", at("/machine"), { ...machineSettings(), game: view.game, side: view.machine_side.toLowerCase() });
    resetPanels();
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
    resetPanels();
    say(`Loaded ${file.name}: ${v.machine} plays ${v.machine_side} in ${v.game}, ${v.games_played} games played.`, true);
    render(v);
    await refreshExtras();
  }));
  $("box-machine").addEventListener("change", () => {
    boxQuery.machine = $("box-machine").value;
    boxQuery.own_move = "";
    boxQuery.page = 1;
    guarded(refreshBoxes);
  });
  $("box-move").addEventListener("change", () => { boxQuery.own_move = $("box-move").value; boxQuery.page = 1; guarded(refreshBoxes); });
  $("box-find").addEventListener("change", () => { boxQuery.find = $("box-find").value.trim(); boxQuery.page = 1; guarded(refreshBoxes); });
  $("box-prev").addEventListener("click", () => { boxQuery.page -= 1; guarded(refreshBoxes); });
  $("box-next").addEventListener("click", () => { boxQuery.page += 1; guarded(refreshBoxes); });
  $("print-boxes").addEventListener("click", () => window.print());
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (lastCurves) renderCurves(lastCurves); }, 150);
  });
}

async function main() {
  wire();
  wireClass();
  showSpeed();
  // A classroom's server: a student (or a guest, who joins first) sees the
  // class machine; the teacher's page drives it.
  let k = await api("GET", "/api/class");
  if (!k || !k.class) k = null;
  if (k && k.class.role !== "teacher") {
    document.body.classList.add("student");
    klass = k;
    if (k.class.role === "guest") {
      renderClass(k);
      const code = new URLSearchParams(location.search).get("code");
      if (code) $("join-code").value = code;
    } else {
      showStudent(k, true);
    }
    document.body.dataset.ready = "yes";
    followClass();
    return;
  }
  if (k) {
    session = k.session;
    sessionStorage.setItem(KEY, session);
    renderClass(k);
  }
  const catalogue = await api("GET", "/api/games");
  games = catalogue.games;
  for (const g of games) $("game").add(new Option(g.title, g.spec));
  await fillSides();
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
  if (g) { $("game").value = g.spec; await fillSides(); $("side").value = view.machine_side.toLowerCase(); }
  document.body.dataset.ready = "yes";
  if (k) followClass();
}

main().catch((e) => say(e.message));
