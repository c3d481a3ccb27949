// The engine inside the committed page file, run under node: the module is
// taken out of site/menace.html as the page takes it (base64, gzip), given
// the page's two imports, and sent the requests read as JSON on stdin
// ([{method, path, body}]); a request with "until_idle" plays training on
// until it ends, as the page's worker does; "{id}" in a path is the session
// the last reply that named one made, and "body_from": K sends reply K's
// body. Prints the replies as JSON.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const [page] = process.argv.slice(2);
const html = readFileSync(page, "utf8");
const wasm = gunzipSync(Buffer.from(html.match(/MENACE_WASM = "([^"]+)"/)[1], "base64"));
let seed = 0;
const { instance } = await WebAssembly.instantiate(wasm, {
  menace: { now_ms: () => performance.now(), random_seed: () => ++seed },
});
const e = instance.exports;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function ask(request) {
  const bytes = encoder.encode(JSON.stringify(request));
  const at = e.menace_alloc(bytes.length);
  new Uint8Array(e.memory.buffer, at, bytes.length).set(bytes);
  const out = e.menace_request(at, bytes.length);
  return JSON.parse(decoder.decode(new Uint8Array(e.memory.buffer, out, e.menace_reply_len())));
}

const requests = JSON.parse(readFileSync(0, "utf8"));
const replies = [];
let id = "";
for (const r of requests) {
  if (r.until_idle) {
    while (e.menace_step(40)) { /* a slice at a time, as the worker does */ }
    continue;
  }
  const body = r.body_from !== undefined ? replies[r.body_from].body : r.body ?? "";
  const reply = ask({ method: r.method, path: r.path.replace("{id}", id), body });
  try { id = JSON.parse(reply.body).session ?? id; } catch { /* not JSON */ }
  replies.push(reply);
}
process.stdout.write(JSON.stringify(replies));
