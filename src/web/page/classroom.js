// The classroom (`menace serve --classroom`): the class panel, a student's
// page, and the teacher's page following the students' games.

import { guarded } from "./actions.js";
import { api } from "./api.js";
import { highlight } from "./board.js";
import { refreshExtras } from "./boxes.js";
import { render } from "./render.js";
import { $, isStudent, pause, say, state } from "./state.js";

// What the board shows, to redraw only when it changes.
const boardSign = (v) => `${v.games_played}|${v.board.history.join(" ")}|${v.board.over}`;
// And, the class being the machine, who draws: a pupil's page redraws its
// box's prompt when the box changes hands.
const drawSign = (k) => (k ? `${k.class.mode}|${k.class.drawer || ""}|${k.class.your_draw}|${k.class.cups}` : "");

export function renderClass(k) {
  state.klass = k;
  const c = k.class;
  $("class-panel").hidden = false;
  $("class-join").hidden = c.role !== "guest";
  $("class-info").hidden = c.role === "guest";
  document.body.dataset.role = c.role;
  document.body.classList.toggle("class-machine", c.mode === "machine");
  // A guest is told nothing of the class but how to join it.
  if (c.role === "guest") return;
  $("class-new-code").hidden = c.role !== "teacher";
  if (c.role === "teacher") {
    $("class-code").textContent = `Join at ${k.join} with the code ${c.code}`;
    // The join address as a QR code, for phones at the back of the room.
    if (k.join_qr && $("class-qr").dataset.join !== k.join) {
      $("class-qr").innerHTML = k.join_qr;
      $("class-qr").dataset.join = k.join;
    }
    $("class-qr").hidden = !k.join_qr;
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
        ? over
          ? `It is ${c.playing}'s turn: the game starts when ${c.playing} presses Start.${waiting}`
          : `${c.playing} is playing the class machine.${waiting}`
        : c.mode === "machine"
          ? `The class is ${k.view ? k.view.machine : "the machine"}: when the game reaches a box, its holder draws the bead.${waiting}`
          : `No game on the board.${waiting}${c.role === "student" ? " Press Play a game." : ""}`;
  $("class-play").hidden = c.role !== "student" || Boolean(c.queued) || (c.your_turn && !over);
  $("class-leave").hidden = c.role !== "student";
  $("class-play").textContent = c.your_turn ? "Start your game" : "Play a game";
  $("class-skip").hidden = c.role !== "teacher" || !c.playing;
  // The clock of the turn on the board, counted down by each look at the class.
  $("class-clock").textContent = c.seconds_left == null || !c.playing
    ? ""
    : c.your_turn
      ? `You have ${c.seconds_left} s to move, or the turn passes.`
      : `${c.playing} has ${c.seconds_left} s to move.`;
  if (c.role === "teacher") renderManage(c);
  renderMachine(c);
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
    li.textContent = g.replaced ? g.result : `${g.student}: ${g.moves.length ? g.moves.join(" ") : "no moves"}. ${g.result}`;
    return li;
  }));
  document.body.dataset.classGames = String(c.games);
}

export function showStudent(k, fresh) {
  const drew = drawSign(state.klass);
  renderClass(k);
  // A guest (who has not joined, or left) is shown only how to join.
  if (k.class.role === "guest") return;
  // The student's own game just ended (the board has gone to the next player): say how.
  // Told by the server, by who the student is (never by a name, which another could give).
  const last = k.class.your_last;
  if (state.seenGames !== null && last && last.game > state.seenGames) {
    say(`Your game against the class machine: ${last.result}`, true);
  }
  state.seenGames = k.class.games;
  // Why their turn ended without their game (skipped, or their time ran out), said once.
  const notice = k.class.notice;
  if (notice && state.seenNotice !== null && notice.number > state.seenNotice) say(notice.words, true);
  state.seenNotice = notice ? notice.number : 0;
  state.studentTurn = k.class.your_turn && !k.view.board.over;
  if (fresh || !state.view || boardSign(k.view) !== boardSign(state.view) || drawSign(k) !== drew) render(k.view);
  else highlight();
  if (!state.studentTurn && !k.view.board.over) {
    $("status").textContent = k.class.playing ? `${k.class.playing} is playing.` : "No game on the board.";
  } else if (k.view.board.over) {
    // A student has no New game button: the queue is how to play again.
    const next = k.class.your_turn
      ? "Your turn: press Start your game."
      : k.class.queued ? `You are number ${k.class.queued} in the queue.` : "Press Play a game to play.";
    $("status").textContent = `${k.view.board.result || "The game is over."} ${next}`;
  }
}

