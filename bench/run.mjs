#!/usr/bin/env node
// Runs one benchmark: `node bench/run.mjs NAME [args...]`, NAME being bench/NAME.ts (a path
// below bench/ such as `retrieval/validate` works too).
//
// Bundles bench/NAME.ts (and the src/ it imports) with esbuild into bench/.out/NAME.mjs, then
// runs that file with node, passing the remaining arguments through. Bundling instead of a
// TypeScript loader keeps the measured process free of any on-the-fly compilation.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const here = dirname(fileURLToPath(import.meta.url))
const [name, ...args] = process.argv.slice(2)

if (!name || !/^[a-z][a-z0-9-]*(\/[a-z][a-z0-9-]*)*$/.test(name)) {
  console.error("usage: node bench/run.mjs NAME [args...]   (NAME is a file bench/NAME.ts, e.g. ingest)")
  process.exit(2)
}
const entry = join(here, `${name}.ts`)
if (!existsSync(entry)) {
  console.error(`no benchmark ${entry}`)
  process.exit(2)
}

const outdir = join(here, ".out")
mkdirSync(outdir, { recursive: true })
const outfile = join(outdir, `${name.replaceAll("/", "-")}.mjs`)

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  // Native addons stay outside the bundle and load from node_modules at run time.
  external: ["better-sqlite3", "sqlite-vec"],
  // Bundled CommonJS calls `require`, which an ES module does not have; give it one. The import
  // is aliased because bundled sources may import `createRequire` themselves (src/retrieval does),
  // and two top-level bindings of one name are a SyntaxError.
  banner: {
    js: 'import { createRequire as __benchCreateRequire } from "module"; const require = __benchCreateRequire(import.meta.url);'
  },
  logLevel: "warning"
})

// No --enable-source-maps by default: Effect reads `.stack` while running, and mapping those
// through a 5 MiB source map costs a quarter second inside the timed code. Pass it in
// BENCH_NODE_FLAGS when a stack trace needs reading.
const run = spawnSync(process.execPath, [...nodeFlags(), outfile, ...args], { stdio: "inherit" })
process.exit(run.status ?? 1)

/** Node flags for the bench process, e.g. BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=bench/.data/prof". */
function nodeFlags() {
  const flags = process.env.BENCH_NODE_FLAGS
  return flags ? flags.split(/\s+/).filter(Boolean) : []
}
