// What the person does: make a machine, play a move, give the bead drawn
// from a real box, train (followed until it ends) or watch games one by one.

import { plain } from "./charts.js";
import { api, at } from "./api.js";
import { boardUpdated, highlight } from "./board.js";
import { refreshBoxes, refreshExtras } from "./boxes.js";
import { showStudent } from "./classroom.js";
import { hint, render, renderCurves, renderDraw, renderTraining } from "./render.js";
import { $, boxQuery, capitalised, isStudent, KEY, opponentName, pause, plural, say, SPEEDS, state } from "./state.js";

export async function guarded(work) {
  try {
    await work();
  } catch (e) {
    if (e.status === 404 && state.session) {
      // The session expired: start again with a fresh machine.
      sessionStorage.removeItem(KEY);
      state.session = null;
      say(`${e.message} A new machine was made.`);
      await start({});
      return;
    }
    say(e.message);
  }
}

export async function start(settings) {
  const v = await api("POST", "/api/sessions", settings);
  state.session = v.session;
  sessionStorage.setItem(KEY, state.session);
  render(v);
  await refreshExtras();
}

export function machineSettings() {
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
  // As typed: a number would round a seed above 2^53 to another machine's.
  if (seed) ask.seed = seed;
  return ask;
}

// The sides of the game named: a known game's from the list; a spec typed
// in is asked of the server, and a bad one keeps the menu as it was and says why.
export async function fillSides() {
  const spec = $("custom-game").value.trim() || $("game").value;
  const side = $("side");
  $("spec-error").textContent = "";
  let g = state.games.find((x) => x.spec === spec);
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

export async function giveBead(colour) {
  await busyWhile(async () => {
    const v = await api("POST", at("/bead"), { colour });
    render(v);
    if (v.board.over) await refreshExtras();
  });
}

// Do `work` with the board held: no click lands on a board about to change,
// and `data-busy` says so until the answer is shown.
export async function busyWhile(work) {
  if (state.busy) return;
  setBusy(true);
  try {
    await guarded(work);
  } finally {
    setBusy(false);
  }
}

function setBusy(on) {
  state.busy = on;
  document.body.dataset.busy = on ? "yes" : "no";
}

export async function play(name) {
  if (state.busy) return;
  setBusy(true);
  state.selected = null;
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
      else if (v.boxes !== state.listedBoxes) await refreshBoxes();
    });
  } finally {
    setBusy(false);
  }
}

export async function poll() {
  if (state.polling) return;
  state.polling = true;
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
      renderTraining({ ...state.view.training, ...c.training, opponent: state.view.training.opponent });
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
    state.polling = false;
  }
}

export function speed() {
  return SPEEDS[Number($("speed").value)];
}

export function showSpeed() {
  const s = speed();
  $("speed-text").textContent = s === Infinity
    ? "as fast as possible"
    : s < 1 ? `a game every ${1 / s} seconds` : `${s} game${s === 1 ? "" : "s"} a second`;
}

// Watch games one by one: each played on the server, then shown move by
// move (slow speeds) or as it ended (fast ones), at the speed set.
export async function watch(opponent, total, discard) {
  state.watching = true;
  state.watched = true;
  state.stopWatching = false;
  renderTraining(state.view.training);
  $("watch-log").replaceChildren();
  $("progress").max = total;
  let lastBoxes = 0;
  try {
    for (let done = 0; done < total && !state.stopWatching; done++) {
      if (done > 0) await unpaused();
      if (state.stopWatching) break;
      const s = speed();
      if (s === Infinity) break;
      const began = performance.now();
      const frames = s <= 2;
      const v = await api("POST", at("/watch"), { opponent, frames, discard: discard && done === 0 });
      const game = v.watched;
      if (frames) {
        // One game at a time: its moves so far, its board, its box drawn.
        // The last game's changes stay in view until this one's replace them.
        const each = 1000 / s / Math.max(game.steps.length, 1);
        const moves = [];
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
      li.textContent = `Game ${plain(v.games_played)}: ${game.result} (${plural(game.plies, "move", "moves")})${changed(v.last_changes)}`;
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
      // Shown move by move, a game's changes are held long enough to read.
      const left = 1000 / s - (performance.now() - began);
      const rest = frames ? Math.max(left, HOLD_MS) : left;
      if (rest > 0) await pause(rest);
    }
  } finally {
    state.watching = false;
    setPaused(false);
    // The buttons only: the progress says what was watched until the next run.
    $("train").disabled = false;
    $("stop").disabled = true;
    highlight();
  }
}

// How long a watched game's changes stay on screen, at least, before the next game.
const HOLD_MS = 1500;

// The beads a game changed, in a line of the watched games' list.
function changed(changes) {
  if (!changes || !changes.length) return ": no beads changed";
  return `: ${changes.map((c) => `box ${c.box} ${c.colour} ${c.before} → ${c.after}`).join(", ")}`;
}

// Pause watching after the game on the board, or go on.
export function setPaused(on) {
  state.paused = on;
  state.stepOnce = false;
  $("pause").setAttribute("aria-pressed", on ? "true" : "false");
  $("pause").textContent = on ? "Go on" : "Pause";
  $("step").disabled = !(on && state.watching);
}

// Wait while watching is paused, until the person goes on, asks for one more game, or stops.
async function unpaused() {
  // `data-waiting`: the page holds the next game (for the tests, and styles).
  document.body.dataset.waiting = "yes";
  while (state.paused && !state.stepOnce && !state.stopWatching) await pause(100);
  document.body.dataset.waiting = "no";
  state.stepOnce = false;
}

// Train or watch, but never drop a game in progress unasked.
export function ask(go) {
  const moves = state.view.board.over ? 0 : state.view.board.person_moves;
  if (!moves) return go(false);
  $("confirm-text").textContent = `A game is in progress (${plural(moves, "move", "moves")} of yours). Playing games without you now drops it: no beads change for it.`;
  $("confirm-drop").hidden = false;
  $("drop-game").onclick = () => { $("confirm-drop").hidden = true; go(true); };
  $("keep-game").onclick = () => { $("confirm-drop").hidden = true; };
}

// A machine replaced (made anew, reset or loaded): nothing of the old one
// stays on screen, and the boxes view shows every box again.
export function resetPanels() {
  state.watched = false;
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
  state.lastCurves = null;
}
