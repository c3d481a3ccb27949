// The one way the page asks for anything: every request goes through
// `api`, to `menace serve` or, in the page file, to the engine inside it,
// so that one engine answers them whatever carries them.

import * as engine from "./engine.js";
import { state } from "./state.js";

// A request's answer as sent: {status, kind, body (text), file}.
async function send(method, path, body, raw) {
  const text = body === undefined ? undefined : raw ? body : JSON.stringify(body);
  if (engine.local) return engine.request(method, path, text);
  const init = { method, headers: {} };
  if (text !== undefined) {
    init.body = text;
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(path, init);
  const disposition = response.headers.get("content-disposition") || "";
  const file = (disposition.match(/filename="([^"]+)"/) || [])[1] || null;
  return { status: response.status, kind: response.headers.get("content-type"), body: await response.text(), file };
}

// A request; a refusal comes back as {error} and is shown, not thrown.
export async function api(method, path, body, raw) {
  const answer = await send(method, path, body, raw);
  let data = null;
  try { data = answer.body ? JSON.parse(answer.body) : null; } catch { data = null; }
  if (answer.status >= 400) {
    const error = new Error((data && data.error) || `${answer.status}`);
    error.status = answer.status;
    throw error;
  }
  return data;
}

// A file the page downloads (the machine, the curves): its text and name.
export async function file(path) {
  const answer = await send("GET", path);
  if (answer.status >= 400) {
    let message = `${answer.status}`;
    try { message = JSON.parse(answer.body).error; } catch { /* not JSON */ }
    throw new Error(message);
  }
  return answer;
}

export const at = (suffix) => `/api/sessions/${state.session}${suffix}`;
