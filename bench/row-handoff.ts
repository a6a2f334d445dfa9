/**
 * What handing an import's event rows to another thread would cost the importing thread, per
 * row: the rows of the ingest corpus's MemoryAdded events (id, type, version, time, origin,
 * agent, payload, two hashes), posted to a worker 1,000 at a time (a structured clone each), and
 * written as UTF-8 into one shared buffer instead. Compare with what inserting a row costs on
 * the importing thread (`bench/ingest-floor`: events 0.44 s per 100,000 at load 1). It showed
 * that handing rows over was not what made a first, unpipelined writer thread slow
 * (docs/benchmarks.md).
 *
 *   node bench/run.mjs row-handoff [--count 100000] [--rounds 5]
 *
 * Prints the importing thread's CPU µs per row, the median of the rounds.
 */
import { Worker } from "node:worker_threads"
import { makeIdFactory } from "../src/domain/ids.js"
import { encodePayload, sha256 } from "../src/events/codec.js"
import { addedEventOf, generateMemories } from "./support/corpus.js"
import { environment, fmt, intArg, median } from "./support/measure.js"

const count = intArg("count", 100_000)
const rounds = intArg("rounds", 5)
const CHUNK = 1_000

const newId = makeIdFactory()
const recordedAt = new Date().toISOString()
const rows = generateMemories(count).map((l, i) => {
  const event = addedEventOf(l, newId(Date.now()))
  const payload = encodePayload(event)
  return [i + 1, newId(Date.now()), "MemoryAdded", 1, recordedAt, l.origin ?? "import:corpus.jsonl", l.agent ?? "bench", payload, sha256(payload), sha256(`${i}`)] as const
})

// The receiving side only counts what it is sent: the cost measured is the sender's.
const worker = new Worker(`require("node:worker_threads").parentPort.on("message", () => {})`, { eval: true })
worker.unref()

const cpuMicros = (f: () => void): number => {
  const before = process.cpuUsage()
  f()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / rows.length
}

const posted = (): void => {
  for (let i = 0; i < rows.length; i += CHUNK) worker.postMessage(rows.slice(i, i + CHUNK))
}

const shared = Buffer.from(new SharedArrayBuffer(64 * 1024 * 1024))
const ends = new Int32Array(new SharedArrayBuffer(rows.length * 10 * 4))
const written = (): void => {
  let at = 0
  let k = 0
  for (const row of rows) {
    for (const field of row) {
      if (typeof field === "number") at = shared.writeDoubleLE(field, at)
      else at += shared.write(field, at, "utf8")
      ends[k++] = at
    }
  }
}

const measure = (f: () => void): number => median(Array.from({ length: rounds }, () => cpuMicros(f)))

console.log(`row-handoff: ${fmt(count)} event rows, median of ${rounds} rounds; ${environment()}`)
console.log(`  posted to a worker, ${fmt(CHUNK)} a message  ${measure(posted).toFixed(2)} µs per row`)
console.log(`  written as UTF-8 into a shared buffer  ${measure(written).toFixed(2)} µs per row`)
