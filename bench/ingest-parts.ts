/**
 * The per-line JavaScript of an import, piece by piece: CPU per line of the privacy scan of a
 * memory's content (and of each of its parts), of the tags' scrub, and of the restatement key's
 * normalisation, over the ingest bench's corpus. Each piece runs over every line 7 times in one
 * process; the median pass counts. Where `bench/ingest` says where a line's time goes, this says
 * what one change to one piece saved.
 *
 * The first row is a whole line's JavaScript without SQLite: what `importBatchInBulk` and
 * `BulkBatch` do per line, with the store's lookups answered from maps and the inserts left
 * out, garbage collection included (a piece's row measures its CPU, not the garbage it leaves).
 *
 *   node bench/run.mjs ingest-parts [--count 10000] [--whole (the first row only)]
 */
import { randomBytes } from "node:crypto"
import { Either } from "effect"
import { decideAddInput } from "../src/commands/add-input.js"
import { ImportLines, parseImport } from "../src/commands/import-lines.js"
import { scanForStorage } from "../src/commands/scanned-content.js"
import type { DecisionState } from "../src/commands/state.js"
import { makeIdFactory, type MemoryId } from "../src/domain/ids.js"
import { normaliseForRestatement, restatementKey } from "../src/domain/text.js"
import { chainHash, encodePayload, GENESIS_HASH, sha256 } from "../src/events/codec.js"
import { memoryIdsOf, type DomainEvent, type StoredEvent } from "../src/events/events.js"
import { redactAssignments } from "../src/privacy/assignments.js"
import { replaceGeneratedTokens } from "../src/privacy/high-entropy.js"
import { instructionLikeReasons } from "../src/privacy/instruction-like.js"
import { dropPrivateSpans } from "../src/privacy/private-spans.js"
import { scanContent } from "../src/privacy/scan.js"
import { scrubText } from "../src/privacy/scrub.js"
import { countEvent, type ConversationState } from "../src/projections/conversation-state.js"
import { evolveMemory, type MemoryState } from "../src/projections/memory-state.js"
import { redactShapes } from "../src/privacy/redact-secrets.js"
import { addedEventOf, generateMemories, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, median } from "./support/measure.js"

const count = intArg("count", 10_000)
const PASSES = 7
const lines = generateMemories(count)
const jsonl = toJsonl(lines)
const newId = makeIdFactory()
/** Ids as `mem import` makes them (src/services/maintenance.ts): random bytes from a 4 KiB pool. */
const pooledId = makeIdFactory(
  (() => {
    let pool = randomBytes(4096)
    let used = 0
    return (n: number): Uint8Array => {
      if (used + n > pool.length) {
        pool = randomBytes(4096)
        used = 0
      }
      used += n
      return pool.subarray(used - n, used)
    }
  })()
)
const added: DomainEvent[] = lines.map((l) => addedEventOf(l, newId(Date.now())))
const payloads = added.map(encodePayload)

const perLine = (label: string, f: () => void): void => {
  const passes: number[] = []
  for (let i = 0; i < PASSES; i++) {
    const before = process.cpuUsage()
    f()
    const used = process.cpuUsage(before)
    passes.push((used.user + used.system) / lines.length)
  }
  console.log(`| ${label} | ${median(passes).toFixed(2)} µs |`)
}

console.log(`ingest-parts: ${fmt(count)} corpus lines, median of ${PASSES} passes; ${environment()}\n`)
console.log("| piece | CPU per line |\n| --- | ---: |")
perLine("a whole line without SQLite (parse, scan, decide, encode, hash, fold)", () => importWithoutSqlite(jsonl))
if (process.argv.includes("--whole")) process.exit(0)
perLine("parsing the JSONL lines (parseImport)", () => {
  if (Either.isLeft(parseImport(jsonl))) throw new Error("the corpus does not parse")
})
perLine("payload check and encoding of a MemoryAdded (encodePayload)", () => added.forEach((e) => encodePayload(e)))
perLine("payload hash and chain hash", () => {
  let previous = GENESIS_HASH
  payloads.forEach((p, i) => {
    previous = chainHash(previous, { seq: i + 1, id: "x", type: "MemoryAdded", version: 1, recordedAt: "2026-01-01T00:00:00.000Z", origin: "o", agent: "a" }, sha256(p))
  })
})
perLine("restatement key (normalisation and hash)", () => lines.forEach((l) => restatementKey(l.content)))
perLine("privacy scan of the content (scanContent)", () => lines.forEach((l) => scanContent(l.content)))
perLine("  private spans", () => lines.forEach((l) => dropPrivateSpans(l.content)))
perLine("  shape patterns", () => lines.forEach((l) => redactShapes(l.content, [])))
perLine("  named values", () => lines.forEach((l) => redactAssignments(l.content)))
perLine("  generated tokens", () => lines.forEach((l) => replaceGeneratedTokens(l.content, "x")))
perLine("  instruction-like text", () => lines.forEach((l) => instructionLikeReasons(l.content)))
perLine("scrub of the tags (scrubText)", () => lines.forEach((l) => l.tags.forEach((t) => scrubText(t))))
perLine("restatement normalisation", () => lines.forEach((l) => normaliseForRestatement(l.content)))

/**
 * The per-line JavaScript of a bulk import (src/store/sqlite/transfer/import-memories.ts importBatchInBulk,
 * BulkBatch.apply, log.ts appendEvents and appendRaw's hashing), with maps for the store.
 */
function importWithoutSqlite(text: string): void {
  const memories = new Map<string, MemoryState>()
  const restatements = new Map<string, MemoryState>()
  const conversations = new Map<string, ConversationState>()
  const state: DecisionState = {
    memory: (id) => memories.get(id),
    restatementOf: (key, scope, project) => restatements.get(`${key}\u0000${scope}\u0000${project}`),
    conversation: (origin) => conversations.get(origin)
  }
  const recordedAt = new Date().toISOString()
  const now = Date.now()
  const newEventId = () => pooledId(now)
  const reader = new ImportLines(text)
  let seq = 0
  let previous = GENESIS_HASH
  for (let read = reader.next(); read !== undefined; read = reader.next()) {
    if (Either.isLeft(read) || read.right.kind !== "memory") throw new Error("the corpus does not parse")
    const item = read.right
    const scanned = scanForStorage(item.input.content)
    if (Either.isLeft(scanned)) throw new Error("the corpus does not scan")
    const decision = decideAddInput(item.input, { reads: undefined as never, state, newId: newEventId }, scanned.right)
    if (Either.isLeft(decision)) throw new Error("the corpus does not decide")
    const origin = item.origin ?? "bench:ingest"
    const agent = item.agent ?? "bench"
    for (const event of decision.right.events) {
      seq++
      const e = { id: newEventId(), recordedAt, origin, agent, event }
      const payload = encodePayload(event)
      const row = { ...e, type: event._tag, version: 1, payload, payloadHash: sha256(payload) }
      const envelope = { seq, id: row.id, type: row.type, version: row.version, recordedAt, origin, agent }
      previous = chainHash(previous, envelope, row.payloadHash)
      const stored: StoredEvent = { ...envelope, type: event._tag, event, payloadHash: row.payloadHash, hash: previous }
      conversations.set(origin, countEvent(conversations.get(origin), stored))
      for (const memoryId of memoryIdsOf(event)) {
        const after = evolveMemory(memories.get(memoryId), stored, memoryId as MemoryId)
        if (after === undefined) continue
        memories.set(memoryId, after)
        restatements.set(`${after.contentKey}\u0000${after.scope}\u0000${after.project}`, after)
      }
    }
  }
}
