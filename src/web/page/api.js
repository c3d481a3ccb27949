// The one way the page asks for anything: every request goes through
// `api`, so that one engine answers them whatever carries them.

import { state } from "./state.js";

// A request to the server; a refusal comes back as {error} and is shown, not thrown.
export async function api(method, path, body, raw) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = raw ? body : JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

export const at = (suffix) => `/api/sessions/${state.session}${suffix}`;
