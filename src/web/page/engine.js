// The engine inside the page file: with no server, the page's requests go
// to the engine built for WebAssembly, in a Web Worker so that the page
// never freezes while it trains. The page file sets MENACE_WASM (the
// module, gzip-compressed, in base64); served by `menace serve`, it is
// unset and every request goes to the server.

// Whether this page carries its own engine.
export const local = typeof globalThis.MENACE_WASM === "string";

// Bytes of base64 text, gunzipped.
export async function unpacked(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

// The worker's program: the module instantiated with the clock and the
// seed it imports, each request answered in turn, and a training run
// played a slice at a time between messages.
function worker() {
  let wasm = null;
  let stepping = false;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const imports = {
    menace: {
      now_ms: () => performance.now(),
      random_seed: () => {
        const words = new Uint32Array(2);
        crypto.getRandomValues(words);
        return (words[0] & 0x1fffff) * 4294967296 + words[1];
      },
    },
  };
  function step() {
    stepping = false;
    if (wasm.menace_step(40) && !stepping) {
      stepping = true;
      setTimeout(step, 0);
    }
  }
  function ask(request) {
    const bytes = encoder.encode(JSON.stringify(request));
    const at = wasm.menace_alloc(bytes.length);
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    const out = wasm.menace_request(at, bytes.length);
    const reply = JSON.parse(decoder.decode(new Uint8Array(wasm.memory.buffer, out, wasm.menace_reply_len())));
    if (!stepping) {
      stepping = true;
      setTimeout(step, 0);
    }
    return reply;
  }
  self.onmessage = async (event) => {
    const m = event.data;
    if (m.module) {
      try {
        const instance = await WebAssembly.instantiate(await WebAssembly.compile(m.module), imports);
        wasm = instance.exports;
        self.postMessage({ ready: true });
      } catch (e) {
        self.postMessage({ failed: `this browser cannot run the page's engine (${e.message})` });
      }
      return;
    }
    try {
      self.postMessage({ id: m.id, reply: ask(m.request) });
    } catch (e) {
      self.postMessage({ id: m.id, reply: { status: 500, kind: "application/json", body: JSON.stringify({ error: `the page's engine failed: ${e.message}; reload the page` }) } });
    }
  };
}

let started = null;
let asked = 0;
const waiting = new Map();

function start() {
  started = (async () => {
    const source = `(${worker.toString()})();`;
    const w = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
    const ready = new Promise((resolve, reject) => {
      // The engine could not start, or stopped (a fault): every request waiting is answered so.
      const fail = (message) => {
        // The next request starts a fresh engine.
        started = null;
        reject(new Error(message));
        for (const [id, done] of waiting) {
          waiting.delete(id);
          done({ status: 500, kind: "application/json", body: JSON.stringify({ error: `${message}; reload the page` }) });
        }
      };
      w.onerror = (event) => { event.preventDefault(); fail(`the page's engine stopped (${event.message || "a fault"})`); };
      w.onmessage = (event) => {
        if (event.data.ready) { resolve(); return; }
        if (event.data.failed) { fail(event.data.failed); return; }
        const done = waiting.get(event.data.id);
        waiting.delete(event.data.id);
        if (done) done(event.data.reply);
      };
    });
    w.postMessage({ module: await unpacked(globalThis.MENACE_WASM) });
    await ready;
    return w;
  })();
  return started;
}

// One request to the engine in the page: its reply {status, kind, body, file}.
export async function request(method, path, body) {
  let w;
  try {
    w = await (started || start());
  } catch (e) {
    return { status: 500, kind: "application/json", body: JSON.stringify({ error: e.message }) };
  }
  const id = ++asked;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, request: { method, path, body: body ?? "" } });
  });
}
