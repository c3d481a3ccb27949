// Line charts drawn as SVG at the size they are shown (so text is the size
// it says, 14 px and up): one chart, several series, axes with ticks.

const NS = "http://www.w3.org/2000/svg";
const TEXT = 14;

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Round numbers for axis ticks between lo and hi (whole numbers only, for
// a count: no tick at half a bead).
function ticks(lo, hi, count, whole) {
  const span = hi - lo || 1;
  const raw = span / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const fine = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const step = whole ? Math.max(1, fine) : fine;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(+t.toFixed(10));
  return out;
}

// A number as a person reads it: thousands grouped (300 000), short decimals.
export function plain(x) {
  if (Number.isInteger(x)) {
    // A narrow no-break space: a number never wraps at its separator.
    const s = String(Math.abs(x)).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202F");
    return (x < 0 ? "−" : "") + s;
  }
  return (x < 0 ? "−" : "") + String(+Math.abs(x).toFixed(3));
}

// Words wide in pixels, roughly (DejaVu Sans averages 0.6 em).
const wide = (text, size) => text.length * size * 0.6;

// Draw into `host` a chart: {title, xLabel, yLabel, yMin?, yMax?, whole?,
// series: [{name, colour, points: [[x, y]]}]}. The y axis starts at yMin
// (the quantity's natural floor) or 0; `whole`: its ticks are whole numbers.
export function lineChart(host, spec) {
  const W = Math.max(280, Math.round(host.clientWidth || 460));
  const all = spec.series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const x0 = 0;
  const x1 = xs.length ? Math.max(...xs, 1) : 1;
  const y0 = spec.yMin ?? (ys.length ? Math.min(...ys, 0) : 0);
  let y1 = spec.yMax ?? (ys.length ? Math.max(...ys, y0 + 1) : 1);
  if (y1 <= y0) y1 = y0 + 1;
  const yTicks = ticks(y0, y1, 4, spec.whole);
  const L = 16 + TEXT + 8 + Math.max(...yTicks.map((t) => wide(plain(t), TEXT)));
  const R = 14;
  // The legend, wrapped onto as many lines as the width needs.
  const legend = [];
  let lx = L, ly = 0;
  for (const s of spec.series) {
    const w = 18 + wide(s.name, TEXT) + 16;
    if (lx + w > W - R && lx > L) { lx = L; ly += 1; }
    legend.push({ s, x: lx, line: ly });
    lx += w;
  }
  const T = 8 + TEXT + 8 + (ly + 1) * (TEXT + 6) + 6;
  const B = 2 * TEXT + 18;
  const H = Math.max(200, Math.round(W * 0.5));
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": spec.title, class: "line-chart" });
  svg.appendChild(el("text", { x: L, y: 8 + TEXT, "font-size": TEXT + 2, "font-weight": "bold", fill: "#222" }, spec.title));
  const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const py = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
  for (const t of yTicks) {
    svg.appendChild(el("line", { x1: L, x2: W - R, y1: py(t), y2: py(t), stroke: "#e4e4e4" }));
    svg.appendChild(el("text", { x: L - 6, y: py(t) + TEXT * 0.35, "font-size": TEXT, "text-anchor": "end", fill: "#444", class: "tick" }, plain(t)));
  }
  const axes = el("g", { stroke: "#888", "stroke-width": 1 });
  axes.appendChild(el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B }));
  axes.appendChild(el("line", { x1: L, y1: T, x2: L, y2: H - B }));
  svg.appendChild(axes);
  const xCount = Math.max(2, Math.floor((W - L - R) / (wide(plain(x1), TEXT) + 24)));
  for (const t of ticks(x0, x1, Math.min(6, xCount))) {
    if (!Number.isInteger(t)) continue;
    svg.appendChild(el("text", { x: px(t), y: H - B + TEXT + 4, "font-size": TEXT, "text-anchor": "middle", fill: "#444" }, plain(t)));
  }
  svg.appendChild(el("text", { x: (L + W - R) / 2, y: H - 6, "font-size": TEXT, "text-anchor": "middle", fill: "#222" }, spec.xLabel));
  const mid = (T + H - B) / 2;
  svg.appendChild(el("text", { x: 6 + TEXT, y: mid, "font-size": TEXT, "text-anchor": "middle", fill: "#222", transform: `rotate(-90 ${6 + TEXT} ${mid})` }, spec.yLabel));
  for (const s of spec.series) {
    if (!s.points.length) continue;
    const d = s.points.map((p, i) => `${i ? "L" : "M"}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`).join("");
    svg.appendChild(el("path", { d, fill: "none", stroke: s.colour, "stroke-width": 2.5, class: "series", "data-series": s.name }));
    // Few points: each one marked, so that one or two games already show.
    if (s.points.length <= 30) {
      for (const p of s.points) svg.appendChild(el("circle", { cx: px(p[0]), cy: py(p[1]), r: 3.5, fill: s.colour, class: "point" }));
    }
  }
  for (const { s, x, line } of legend) {
    const y = 8 + TEXT + 8 + line * (TEXT + 6) + TEXT;
    svg.appendChild(el("rect", { x, y: y - TEXT * 0.45, width: 14, height: 5, fill: s.colour }));
    svg.appendChild(el("text", { x: x + 18, y, "font-size": TEXT, fill: "#222" }, s.name));
  }
  if (!all.length) {
    svg.appendChild(el("text", { x: (L + W) / 2, y: mid, "font-size": TEXT, "text-anchor": "middle", fill: "#777" }, spec.empty || "no games yet"));
  }
  host.replaceChildren(svg);
}
