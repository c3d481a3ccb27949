// What the page file does with no server: its machine kept in this
// browser across reloads, files downloaded from the engine inside it, and
// labels printed by the browser, on pages of the paper's exact size.

import * as engine from "./engine.js";
import { api, at, file } from "./api.js";
import { $, say, state } from "./state.js";

// Where the machine is kept: its state file, as `menace train --save` writes it.
const MACHINE_KEY = "menace-machine";
// A kept machine this page could not read, set aside (never overwritten by a new one).
const UNREAD_KEY = "menace-machine-unread";

// Which machine is kept, after how many games: it is written once a game.
let kept = "";
// Nothing is kept before the kept machine is read back (the fresh one made first would replace it).
let restored = false;
const which = (v) => [v.game, v.machine_side, v.settings, v.seed, v.games_played].join("|");

// Keep the machine after a game or a run (not during one), or when it is replaced.
export async function keep(v) {
  if (!engine.local || !restored || v.training.running || which(v) === kept) return;
  kept = which(v);
  try {
    const text = (await file(at("/state"))).body;
    localStorage.setItem(MACHINE_KEY, text);
  } catch (e) {
    say(`This browser could not keep the machine (${e.message}): download it to keep it.`);
  }
}

// The machine kept in this browser, uploaded into the fresh session: its view, or null.
export async function restore() {
  const text = engine.local && localStorage.getItem(MACHINE_KEY);
  restored = true;
  if (!text) return null;
  try {
    const v = await api("PUT", at("/state"), text, true);
    kept = which(v);
    return v;
  } catch (e) {
    try {
      localStorage.setItem(UNREAD_KEY, text);
      localStorage.removeItem(MACHINE_KEY);
    } catch { /* the message says what happened */ }
    say(`The machine kept in this browser could not be read (${e.message}); it is set aside in this browser's storage as "${UNREAD_KEY}", and a new one is shown.`);
    return null;
  }
}

// A download from the engine: the file it names, saved by the browser.
async function download(path) {
  const f = await file(at(path));
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([f.body], { type: f.kind }));
  link.download = f.file || "menace.json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

// The labels, on the paper of this browser's language (Letter for en-US, else A4).
export async function printLabels(paper) {
  const sheet = await api("GET", at(`/labels?paper=${paper}`));
  const host = $("print-labels");
  host.replaceChildren();
  for (const svg of sheet.pages) {
    const page = document.createElement("div");
    page.className = "label-page";
    page.innerHTML = svg;
    host.append(page);
  }
  $("label-paper").textContent =
    `@page { size: ${sheet.width_mm}mm ${sheet.height_mm}mm; margin: 0; } .label-page { width: ${sheet.width_mm}mm; height: ${sheet.height_mm}mm; }`;
  document.body.classList.add("printing-labels");
  window.addEventListener("afterprint", () => document.body.classList.remove("printing-labels"), { once: true });
  window.print();
}


// The page file's links: downloads from the engine, labels printed.
export function wireOffline() {
  if (!engine.local) return;
  document.body.classList.add("offline");
  // The font, from the file's own bytes.
  engine.unpacked(globalThis.MENACE_FONT)
    .then((bytes) => document.fonts.add(new FontFace("DejaVu Sans", bytes)))
    .catch(() => { /* a sans-serif stands in */ });
  for (const [id, path] of [["download", "/state"], ["curves-csv", "/curves.csv"], ["curves-json", "/curves.json"]]) {
    $(id).addEventListener("click", (e) => {
      e.preventDefault();
      download(path).catch((err) => say(err.message));
    });
  }
  // Labels on either paper.
  const papers = [["a4", "A4"], ["letter", "Letter"]];
  $("labels-pdf").textContent = `Labels to print (${papers[0][1]})`;
  const other = document.createElement("a");
  other.id = "labels-other";
  other.href = "#";
  other.textContent = `(${papers[1][1]})`;
  $("labels-pdf").after(" ", other);
  for (const [link, [name]] of [[$("labels-pdf"), papers[0]], [other, papers[1]]]) {
    link.addEventListener("click", (e) => {
      e.preventDefault();
      printLabels(name).catch((err) => say(err.message));
    });
  }
  const note = document.createElement("p");
  note.id = "offline-note";
  note.textContent = "This page runs in your browser with nothing installed, and keeps its machine in this browser. " +
    "A class playing one machine from its own devices needs the program: menace serve --classroom.";
  document.querySelector("footer").append(note);
  state.session = null;
}