// The class is the machine, and it must draw from box `d`: its holder is
// told to draw (on screen, or from the real cup, saying the colour), the
// rest of the class whose box it is, and the teacher may draw for them.
export function drawInClass(d, k, title, choices) {
  const button = (text, body) => {
    const b = document.createElement("button");
    b.type = "button";
    b.append(...text);
    b.addEventListener("click", () => guarded(async () => {
      const answer = await api("POST", "/api/class/bead", body);
      if (isStudent()) showStudent(answer, true);
      else {
        renderClass(answer);
        render(answer.view);
        if (answer.view.board.over) await refreshExtras();
      }
    }));
    choices.appendChild(b);
    return b;
  };
  const who = k.drawer || "nobody";
  if (k.your_draw) {
    title.textContent = k.cups
      ? `${d.moment}: your box ${d.box}. Draw one bead from your cup without looking, and click its colour.`
      : `${d.moment}: your box ${d.box}. Press Draw a bead.`;
    if (k.cups) {
      const held = d.beads.filter((b) => b.beads > 0);
      for (const b of held) {
        const sw = document.createElement("span");
        sw.className = "swatch";
        sw.style.background = b.css;
        button([sw, `${b.colour}: ${b.move}`], { colour: b.colour }).dataset.colour = b.colour;
      }
      if (!held.length) button(["The cup is empty"], { empty: true }).dataset.colour = "";
    } else {
      button(["Draw a bead"], { draw: true }).id = "draw-bead";
    }
    $("status").textContent = `Your box ${d.box}: draw a bead.`;
  } else if (k.role === "teacher") {
    title.textContent = `${d.moment}: box ${d.box} is ${who}'s. ${k.drawer ? `${k.drawer} draws a bead.` : "Draw for the class."}`;
    button([k.drawer ? `Draw for ${k.drawer}` : "Draw a bead"], { draw: true }).id = "draw-for";
    $("status").textContent = `Box ${d.box}: ${who} draws.`;
  } else {
    title.textContent = `${d.moment}: box ${d.box} is ${who}'s: ${who} draws a bead.`;
    $("status").textContent = `${who} draws from box ${d.box}.`;
  }
}

// The class is the machine: whose box is drawn from, a pupil's boxes and
// what to do to them after a game, and for the teacher every pupil's
// changes and the deal.
function renderMachine(c) {
  const machine = c.mode === "machine";
  $("class-machine").hidden = !machine;
  if (!machine) return;
  $("class-drawer").textContent = c.drawer ? `The machine draws from ${c.drawer}'s box.` : "";
  $("class-your-boxes").textContent = c.your_boxes
    ? c.your_boxes.length ? `You hold ${c.your_boxes.length === 1 ? "box" : "boxes"} ${c.your_boxes.join(", ")}.` : "You hold no box yet."
    : "";
  const lines = (host, items) => host.replaceChildren(...items.map((t) => {
    const p = document.createElement("p");
    p.textContent = t;
    return p;
  }));
  if (c.your_changes) {
    lines($("class-your-changes"), c.your_changes.length
      ? ["After the game, put every bead drawn back, then:", ...c.your_changes]
      : []);
  }
  if (c.changes) {
    lines($("class-changes"), c.changes.flatMap((p) => [`${p.name}:`, ...p.lines.map((l) => `  ${l}`)]));
  }
  $("class-deal-panel").hidden = !c.deal;
  if (c.deal) {
    $("class-deal").querySelector("tbody").replaceChildren(...c.deal.map((p) => {
      const tr = document.createElement("tr");
      for (const x of [p.name, p.boxes.join(", ") || "none"]) {
        const td = document.createElement("td");
        td.textContent = x;
        tr.appendChild(td);
      }
      return tr;
    }));
  }
}

// The teacher's tools: rename or remove a student, the seconds a student
// has for each move, and students per device. What the teacher is typing
// is left alone by the page's looks at the class.
function renderManage(c) {
  $("class-manage").hidden = false;
  if ($("class-cups").dataset.shown !== String(c.cups)) {
    $("class-cups").checked = Boolean(c.cups);
    $("class-cups").dataset.shown = String(c.cups);
  }
  const select = $("class-student");
  const wanted = c.students.map((s) => `${s.number}:${s.name}`).join("|");
  if (select.dataset.students !== wanted) {
    const chosen = select.value;
    select.replaceChildren(...c.students.map((s) => new Option(s.name, String(s.number))));
    if (c.students.some((s) => String(s.number) === chosen)) select.value = chosen;
    select.dataset.students = wanted;
  }
  for (const [id, value] of [["class-move-seconds", c.move_seconds], ["class-per-device", c.per_device], ["class-mode", c.mode]]) {
    if (document.activeElement !== $(id) && $(id).dataset.shown !== String(value)) {
      $(id).value = String(value);
      $(id).dataset.shown = String(value);
    }
  }
}

