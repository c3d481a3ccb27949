// The board: drawn as the server sends it, clicked to move (a piece, then
// its target; several moves between the same cells offer a choice).

import { play } from "./actions.js";
import { $, isStudent, state } from "./state.js";

export function boardUpdated() {
  document.body.dataset.boardUpdates = String(Number(document.body.dataset.boardUpdates || 0) + 1);
}

export function renderBoard(b, v) {
  // Played by keyboard, the board keeps the focus when it is drawn again.
  const focused = $("board").contains(document.activeElement);
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
  if (focused) $("board").querySelector('.cell[tabindex="0"]')?.focus();
}

function cellElement(i) {
  return $("board").querySelector(`[data-cell="${i}"]`);
}

// Mark the cells a click can use: pieces that can move, or, with one chosen, its targets.
export function highlight() {
  for (const c of $("board").querySelectorAll(".cell")) c.classList.remove("movable", "selected", "target");
  mark();
  label();
}

function mark() {
  if (!state.view || state.view.training.running || state.watching || (isStudent() && !state.studentTurn)) return;
  // During a student's turn the class machine's board is theirs, not the teacher's.
  if (studentOnBoard()) return;
  for (const m of state.view.board.moves) {
    if (state.selected !== null) {
      if (m.from === state.selected && m.to !== null) cellElement(m.to)?.classList.add("target");
    } else if (m.from !== null) {
      cellElement(m.from)?.classList.add("movable");
    } else if (m.to !== null) {
      cellElement(m.to)?.classList.add("target");
    }
  }
  if (state.selected !== null) cellElement(state.selected)?.classList.add("selected");
}

// The board by keyboard and screen reader: every cell a button named by
// its cell and what a press does; one of them in the tab order (the
// chosen piece, else the first that can move), the arrow keys move
// between neighbouring cells, Enter or Space presses.
function label() {
  const cells = [...$("board").querySelectorAll(".cell")];
  const first = cells.find((c) => c.classList.contains("selected"))
    || cells.find((c) => c.classList.contains("movable") || c.classList.contains("target"))
    || cells[0];
  const focused = document.activeElement?.closest?.(".cell");
  for (const c of cells) {
    const name = c.dataset.name;
    const what = c.classList.contains("selected") ? ", chosen: press a target"
      : c.classList.contains("target") ? ", move here"
        : c.classList.contains("movable") ? ", can move" : "";
    c.setAttribute("role", "button");
    c.setAttribute("aria-label", `${name}${what}`);
    c.setAttribute("tabindex", c === (focused || first) ? "0" : "-1");
  }
}

// Arrow keys: to the nearest cell that way on screen; Enter or Space: a press.
export function boardKey(e) {
  const cell = e.target.closest?.(".cell");
  if (!cell) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    const name = cell.dataset.name;
    clickCell(Number(cell.dataset.cell));
    // The board may be drawn again: the focus stays on the same cell.
    $("board").querySelector(`.cell[data-name="${CSS.escape(name)}"]`)?.focus();
    return;
  }
  const way = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
  if (!way) return;
  e.preventDefault();
  const centre = (c) => { const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  const [x, y] = centre(cell);
  let best = null;
  let bestScore = Infinity;
  for (const c of $("board").querySelectorAll(".cell")) {
    const [cx, cy] = centre(c);
    const along = (cx - x) * way[0] + (cy - y) * way[1];
    if (along <= 1) continue;
    const across = Math.abs((cx - x) * way[1] + (cy - y) * way[0]);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = c; }
  }
  if (!best) return;
  cell.setAttribute("tabindex", "-1");
  best.setAttribute("tabindex", "0");
  best.focus();
}

// The teacher's page, while a student plays the class machine.
function studentOnBoard() {
  return !isStudent() && Boolean(state.klass?.class?.playing);
}

export function clickCell(i) {
  if (state.busy || state.watching || !state.view || state.view.board.over || state.view.training.running) return;
  if (studentOnBoard()) return;
  if (isStudent() && !state.studentTurn) return;
  const moves = state.view.board.moves;
  $("choices").replaceChildren();
  const candidates = state.selected !== null
    ? moves.filter((m) => m.from === state.selected && m.to === i)
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
  state.selected = moves.some((m) => m.from === i) && state.selected !== i ? i : null;
  highlight();
}
