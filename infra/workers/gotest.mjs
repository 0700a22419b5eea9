// gotest.mjs runs a Go test binary built for js/wasm inside workerd (through
// miniflare), with a fresh local D1 database bound as DB and migrated, and
// exits with the test binary's exit code, its output on stdout.
//
//   GOOS=js GOARCH=wasm go test -c -o d1.test.wasm ./functions/store/d1
//   node infra/workers/gotest.mjs d1.test.wasm -test.v
//
// The Worker below starts the binary on its first request (workerd allows
// no timers or randomness at global scope), hands it the env at
// globalThis.tesseraEnv, and answers with its exit code and output.
import { Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
import { compatibilityDate, migrate, wasmExec } from "./lib.mjs";

const [wasm, ...args] = process.argv.slice(2);
if (!wasm) {
  console.error("usage: node infra/workers/gotest.mjs TEST.wasm [test flags]");
  process.exit(2);
}

const runner = `
import "./wasm_exec.js";
import mod from "./test.wasm";
export default {
  async fetch(request, env) {
    const args = await request.json();
    globalThis.tesseraEnv = env;
    let out = "";
    const decoder = new TextDecoder();
    globalThis.fs.writeSync = (fd, buf) => { out += decoder.decode(buf); return buf.length; };
    const go = new Go();
    go.argv = ["test.wasm", ...args];
    go.env = {};
    let code = 0;
    go.exit = (c) => { code = c; };
    const instance = await WebAssembly.instantiate(mod, go.importObject);
    await go.run(instance);
    return Response.json({ code, out });
  },
};`;

const mf = new Miniflare({
  compatibilityDate,
  modules: [
    { type: "ESModule", path: "runner.mjs", contents: runner },
    { type: "ESModule", path: "wasm_exec.js", contents: wasmExec() },
    { type: "CompiledWasm", path: "test.wasm", contents: readFileSync(wasm) },
  ],
  d1Databases: { DB: "gotest" },
});
let code = 1;
try {
  await migrate(await mf.getD1Database("DB"));
  const res = await mf.dispatchFetch("http://gotest/", { method: "POST", body: JSON.stringify(args) });
  const text = await res.text();
  let result;
  try {
    result = JSON.parse(text);
  } catch {
    throw new Error(`the test Worker answered ${res.status}: ${text.slice(0, 2000)}`);
  }
  process.stdout.write(result.out);
  code = result.code;
} catch (err) {
  console.error("gotest:", err);
} finally {
  await mf.dispose();
}
process.exit(code);
