// A writer process for the backup test: says "ready", waits for "go" on stdin, then remembers
// notes through the SDK (MemoryClient.local, as an application would) until it is killed, and
// says "writing" once its first is stored. Each note is six made-up words, so no two are alike
// enough for remember to hold one back as a near-duplicate.
// Usage: node sdk-writer.mjs DB_PATH WORKER
import { randomInt } from "node:crypto"
import { MemoryClient } from "../../dist/sdk/index.js"
import { readyThenGo } from "./start-signal.mjs"

const parent = process.ppid
const [db, worker] = process.argv.slice(2)
await readyThenGo()

const word = () => Array.from({ length: 7 }, () => String.fromCharCode(97 + randomInt(26))).join("")
const memory = MemoryClient.local({ db, origin: `worker:${worker}`, agent: "test" })
for (let i = 0; ; i++) {
  if (process.ppid !== parent) process.exit(3) // the test is gone: never write on alone
  await memory.remember({ content: Array.from({ length: 6 }, word).join(" "), scope: "global" })
  if (i === 0) process.stdout.write("writing\n")
}
