// Generates src/api/schema.d.ts from the backend's OpenAPI schema (scripts/export_openapi.py), so the
// web app's API types never drift from the server. `--check` fails instead of writing when they differ.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const target = resolve(here, "../src/api/schema.d.ts");
const check = process.argv.includes("--check");

function python() {
  if (process.env.PYTHON) return process.env.PYTHON;
  const venv = resolve(repo, process.env.QUIRE_VENV ?? ".venv", "bin/python");
  return existsSync(venv) ? venv : "python3";
}

const json = execFileSync(python(), [resolve(repo, "scripts/export_openapi.py")], {
  cwd: repo,
  env: { ...process.env, QUIRE_ENV_FILE: "/dev/null" },
  maxBuffer: 32 * 1024 * 1024,
}).toString();
const ast = await openapiTS(JSON.parse(json));
const header =
  "/**\n * Generated from the backend's OpenAPI schema by `npm run gen:api`. Do not edit by hand.\n */\n\n";
const output = header + astToString(ast);

if (check) {
  const current = existsSync(target) ? readFileSync(target, "utf8") : "";
  if (current !== output) {
    console.error("src/api/schema.d.ts is out of date with the backend: run `npm run gen:api`.");
    process.exit(1);
  }
} else {
  writeFileSync(target, output);
  console.log(`wrote ${target}`);
}
