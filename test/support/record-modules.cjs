// Preloaded into a `mem` process (NODE_OPTIONS=--require): at exit, writes to the file
// RECORD_MODULES names every Node built-in the process loaded (`node:child_process`) and every
// package it required from node_modules (`sqlite-vec`), one a line.
const { writeFileSync } = require("node:fs")

process.on("exit", () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => `node:${m.slice("NativeModule ".length)}`)
  const packages = Object.keys(require.cache).flatMap((file) => {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file)
    return match === null ? [] : [match[1].replace("\\", "/")]
  })
  writeFileSync(process.env.RECORD_MODULES, [...new Set([...builtins, ...packages])].join("\n"))
})
