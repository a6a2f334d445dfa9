// Preloaded into a `mem` process (NODE_OPTIONS=--require): appends the name of every bundle
// bin/mem.js compiles (each goes through node:vm's Script) to the file RECORD_BUNDLES names.
const vm = require("node:vm")
const { appendFileSync } = require("node:fs")
const { basename } = require("node:path")

const Script = vm.Script
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options)
    appendFileSync(process.env.RECORD_BUNDLES, `${basename(options.filename)}\n`)
  }
}
