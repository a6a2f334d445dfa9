// A writer process for the concurrency test: opens the store from dist/, says "ready", waits
// for "go" on stdin so that all writers start together, then appends COUNT MemoryAdded events,
// each in its own write transaction, and prints the ids it appended as one JSON line.
// Usage: node append-worker.mjs DB_PATH WORKER COUNT
import { Either } from "effect"
import { DEFAULT_CONFIG } from "../../dist/config.js"
import { makeIdFactory } from "../../dist/domain/ids.js"
import { LedgerStore } from "../../dist/store/sqlite/ledger-store.js"
import { readyThenGo } from "./start-signal.mjs"
import { workerNote } from "./worker-note.mjs"

const parent = process.ppid
const [dbPath, worker, countText] = process.argv.slice(2)
const count = Number(countText)
const opened = LedgerStore.open(dbPath, DEFAULT_CONFIG)
if (Either.isLeft(opened)) {
  process.stderr.write(`cannot open: ${opened.left.message}\n`)
  process.exit(2)
}
const store = opened.right
const ulid = makeIdFactory()
const base = Date.parse("2025-01-01T00:00:00.000Z")

await readyThenGo()

const ids = []
for (let i = 0; i < count; i++) {
  if (process.ppid !== parent) process.exit(3) // the test is gone: never write on alone
  const at = base + i * 1000
  const event = workerNote(ulid, at, worker, `worker ${worker} note ${i}`)
  const written = store.write((tx) => Either.right(tx.append([event])))
  if (Either.isLeft(written)) throw new Error("append refused")
  ids.push(event.id)
}
store.close()
process.stdout.write(`${JSON.stringify({ ids })}\n`)
