// A process that opens new stores at the same moment as others: says "ready", waits for "go"
// on stdin, then for each of FILES fresh paths under DIR opens the store OPENS times, as a
// burst of hooks at the start of a session would (the first open of any process creates it),
// and appends one MemoryAdded of its own. Prints one JSON line: the paths it appended to, and
// every open that failed, with why.
// Usage: node create-worker.mjs DIR WORKER FILES OPENS
import { join } from "node:path"
import { createInterface } from "node:readline"
import { Either } from "effect"
import { DEFAULT_CONFIG } from "../../dist/config.js"
import { makeIdFactory } from "../../dist/domain/ids.js"
import { LedgerStore } from "../../dist/store/ledger-store.js"

const [dir, worker, filesText, opensText] = process.argv.slice(2)
const files = Number(filesText)
const opens = Number(opensText)
const ulid = makeIdFactory()

process.stdout.write("ready\n")
const lines = createInterface({ input: process.stdin })
let go = false
for await (const line of lines) if ((go = line.trim() === "go")) break
lines.close()
if (!go) process.exit(3) // stdin closed without "go": the test is gone

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
  const event = {
    id: ulid(at),
    recordedAt: new Date(at).toISOString(),
    origin: `worker:${worker}`,
    agent: "test",
    event: {
      _tag: "MemoryAdded", memoryId: ulid(at), content: `worker ${worker} note in round ${round}`, category: "general",
      scope: "global", project: null, tags: [], source: "explicit", status: "confirmed", confidence: 0.9
    }
  }
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
