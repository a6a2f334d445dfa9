/**
 * The per-line JavaScript of an import, piece by piece: CPU per line of the privacy scan of a
 * memory's content (and of each of its parts), of the tags' scrub, and of the restatement key's
 * normalisation, over the ingest bench's corpus. Each piece runs over every line 7 times in one
 * process; the median pass counts. Where `bench/ingest` says where a line's time goes, this says
 * what one change to one piece saved.
 *
 *   node bench/run.mjs ingest-parts [--count 10000]
 */
import { normaliseForRestatement } from "../src/domain/text.js"
import { redactAssignments } from "../src/privacy/assignments.js"
import { replaceGeneratedTokens } from "../src/privacy/high-entropy.js"
import { instructionLikeReasons } from "../src/privacy/instruction-like.js"
import { dropPrivateSpans } from "../src/privacy/private-spans.js"
import { scanContent } from "../src/privacy/scan.js"
import { scrubText } from "../src/privacy/scrub.js"
import { SECRET_PATTERNS } from "../src/privacy/secret-patterns.js"
import { generateMemories } from "./support/corpus.js"
import { environment, fmt, intArg, median } from "./support/measure.js"

const count = intArg("count", 10_000)
const PASSES = 7
const lines = generateMemories(count)

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
perLine("privacy scan of the content (scanContent)", () => lines.forEach((l) => scanContent(l.content)))
perLine("  private spans", () => lines.forEach((l) => dropPrivateSpans(l.content)))
perLine("  shape patterns", () => lines.forEach((l) => SECRET_PATTERNS.forEach((p) => l.content.replace(p.pattern, (m) => m))))
perLine("  named values", () => lines.forEach((l) => redactAssignments(l.content)))
perLine("  generated tokens", () => lines.forEach((l) => replaceGeneratedTokens(l.content, "x")))
perLine("  instruction-like text", () => lines.forEach((l) => instructionLikeReasons(l.content)))
perLine("scrub of the tags (scrubText)", () => lines.forEach((l) => l.tags.forEach((t) => scrubText(t))))
perLine("restatement normalisation", () => lines.forEach((l) => normaliseForRestatement(l.content)))
