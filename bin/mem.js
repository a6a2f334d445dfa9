#!/usr/bin/env node
// The `mem` command: runs the bundled CLI (dist/mem.cjs, built by `npm ci` through `prepare`)
// through V8's code cache. Compiling the bundle is a third of a start; with the cache, a start
// costs about 2.5x bare node instead of 3.7x (bench/cli-start). The cache sits beside the
// bundle, is written atomically after the first run, and V8 itself rejects a stale one (the
// bundle changed, or node did), which is then written again. Any failure to write it is ignored.
import { readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import vm from "node:vm"

const bundle = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "mem.cjs")
const cacheFile = `${bundle}.v8cache`
let cachedData
try {
  cachedData = readFileSync(cacheFile)
} catch {}

// A reader that stops early (`mem log | head`) closes the pipe: the output ends there, which is
// not an error worth a stack trace. Every write to the store has committed before its output.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error
  process.exit(0)
})

const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, "utf8")}\n})`, {
  filename: bundle,
  cachedData
})
const module = { exports: {} }
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle))

// Written at exit, so the cache holds the functions this command compiled, not only start-up's.
if (cachedData === undefined || script.cachedDataRejected) {
  process.once("exit", () => {
    try {
      const temporary = `${cacheFile}.${process.pid}`
      writeFileSync(temporary, script.createCachedData())
      renameSync(temporary, cacheFile)
    } catch {}
  })
}
