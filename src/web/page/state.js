// What the page knows, in one place: the session it drives, the view the
// server last sent, and what the page is doing (a move on its way, a run
// followed, games watched, the class). Every module reads and changes this
// one object; the helpers every module uses are here too.

import { plain } from "./charts.js";

export const $ = (id) => document.getElementById(id);

export const KEY = "menace-session";

// The page's state: one object, changed only through it.
export const state = {
  // The session (one machine) this tab drives, kept across reloads.
  session: sessionStorage.getItem(KEY),
  // The view the server last sent.
  view: null,
  // The games the server offers.
  games: [],
  // The cell chosen on the board, before its target.
  selected: null,
  // A training run is being followed.
  polling: false,
  // The curves last drawn, to draw again at a new size.
  lastCurves: null,
  // How many boxes the boxes view last listed.
  listedBoxes: -1,
  // How many box listings were asked for: an answer to an older one than
  // the last is dropped (a filter changed while a refresh was on its way).
  boxesAsked: 0,
  // One move at a time: clicks while a move is on its way are ignored.
  busy: false,
  // Games are being watched one by one.
  watching: false,
  // Games were watched since the last training run: the progress shows them.
  watched: false,
  // The person asked to stop watching.
  stopWatching: false,
  // Watching is paused after the game on the board; one more game is asked for.
  paused: false,
  stepOnce: false,
  // The class as the server last told it ({class, view}), or null: not a classroom.
  klass: null,
  // A student's game is on the board.
  studentTurn: false,
  // The class's games a student's page has seen.
  seenGames: null,
  seenNotice: null,
};

export const boxQuery = { page: 1, own_move: "", find: "", machine: "" };

// Games a second, slowest first; the last is "as fast as possible" (trained on the server).
export const SPEEDS = [0.5, 1, 2, 5, 10, 20, 50, Infinity];

export function say(text, ok) {
  const m = $("message");
  m.textContent = text || "";
  m.className = ok ? "ok" : "";
}

export const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

export const plural = (n, one, many) => `${plain(n)} ${n === 1 ? one : many}`;

export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const isStudent = () => state.klass !== null && state.klass.class.role !== "teacher";

// The opponent as a class reads it: a second machine by its machine's name.
export const opponentName = (o) => (o === "menace" ? `a second ${state.view ? state.view.machine : "machine"}` : o);