// Removing takes two presses: the first says whom, the second removes.
function disarm() {
  delete $("class-remove").dataset.armed;
  $("class-remove").textContent = "Remove";
}

// Every second, the class as it stands: a student's board, or the teacher's
// page (the projector) following the students' games.
export async function followClass() {
  for (;;) {
    await pause(1000);
    if (state.busy || state.polling || state.watching) continue;
    try {
      const k = await api("GET", "/api/class");
      if (isStudent()) {
        showStudent(k, false);
      } else {
        const drew = drawSign(state.klass);
        renderClass(k);
        if (!state.view || boardSign(k.view) !== boardSign(state.view) || drawSign(k) !== drew) {
          const ended = !state.view || k.view.games_played !== state.view.games_played;
          render(k.view);
          if (ended) await refreshExtras();
        } else {
          highlight();
        }
        // The board is the student's: the teacher's page says whose moves these are.
        if (k.class.playing && !k.view.board.over) $("status").textContent = `${k.class.playing} is playing the class machine.`;
      }
    } catch (e) {
      say(e.message);
    }
  }
}

export function wireClass() {
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(async () => {
      const k = await api("POST", "/api/class/join", { code: $("join-code").value.trim(), name: $("join-name").value.trim() });
      showStudent(k, true);
      say(k.class.mode === "machine"
        ? `Welcome, ${k.class.you}: you are part of the class machine. When the game reaches one of your boxes, draw its bead here.`
        : `Welcome, ${k.class.you}: press Play a game to play the class's machine.`, true);
    });
  });
  $("class-skip").addEventListener("click", () => guarded(async () => {
    // The turn this page shows: a skip sent as that game ends skips nobody else.
    const k = await api("POST", "/api/class/skip", { turn: state.klass.class.turn });
    renderClass(k);
    render(k.view);
  }));
  $("class-new-code").addEventListener("click", () => guarded(async () => {
    const k = await api("POST", "/api/class/code");
    renderClass(k);
    say(`A new join code: ${k.class.code}. The old one no longer works; the students in the class stay in it.`, true);
  }));
  $("class-student").addEventListener("change", disarm);
  $("class-rename").addEventListener("click", () => guarded(async () => {
    const student = Number($("class-student").value);
    if (!student) return;
    renderClass(await api("POST", "/api/class/rename", { student, name: $("class-new-name").value }));
    $("class-new-name").value = "";
  }));
  $("class-remove").addEventListener("click", () => guarded(async () => {
    const button = $("class-remove");
    const select = $("class-student");
    if (!select.value) return;
    if (button.dataset.armed !== select.value) {
      button.dataset.armed = select.value;
      button.textContent = `Press again to remove ${select.selectedOptions[0].text}`;
      return;
    }
    disarm();
    const name = select.selectedOptions[0].text;
    renderClass(await api("POST", "/api/class/remove", { student: Number(select.value) }));
    say(`${name} was removed from the class: their place is free.`, true);
  }));
  $("class-save-settings").addEventListener("click", () => guarded(async () => {
    const k = await api("POST", "/api/class/settings", {
      move_seconds: Number($("class-move-seconds").value),
      per_device: Number($("class-per-device").value),
      mode: $("class-mode").value,
      cups: $("class-cups").checked,
    });
    for (const id of ["class-move-seconds", "class-per-device", "class-mode", "class-cups"]) delete $(id).dataset.shown;
    renderClass(k);
    say("The class's settings are saved.", true);
  }));
  $("class-leave").addEventListener("click", () => guarded(async () => {
    const k = await api("POST", "/api/class/leave");
    renderClass(k);
    say("You left the class: join again with the code to come back.", true);
  }));
  $("class-print-deal").addEventListener("click", () => {
    document.body.classList.add("printing-deal");
    window.print();
    document.body.classList.remove("printing-deal");
  });
  $("class-play").addEventListener("click", () => guarded(async () => {
    showStudent(await api("POST", "/api/class/play"), true);
  }));
}
