// Line charts drawn as SVG: one chart, several series, axes with ticks.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Round numbers for axis ticks between lo and hi.
function ticks(lo, hi, count) {
  const span = hi - lo || 1;
  const raw = span / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(+t.toFixed(10));
  return out;
}

// Draw into `host` a chart: {title, xLabel, yLabel, yMin?, yMax?, series: [{name, colour, points: [[x, y]]}]}.
export function lineChart(host, spec) {
  const W = 460, H = 230, L = 52, R = 12, T = 26, B = 38;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": spec.title, class: "line-chart" });
  svg.appendChild(el("text", { x: L, y: 16, "font-size": 13, "font-weight": "bold" }, spec.title));
  const all = spec.series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const x0 = xs.length ? Math.min(...xs) : 0;
  const x1 = xs.length ? Math.max(...xs, x0 + 1) : 1;
  let y0 = spec.yMin ?? (ys.length ? Math.min(...ys, 0) : 0);
  let y1 = spec.yMax ?? (ys.length ? Math.max(...ys, 1) : 1);
  if (y1 === y0) y1 = y0 + 1;
  const px = (x) => L + ((x - x0) / (x1 - x0 || 1)) * (W - L - R);
  const py = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
  const axes = el("g", { stroke: "#999", "stroke-width": 1 });
  axes.appendChild(el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B }));
  axes.appendChild(el("line", { x1: L, y1: T, x2: L, y2: H - B }));
  svg.appendChild(axes);
  for (const t of ticks(y0, y1, 5)) {
    svg.appendChild(el("line", { x1: L, x2: W - R, y1: py(t), y2: py(t), stroke: "#eee" }));
    svg.appendChild(el("text", { x: L - 5, y: py(t) + 4, "font-size": 10, "text-anchor": "end", fill: "#555" }, String(t)));
  }
  for (const t of ticks(x0, x1, 6)) {
    if (!Number.isInteger(t)) continue;
    svg.appendChild(el("text", { x: px(t), y: H - B + 14, "font-size": 10, "text-anchor": "middle", fill: "#555" }, String(t)));
  }
  svg.appendChild(el("text", { x: (L + W - R) / 2, y: H - 6, "font-size": 11, "text-anchor": "middle", fill: "#333" }, spec.xLabel));
  svg.appendChild(el("text", { x: 12, y: (T + H - B) / 2, "font-size": 11, "text-anchor": "middle", fill: "#333", transform: `rotate(-90 12 ${(T + H - B) / 2})` }, spec.yLabel));
  let lx = L + 8;
  for (const s of spec.series) {
    if (s.points.length) {
      const d = s.points.map((p, i) => `${i ? "L" : "M"}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`).join("");
      svg.appendChild(el("path", { d, fill: "none", stroke: s.colour, "stroke-width": 2, class: "series", "data-series": s.name }));
    }
    svg.appendChild(el("rect", { x: lx, y: T - 2, width: 10, height: 4, fill: s.colour }));
    svg.appendChild(el("text", { x: lx + 13, y: T + 3, "font-size": 10, fill: "#333" }, s.name));
    lx += 20 + s.name.length * 6;
  }
  if (!all.length) {
    svg.appendChild(el("text", { x: (L + W) / 2, y: (T + H - B) / 2, "font-size": 12, "text-anchor": "middle", fill: "#888" }, "no games yet"));
  }
  host.replaceChildren(svg);
}
