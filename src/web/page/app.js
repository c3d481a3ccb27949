// The classroom page: one machine per tab (a session on the server), played
// by clicking on the board, watched or trained against an opponent, its
// boxes shown a page at a time and printed. This module wires the page's
// controls and starts it; the work is in the modules it imports.

import { ask, busyWhile, fillSides, guarded, machineSettings, poll, resetPanels, setPaused, showSpeed, speed, start, watch } from "./actions.js";
import { api, at, file } from "./api.js";
import { boardKey, clickCell } from "./board.js";
import { refreshBoxes, refreshExtras } from "./boxes.js";
import { followClass, renderClass, showStudent, wireClass } from "./classroom.js";
import { restore, wireOffline } from "./offline.js";
import { render, renderCurves } from "./render.js";
import { $, boxQuery, isStudent, KEY, plural, say, state } from "./state.js";

// The projector layout and the box pictures' size, remembered on this device.
const LAYOUT_KEY = "menace-projector";

const SIZE_KEY = "menace-box-size";

function setProjector(on) {
  document.body.classList.toggle("projector", on);
  $("projector").setAttribute("aria-pressed", on ? "true" : "false");
  localStorage.setItem(LAYOUT_KEY, on ? "on" : "off");
}

// High contrast, for a darkened room: remembered on this device.
const CONTRAST_KEY = "menace-contrast";

function setContrast(on) {
  document.body.classList.toggle("contrast", on);
  $("contrast").setAttribute("aria-pressed", on ? "true" : "false");
  localStorage.setItem(CONTRAST_KEY, on ? "on" : "off");
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

// A machine that has played games is replaced (made anew, reset) only
// once the person says so, and the one replaced can be brought back.
function replacing(what, work) {
  const v = state.view;
  if (!v || !v.games_played) {
    guarded(work);
    return;
  }
  $("replace-text").textContent = `${v.machine} has played ${plural(v.games_played, "game", "games")}. Replace ${v.machine} with ${what}? Undo brings this machine back.`;
  $("confirm-replace").hidden = false;
  $("replace-yes").focus();
  $("replace-yes").onclick = () => {
    $("confirm-replace").hidden = true;
    guarded(async () => {
      const undo = await undoable();
      await work();
      offerUndo(undo);
    });
  };
}

// The machine on screen, as its state file, to bring back: null if it has played no games.
async function undoable() {
  const v = state.view;
  if (!v || !v.games_played) return null;
  return { text: (await file(at("/state"))).body, machine: v.machine, games: v.games_played };
}

// Undo the last replacement: the machine before it, bead for bead.
function offerUndo(undo) {
  $("undo-bar").hidden = !undo;
  if (!undo) return;
  $("undo").textContent = `Undo: bring back ${undo.machine} after ${plural(undo.games, "game", "games")}`;
  $("undo").onclick = () => guarded(async () => {
    const v = await api("PUT", at("/state"), undo.text, true);
    $("undo-bar").hidden = true;
    resetPanels();
    say(`${v.machine} is back, after ${plural(v.games_played, "game", "games")}.`, true);
    render(v);
    await refreshExtras();
  });
}

function wire() {
  setProjector(localStorage.getItem(LAYOUT_KEY) === "on");
  $("projector").addEventListener("click", () => setProjector(!document.body.classList.contains("projector")));
  setBoxSize(localStorage.getItem(SIZE_KEY) || 220);
  $("box-size").addEventListener("input", () => setBoxSize($("box-size").value));
  $("board").addEventListener("keydown", boardKey);
  $("contrast").addEventListener("click", () => setContrast(!document.body.classList.contains("contrast")));
  setContrast(localStorage.getItem(CONTRAST_KEY) === "on");
  $("board").addEventListener("click", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell) clickCell(Number(cell.dataset.cell));
  });
  $("game").addEventListener("change", () => { $("custom-game").value = ""; fillSides(); });
  $("custom-game").addEventListener("change", fillSides);
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    replacing("a new machine", async () => {
      const v = await api("POST", at("/machine"), machineSettings());
      resetPanels();
      say(`A new machine: ${v.machine} plays ${v.machine_side} in ${v.game}.`, true);
      render(v);
      await refreshExtras();
    });
  });
  $("new-game").addEventListener("click", () => busyWhile(async () => {
    say("");
    render(await api("POST", at("/game")));
    await refreshBoxes();
  }));
  $("referee").addEventListener("change", () => guarded(async () => {
    render(await api("POST", at("/referee"), { on: $("referee").checked }));
  }));
  $("resign").addEventListener("click", () => busyWhile(async () => {
    if (isStudent()) {
      // A student resigns their game on the class machine.
      showStudent(await api("POST", "/api/class/resign"), true);
      return;
    }
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
      state.watched = false;
      render(v);
      await poll();
    }));
  });
  $("pause").addEventListener("click", () => setPaused(!state.paused));
  $("step").addEventListener("click", () => { state.stepOnce = true; });
  $("stop").addEventListener("click", () => {
    state.stopWatching = true;
    // A training run stops, and so does a watched game under way (left unfinished).
    guarded(() => api("POST", at("/stop")));
  });
  $("reset").addEventListener("click", () => replacing("fresh boxes", async () => {
    const v = await api("POST", at("/machine"), { ...machineSettings(), game: state.view.game, side: state.view.machine_side.toLowerCase() });
    resetPanels();
    say(`${v.machine} starts again with fresh boxes.`, true);
    render(v);
    await refreshExtras();
  }));
  $("replace-no").addEventListener("click", () => { $("confirm-replace").hidden = true; });
  $("upload").addEventListener("change", () => guarded(async () => {
    const file = $("upload").files[0];
    if (!file) return;
    const text = await file.text();
    const undo = await undoable();
    const v = await api("PUT", at("/state"), text, true);
    offerUndo(undo);
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
    resized = setTimeout(() => { if (state.lastCurves) renderCurves(state.lastCurves); }, 150);
  });
}

async function main() {
  wireOffline();
  wire();
  wireClass();
  showSpeed();
  // A classroom's server: a student (or a guest, who joins first) sees the
  // class machine; the teacher's page drives it.
  let k = await api("GET", "/api/class");
  if (!k || !k.class) k = null;
  if (k && k.class.role !== "teacher") {
    document.body.classList.add("student");
    state.klass = k;
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
    // The teacher's link has done its work (the server keeps the teacher
    // in a cookie): its token leaves the address bar, off the projector.
    const address = new URL(location.href);
    if (address.searchParams.has("teacher")) {
      address.searchParams.delete("teacher");
      history.replaceState(null, "", address.pathname + address.search + address.hash);
    }
    state.session = k.session;
    sessionStorage.setItem(KEY, state.session);
    renderClass(k);
  }
  const catalogue = await api("GET", "/api/games");
  state.games = catalogue.games;
  for (const g of state.games) $("game").add(new Option(g.title, g.spec));
  await fillSides();
  await guarded(async () => {
    if (state.session) {
      render(await api("GET", at("")));
      await refreshExtras();
      if (state.view.training.running) await poll();
    } else {
      await start({});
      const kept = await restore();
      if (kept) {
        render(kept);
        await refreshExtras();
      }
    }
  });
  const g = state.games.find((x) => x.spec === state.view?.game);
  if (g) { $("game").value = g.spec; await fillSides(); $("side").value = state.view.machine_side.toLowerCase(); }
  document.body.dataset.ready = "yes";
  performance.mark("menace-ready");
  if (k) followClass();
}

main().catch((e) => say(e.message));
