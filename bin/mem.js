#!/usr/bin/env node
// The `mem` command: runs a bundle (built by `npm ci` through `prepare`) through V8's code cache.
// Compiling a bundle is a third of a start; with the cache, a start costs about 2.5x bare node
// instead of 3.7x (bench/cli-start). Each cache sits beside its bundle, is written atomically
// after the first run, and V8 itself rejects a stale one (the bundle changed, or node did),
// which is then written again. Any failure to write it is ignored.
//
// V8 checks that a cache belongs to this bundle and this node, but not that its bytes are intact
// (only its debug builds do): a damaged cache with a sound header aborts the process, and would
// abort every run until deleted. So a cache file is the SHA-256 of V8's data, then the data; one
// whose digest does not match is not given to V8, and is written again.
//
// Agent hooks (`mem hook EVENT`, run after every shell command an agent runs) start from their
// own small bundle, dist/hook.cjs; a command line it does not take as a hook goes on to the CLI,
// dist/mem.cjs. A bundle that requires a sibling (`./hook-store.cjs`) gets it run here too, so
// that it has a code cache of its own.
//
// CommonJS (bin/package.json says so), as node -e is: an ES module entry costs every start the
// ES module loader, a tenth of a bare node start.
const { createHash } = require("node:crypto")
const { readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs")
const { createRequire } = require("node:module")
const { join } = require("node:path")
const vm = require("node:vm")

const dist = join(__dirname, "..", "dist")
const DIGEST_BYTES = 32
const digest = (data) => createHash("sha256").update(data).digest()

// Once nothing is left to run, exit at once rather than let node tear its heap down piece by
// piece: the teardown of the store hooks' heap costs them about a sixth of a bare node start of
// CPU, on every agent event. 'exit' listeners still run; nothing here listens for beforeExit.
process.once("beforeExit", (code) => process.exit(code))

const loaded = new Map()

if (!(process.argv.includes("hook") && run("hook.cjs").handled)) {
  // A reader that stops early (`mem log | head`) closes the pipe: the output ends there, which
  // is not an error worth a stack trace. Every write to the store has committed before its
  // output. Set here, not for the hooks: process.stdout's first use loads node's net and stream
  // modules, which the hooks spare themselves by writing to fd 1 directly.
  process.stdout.on("error", (error) => {
    if (error.code !== "EPIPE") throw error
    process.exit(0)
  })
  run("mem.cjs")
}

/** Runs dist/NAME as CommonJS, once, with its code cache; returns its exports. */
function run(name) {
  if (!loaded.has(name)) loaded.set(name, compileAndRun(name))
  return loaded.get(name)
}

function compileAndRun(name) {
  const bundle = join(dist, name)
  const cacheFile = `${bundle}.v8cache`
  const cachedData = readCache(cacheFile)
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, "utf8")}\n})`, {
    filename: bundle,
    cachedData
  })
  const module = { exports: {} }
  const load = createRequire(bundle)
  const require = Object.assign((id) => (/^\.\/[\w-]+\.cjs$/.test(id) ? run(id.slice(2)) : load(id)), load)
  script.runInThisContext()(module.exports, require, module, bundle, dist)
  // Written at exit, so the cache holds the functions this command compiled, not only start-up's.
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once("exit", () => writeCache(cacheFile, script.createCachedData()))
  }
  return module.exports
}

/** V8's data in the cache file, or undefined when there is none or its digest does not match. */
function readCache(file) {
  try {
    const stored = readFileSync(file)
    const data = stored.subarray(DIGEST_BYTES)
    return digest(data).equals(stored.subarray(0, DIGEST_BYTES)) ? data : undefined
  } catch {
    return undefined
  }
}

/** Written beside, then renamed over the cache: a hook running meanwhile reads a whole file. */
function writeCache(file, data) {
  const temporary = `${file}.${process.pid}`
  try {
    writeFileSync(temporary, Buffer.concat([digest(data), data]))
    renameSync(temporary, file)
  } catch {
    try {
      rmSync(temporary, { force: true })
    } catch {}
  }
}
