// The boxes view: a page of the machine's boxes at a time, filtered by
// move or position, the last game's boxes first.

import { plain } from "./charts.js";
import { api, at } from "./api.js";
import { legend, renderCurves } from "./render.js";
import { $, boxQuery, capitalised, plural, state } from "./state.js";

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

export async function refreshBoxes() {
  const asked = ++state.boxesAsked;
  const q = new URLSearchParams({ page: boxQuery.page });
  if (boxQuery.own_move) q.set("own_move", boxQuery.own_move);
  if (boxQuery.find) q.set("find", boxQuery.find);
  // The second machine's boxes, while it has one.
  const second = state.view && state.view.second_machine_boxes != null;
  $("box-machine-label").hidden = !second;
  if (!second) boxQuery.machine = "";
  $("box-machine").options[0].textContent = state.view ? state.view.machine : "the machine";
  $("box-machine").options[1].textContent = state.view ? `a second ${state.view.machine}` : "the second machine";
  $("box-machine").value = boxQuery.machine;
  if (boxQuery.machine) q.set("machine", boxQuery.machine);
  const b = await api("GET", at(`/boxes?${q}`));
  if (asked !== state.boxesAsked) return;
  state.listedBoxes = b.total;
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
  host.dataset.games = String(state.view.games_played);
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

export async function refreshExtras() {
  renderCurves(await api("GET", at("/curves")));
  await refreshBoxes();
}
