/**
 * The per-line JavaScript of an import, piece by piece: CPU per line of the privacy scan of a
 * memory's content (and of each of its parts), of the tags' scrub, and of the restatement key's
 * normalisation, over the ingest bench's corpus. Each piece runs over every line 7 times in one
 * process; the median pass counts. Where `bench/ingest` says where a line's time goes, this says
 * what one change to one piece saved.
 *
 *   node bench/run.mjs ingest-parts [--count 10000]
 */
import { Either } from "effect"
import { parseImport } from "../src/commands/import-lines.js"
import { makeIdFactory } from "../src/domain/ids.js"
import { normaliseForRestatement, restatementKey } from "../src/domain/text.js"
import { chainHash, encodePayload, GENESIS_HASH, sha256 } from "../src/events/codec.js"
import type { DomainEvent } from "../src/events/events.js"
import { redactAssignments } from "../src/privacy/assignments.js"
import { replaceGeneratedTokens } from "../src/privacy/high-entropy.js"
import { instructionLikeReasons } from "../src/privacy/instruction-like.js"
import { dropPrivateSpans } from "../src/privacy/private-spans.js"
import { scanContent } from "../src/privacy/scan.js"
import { scrubText } from "../src/privacy/scrub.js"
import { SECRET_PATTERNS } from "../src/privacy/secret-patterns.js"
import { generateMemories, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, median } from "./support/measure.js"

const count = intArg("count", 10_000)
const PASSES = 7
const lines = generateMemories(count)
const jsonl = toJsonl(lines)
const newId = makeIdFactory()
const added: DomainEvent[] = lines.map((l) => ({
  _tag: "MemoryAdded",
  memoryId: newId(Date.now()) as never,
  content: l.content,
  category: l.category,
  scope: l.project === null ? "global" : "project",
  project: l.project,
  tags: [...l.tags],
  source: l.source ?? "imported",
  status: "confirmed",
  confidence: 0.8,
  ...(l.createdAt === undefined ? {} : { createdAt: l.createdAt })
}))
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
perLine("  shape patterns", () => lines.forEach((l) => SECRET_PATTERNS.forEach((p) => l.content.replace(p.pattern, (m) => m))))
perLine("  named values", () => lines.forEach((l) => redactAssignments(l.content)))
perLine("  generated tokens", () => lines.forEach((l) => replaceGeneratedTokens(l.content, "x")))
perLine("  instruction-like text", () => lines.forEach((l) => instructionLikeReasons(l.content)))
perLine("scrub of the tags (scrubText)", () => lines.forEach((l) => l.tags.forEach((t) => scrubText(t))))
perLine("restatement normalisation", () => lines.forEach((l) => normaliseForRestatement(l.content)))
