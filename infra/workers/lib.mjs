// Helpers shared by serve.mjs (the local Worker) and gotest.mjs (Go test
// binaries inside workerd). Node only: none of this runs in the Worker.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, "..", "..");

// compatibilityDate is the Workers runtime behaviour the Worker is written
// against; wrangler.toml says the same (a test compares them).
export const compatibilityDate = "2026-07-30";

// wasmExec is Go's own wasm_exec.js, from the Go that built the module.
export function wasmExec() {
  const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
  return readFileSync(join(goroot, "lib", "wasm", "wasm_exec.js"), "utf8");
}

// migrate applies every migration under migrations/ to a D1 database, in
// name order, one statement at a time.
export async function migrate(db) {
  const dir = join(here, "migrations");
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".sql")).sort()) {
    const sql = readFileSync(join(dir, name), "utf8").replace(/--.*$/gm, "");
    for (const statement of sql.split(";").map((s) => s.trim()).filter(Boolean)) {
      await db.prepare(statement).run();
    }
  }
}
