// The machine on screen: its counters and settings, the rules, the box it
// drew from (or, refereeing, the box to draw from), the beads a game
// changed, the training under way and the curves.

import { lineChart, plain } from "./charts.js";
import { giveBead } from "./actions.js";
import { at } from "./api.js";
import { drawInClass } from "./classroom.js";
import { keep } from "./offline.js";
import { renderBoard } from "./board.js";
import { $, opponentName, plural, say, state } from "./state.js";

export function render(v) {
  state.view = v;
  state.selected = null;
  $("machine-title").textContent = v.machine;
  $("game-title").textContent = v.rules ? v.rules.title : v.game;
  $("machine-name").textContent = `${v.machine} (${v.machine_side})`;
  $("person-side").textContent = `as ${v.person_side}`;
  $("games-played").textContent = plain(v.games_played);
  $("wins").textContent = plain(v.score.wins);
  $("draws").textContent = plain(v.score.draws);
  $("losses").textContent = plain(v.score.losses);
  const p = v.against_person;
  // In a classroom the people who play the class machine are the class, not the teacher.
  const who = state.klass ? "the class" : "you";
  $("person-score-label").textContent = `${who} against it`;
  $("person-score").textContent = `${who} ${p.losses}, ${v.machine} ${p.wins}, draws ${p.draws}`;
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
  keep(v);
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

// A box's bead colours, each with its move and beads; `mark` picks the one to mark and how.
export function legend(beads, mark) {
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

export function hint() {
  const p = document.createElement("p");
  p.className = "hint";
  p.textContent = "After the machine moves, the box it drew a bead from is shown here: its position, an arrow for each bead colour with its beads, the bead drawn marked.";
  return p;
}

export function renderDraw(d) {
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
  title.append(`${d.moment}: ${state.view.machine} drew a bead from box ${d.box} and played `);
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
  // The class is the machine: the box's holder draws, on their own device.
  const k = state.klass && state.klass.class;
  if (k && k.mode === "machine") {
    // The button first, where a phone shows it without scrolling.
    host.append(title, choices, picture, legend(d.beads));
    drawInClass(d, k, title, choices);
    if (d.mirror_note) host.appendChild(mirrorNote(d.mirror_note));
    return;
  }
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
  const game = state.view.games_played ? `game ${plain(state.view.games_played)}` : "the game";
  h.textContent = changes.length
    ? `After ${game}, ${state.view.machine}'s beads changed:`
    : `After ${game}, ${state.view.machine}'s beads are unchanged.`;
  host.appendChild(h);
  if (state.view.referee) {
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

export function renderTraining(t) {
  const running = t.running || state.watching;
  $("train").disabled = running;
  $("stop").disabled = !running;
  $("pause").disabled = !state.watching;
  $("step").disabled = !(state.watching && state.paused);
  if (state.watching || (!t.running && state.watched)) return;
  $("progress").max = Math.max(t.total, 1);
  $("progress").value = t.done;
  $("progress-text").textContent = t.total
    ? `${plain(t.done)} of ${plain(t.total)} games against ${opponentName(t.opponent)}${t.running ? "…" : " done"}`
    : "";
}

export function renderCurves(c) {
  state.lastCurves = c;
  const pts = c.points;
  const series = (key) => pts.filter((p) => key in p).map((p) => [p.game, p[key]]);
  // A game without draws (Hexapawn) has no draw to chart or to score.
  const draws = !state.view || state.view.can_draw !== false;
  lineChart($("chart-score"), {
    title: "Score so far",
    xLabel: "games played",
    yLabel: "score",
    whole: true,
    series: [
      { name: draws ? "+3 a win, +1 a draw, −1 a loss" : "+3 a win, −1 a loss", colour: "#1f77b4", points: series("michie_score") },
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
      ...(draws ? [{ name: "drawn", colour: "#7f7f7f", points: series("draw_rate") }] : []),
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
    whole: true,
    series: [
      {
        name: "all the boxes of the machine's first move, added up",
        colour: "#9a5b13",
        points: series("first_box_beads"),
      },
    ],
  });
}
