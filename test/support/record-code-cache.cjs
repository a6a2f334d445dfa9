// Preloaded into a `mem` process (NODE_OPTIONS=--require): for every bundle bin/mem.js compiles,
// appends to the file RECORD_CODE_CACHE the bundle's name and what became of its code cache:
// `none` (no cache was given), `used` (V8 took it) or `rejected` (V8 refused it).
const vm = require("node:vm")
const { appendFileSync } = require("node:fs")
const { basename } = require("node:path")

const Script = vm.Script
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options)
    const cache = options.cachedData === undefined ? "none" : this.cachedDataRejected ? "rejected" : "used"
    appendFileSync(process.env.RECORD_CODE_CACHE, `${basename(options.filename)} ${cache}\n`)
  }
}
