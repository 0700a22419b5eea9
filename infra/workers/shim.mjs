// The Worker: a shim between the Workers runtime and the Go module
// (functions/worker, GOOS=js GOARCH=wasm). docs/workers.md has the design.
//
// - The module is imported as a compiled WebAssembly.Module (workerd does
//   not compile wasm from bytes at run time).
// - Go starts on the first request, not at global scope (workerd allows no
//   timers or randomness there), and keeps running between requests:
//   main publishes its entry points at globalThis.tessera and then waits.
// - Each API request is one call into Go, which answers on a goroutine of
//   its own with a Promise: requests run concurrently, interleaved where
//   they wait for D1, each with its own http.Request and response.
// - If the Go program ends (a panic outside a request, a fatal error),
//   every request in flight answers 500 and the next request starts a new
//   instance.
import "./build/wasm_exec.js";
import module from "./build/tessera.wasm";

// instance is the running Go program: {go, exited, pending, api}, or null
// before the first request and after the program ended.
let instance = null;
let starting = null;

async function start(env) {
  const go = new globalThis.Go();
  go.argv = ["tessera"];
  go.env = {};
  const state = { go, exited: false, pending: new Set() };
  const ready = new Promise((resolve) => {
    globalThis.tessera = { env, ready: resolve };
  });
  // The end of the program is seen through go.exit, which wasm_exec calls
  // at once from whichever request was running Go. (Not through the
  // promise go.run returns: it was made by the first request, and workerd
  // drops continuations of a promise settled after its request ended.)
  let ended;
  const end = new Promise((resolve) => {
    ended = resolve;
  });
  go.exit = (code) => {
    state.exited = true;
    if (instance === state) instance = null;
    console.error(`tessera: the Go program ended (exit code ${code}); the next request starts a new one`);
    for (const p of state.pending) p.reject(new Error("the Go program ended"));
    state.pending.clear();
    ended("exited");
  };
  const wasm = await WebAssembly.instantiate(module, go.importObject);
  go.run(wasm).catch((err) => go.exit(`thrown: ${err}`));
  const first = await Promise.race([ready.then(() => "ready"), end]);
  if (first !== "ready") throw new Error("the Go program ended before it was ready");
  state.api = globalThis.tessera;
  return state;
}

async function running(env) {
  if (instance && !instance.exited && !instance.go.exited) return instance;
  if (!starting) {
    starting = start(env).then(
      (s) => {
        instance = s;
        starting = null;
        return s;
      },
      (err) => {
        starting = null;
        throw err;
      },
    );
  }
  return starting;
}

// call runs fn(api) and waits for its Promise, which a Go program that
// ends while it runs rejects.
function call(state, fn) {
  return new Promise((resolve, reject) => {
    const entry = { reject };
    state.pending.add(entry);
    Promise.resolve()
      .then(() => fn(state.api))
      .then(resolve, reject)
      .finally(() => state.pending.delete(entry));
  });
}

const nullBody = new Set([101, 204, 205, 304]);

function internalError(err) {
  console.error("tessera:", err && err.stack ? err.stack : String(err));
  return new Response(
    JSON.stringify({ error: { code: "internal", message: "Something went wrong on the server." } }) + "\n",
    {
      status: 500,
      headers: {
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    },
  );
}

async function api(request, env) {
  let state;
  try {
    state = await running(env);
  } catch (err) {
    return internalError(err);
  }
  const headers = [];
  for (const [k, v] of request.headers) headers.push([k, v]);
  const body =
    request.method === "GET" || request.method === "HEAD"
      ? undefined
      : new Uint8Array(await request.arrayBuffer());
  const remote = request.headers.get("CF-Connecting-IP") || "127.0.0.1";
  let res;
  try {
    res = await call(state, (go) =>
      go.serve({ method: request.method, url: request.url, headers, body, remote }),
    );
  } catch (err) {
    return internalError(err);
  }
  const empty = nullBody.has(res.status) || request.method === "HEAD";
  return new Response(empty ? null : res.body, { status: res.status, headers: res.headers });
}

// page answers a path of the page from the static assets, as the Go
// frontend decides (frontend.Resolve): which file, and its headers.
async function page(request, env) {
  let state;
  try {
    state = await running(env);
  } catch (err) {
    return internalError(err);
  }
  const url = new URL(request.url);
  const p = state.api.page(request.method, url.pathname);
  if (!p.file) {
    return new Response(p.body + "\n", {
      status: p.status,
      headers: [...p.headers, ["Content-Type", "text/plain; charset=utf-8"]],
    });
  }
  const asset = await env.ASSETS.fetch(new Request(new URL("/" + p.file, url), request));
  const res = new Response(nullBody.has(asset.status) ? null : asset.body, asset);
  for (const [k, v] of p.headers) res.headers.set(k, v);
  return res;
}

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === "/api" || path.startsWith("/api/")) return api(request, env);
    return page(request, env);
  },

  // The Cron Trigger: the clock sweep (moves for late seats) and expiry.
  async scheduled(controller, env, ctx) {
    const state = await running(env);
    ctx.waitUntil(call(state, (go) => go.scheduled()));
  },
};
