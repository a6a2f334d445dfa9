// A writer process for the crash test: says "ready" once loaded, waits for "go" on stdin,
// then opens the store from dist/, appends forever until it is killed, and says "writing"
// once its first batch is committed. Each transaction is a small batch of mixed events
// (adds, outcomes, confirmations, revisions, and now and then a conversation forgotten or
// restored, which refolds memories), so a kill can land in the middle of any of them.
// Usage: node crash-writer.mjs DB_PATH SEED
import { Either } from "effect"
import { DEFAULT_CONFIG } from "../../dist/config.js"
import { makeIdFactory } from "../../dist/domain/ids.js"
import { LedgerStore } from "../../dist/store/sqlite/ledger-store.js"
import { readyThenGo } from "./start-signal.mjs"

const parent = process.ppid
const [dbPath, seedText] = process.argv.slice(2)
// Started ahead of its turn: loading is done by now, and the file is not touched before "go".
await readyThenGo()

const opened = LedgerStore.open(dbPath, DEFAULT_CONFIG)
if (Either.isLeft(opened)) {
  process.stderr.write(`cannot open: ${opened.left.message}\n`)
  process.exit(2)
}
const store = opened.right
const ulid = makeIdFactory()
const ORIGINS = ["cli", "claude-code:session/a", "codex:thread/b"]
const base = Date.parse("2025-01-01T00:00:00.000Z")
let seed = Number(seedText) >>> 0 || 1
const random = (n) => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
  return seed % n
}
const known = store.db.prepare("SELECT id FROM memories ORDER BY key DESC LIMIT 20").all().map((r) => r.id)
let n = store.db.prepare("SELECT count(*) AS n FROM events").get().n

const envelope = (event) => {
  const at = base + n++ * 60_000
  return { id: ulid(at), recordedAt: new Date(at).toISOString(), origin: ORIGINS[random(ORIGINS.length)], agent: "test", event }
}

for (let first = true; ; first = false) {
  if (process.ppid !== parent) process.exit(3) // the test is gone: never write on alone
  const memoryId = ulid(base + n * 60_000)
  const batch = [
    envelope({ _tag: "MemoryAdded", memoryId, content: `note ${n} about caching and deploys`, category: "general", scope: "global", project: null, tags: ["t"], source: "explicit", status: "confirmed", confidence: 0.9 })
  ]
  known.unshift(memoryId)
  if (known.length > 20) known.pop()
  const other = known[random(known.length)]
  const roll = random(10)
  if (roll < 4) batch.push(envelope({ _tag: "OutcomeRecorded", memoryIds: [other], outcome: ["worked", "failed", "partial"][random(3)] }))
  else if (roll < 6) batch.push(envelope({ _tag: "MemoryConfirmed", memoryId: other }))
  else if (roll < 8) batch.push(envelope({ _tag: "MemoryRevised", memoryId: other, content: `revised ${n}` }))
  else batch.push(envelope({ _tag: random(2) ? "ConversationForgotten" : "ConversationRestored", origin: ORIGINS[random(ORIGINS.length)] }))
  const written = store.write((tx) => Either.right(tx.append(batch)))
  if (Either.isLeft(written)) throw new Error("append refused")
  // Said once the first batch is committed, so that every kill lands while writing.
  if (first) process.stdout.write("writing\n")
}
