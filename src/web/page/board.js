// The board: drawn as the server sends it, clicked to move (a piece, then
// its target; several moves between the same cells offer a choice).

import { play } from "./actions.js";
import { $, isStudent, state } from "./state.js";

export function boardUpdated() {
  document.body.dataset.boardUpdates = String(Number(document.body.dataset.boardUpdates || 0) + 1);
}

export function renderBoard(b, v) {
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
export function highlight() {
  for (const c of $("board").querySelectorAll(".cell")) c.classList.remove("movable", "selected", "target");
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
