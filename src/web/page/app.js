// The classroom page: one machine per tab (a session on the server), played
// by clicking on the board, watched or trained against an opponent, its
// boxes shown a page at a time and printed. This module wires the page's
// controls and starts it; the work is in the modules it imports.

import { ask, busyWhile, fillSides, guarded, machineSettings, poll, resetPanels, showSpeed, speed, start, watch } from "./actions.js";
import { api, at } from "./api.js";
import { clickCell } from "./board.js";
import { refreshBoxes, refreshExtras } from "./boxes.js";
import { followClass, renderClass, showStudent, wireClass } from "./classroom.js";
import { restore, wireOffline } from "./offline.js";
import { render, renderCurves } from "./render.js";
import { $, boxQuery, isStudent, KEY, say, state } from "./state.js";

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
  $("stop").addEventListener("click", () => {
    state.stopWatching = true;
    // A training run stops, and so does a watched game under way (left unfinished).
    guarded(() => api("POST", at("/stop")));
  });
  $("reset").addEventListener("click", () => guarded(async () => {
    const v = await api("POST", at("/machine"), { ...machineSettings(), game: state.view.game, side: state.view.machine_side.toLowerCase() });
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
