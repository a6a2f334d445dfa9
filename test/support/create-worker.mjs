// A process that opens new stores at the same moment as others: says "ready", waits for "go"
// on stdin, then for each of FILES fresh paths under DIR opens the store OPENS times, as a
// burst of hooks at the start of a session would (the first open of any process creates it),
// and appends one MemoryAdded of its own. Prints one JSON line: the paths it appended to, and
// every open that failed, with why.
// Usage: node create-worker.mjs DIR WORKER FILES OPENS
import { join } from "node:path"
import { Either } from "effect"
import { DEFAULT_CONFIG } from "../../dist/config.js"
import { makeIdFactory } from "../../dist/domain/ids.js"
import { LedgerStore } from "../../dist/store/sqlite/ledger-store.js"
import { readyThenGo } from "./start-signal.mjs"
import { workerNote } from "./worker-note.mjs"

const [dir, worker, filesText, opensText] = process.argv.slice(2)
const files = Number(filesText)
const opens = Number(opensText)
const ulid = makeIdFactory()

await readyThenGo()

const appended = []
const failures = []
const failed = (path, error) => failures.push({ path, reason: error instanceof Error && !("_tag" in error) ? error.stack : error.message })

/** Appends one event to the store at `path`, or says why not. */
const appendOne = (path, round) => {
  for (let k = 1; k < opens; k++) {
    const store = LedgerStore.open(path, DEFAULT_CONFIG)
    if (Either.isLeft(store)) return failed(path, store.left)
    store.right.close()
  }
  const opened = LedgerStore.open(path, DEFAULT_CONFIG)
  if (Either.isLeft(opened)) return failed(path, opened.left)
  const store = opened.right
  const at = Date.now()
  const event = workerNote(ulid, at, worker, `worker ${worker} note in round ${round}`)
  store.write((tx) => Either.right(tx.append([event])))
  store.close()
  appended.push(path)
}

for (let i = 0; i < files; i++) {
  const path = join(dir, `round-${i}`, "m.db")
  try {
    appendOne(path, i)
  } catch (error) {
    failed(path, error)
  }
}
process.stdout.write(`${JSON.stringify({ appended, failures })}\n`)
