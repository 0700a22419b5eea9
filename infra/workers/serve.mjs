// serve.mjs runs the Worker locally under miniflare (workerd): the module
// and shim from build/ (make worker-build), a fresh in-memory D1 database
// bound as DB with the migrations applied, the page's files as Workers
// static assets, and the Cron Trigger fired every 10 s as on the local
// server. It serves until SIGINT or SIGTERM.
//
//   make worker PORT=8787      (builds, then runs this)
//   node infra/workers/serve.mjs --port 8787
//
// Environment, as for the local server: PORT (default 8787), RATE_LIMIT
// (per address per second, 0 off; default 20), PUSH=0 (no Web Push),
// PUSH_ALLOW_INSECURE=1 (http and loopback push endpoints, tests only),
// PUSH_SUBJECT (VAPID contact). It prints "listening on http://HOST:PORT"
// once it answers.
import { Miniflare } from "miniflare";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compatibilityDate, here, migrate, root } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT || "8787" },
    host: { type: "string", default: "127.0.0.1" },
    // build: where tessera.wasm and wasm_exec.js are (make worker-build
    // WORKER_BUILD=DIR); the tests build their own.
    build: { type: "string", default: join(here, "build") },
  },
});
for (const f of ["tessera.wasm", "wasm_exec.js"]) {
  if (!existsSync(join(values.build, f))) {
    console.error(`serve: ${join(values.build, f)} is missing: run make worker-build first`);
    process.exit(2);
  }
}

// bindings are the Worker's vars, taken from this process's environment.
const bindings = { PUBLIC_HOST: `${values.host}:${values.port}` };
for (const k of ["RATE_LIMIT", "PUSH", "PUSH_ALLOW_INSECURE", "PUSH_SUBJECT", "OPERATOR_TOKEN", "TESSERA_TEST_SEED"]) {
  if (process.env[k] !== undefined) bindings[k] = process.env[k];
}

// SweepEvery is how often the Cron Trigger fires here (every minute on
// Cloudflare, wrangler.toml).
const SweepEvery = 10_000;

const mf = new Miniflare({
  compatibilityDate,
  // The shim imports ./build/...: the modules are given by those names.
  modules: [
    { type: "ESModule", path: join(here, "shim.mjs") },
    { type: "ESModule", path: join(here, "build", "wasm_exec.js"), contents: readFileSync(join(values.build, "wasm_exec.js"), "utf8") },
    { type: "CompiledWasm", path: join(here, "build", "tessera.wasm"), contents: readFileSync(join(values.build, "tessera.wasm")) },
  ],
  modulesRoot: here,
  d1Databases: { DB: "tessera-local" },
  bindings,
  assets: {
    directory: join(root, "frontend", "static"),
    binding: "ASSETS",
    routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
    assetConfig: { html_handling: "none", not_found_handling: "none" },
  },
  host: values.host,
  port: Number(values.port), // 0: a free port, printed below
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  try {
    await mf.dispose();
  } finally {
    process.exit(code);
  }
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

let timer;
try {
  const url = await mf.ready;
  await migrate(await mf.getD1Database("DB"));
  const worker = await mf.getWorker();
  timer = setInterval(() => {
    worker.scheduled({ cron: "* * * * *" }).catch((err) => console.error("serve: scheduled:", err));
  }, SweepEvery);
  console.log(`listening on ${url.origin}`);
} catch (err) {
  console.error("serve:", err);
  await stop(1);
}
