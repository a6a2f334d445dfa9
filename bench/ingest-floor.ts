/**
 * The floor under an import: what writing its rows costs SQLite alone. The ingest corpus is
 * imported once (through `Maintenance.importJsonl`); its events, event links, memory rows and
 * full-text rows are read back, then inserted into a new store with the same schema, the same
 * settings and 20,000 rows per transaction, with no JavaScript per line beyond the statement
 * calls. Prints wall and CPU time of each run, and the CPU of each table's inserts and of the
 * commits (WAL writes and checkpoints). An import cannot be faster than this on one thread.
 *
 *   node bench/run.mjs ingest-floor [--count 100000] [--runs 3]
 */
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import Database from "better-sqlite3"
import { Effect, Either } from "effect"
import { DEFAULT_CONFIG } from "../src/config.js"
import { scopeColumn } from "../src/store/sqlite/projections/fts-scope.js"
import { MEMORY_COLUMNS } from "../src/store/sqlite/projections/memories.js"
import { AppLayer } from "../src/services/app.js"
import { BULK_BATCH } from "../src/store/sqlite/transfer/import-memories.js"
import { Maintenance } from "../src/services/maintenance.js"
import { LedgerStore } from "../src/store/sqlite/ledger-store.js"
import { generateMemories, toJsonl } from "./support/corpus.js"
import { cpuSeconds, environment, fmt, intArg, median, withScratchDir } from "./support/measure.js"

const count = intArg("count", 100_000)
const runs = intArg("runs", 3)
const PARTS = ["events", "links", "memories", "fts", "commits"] as const

await withScratchDir("ingest-floor", async (dir) => {
  console.log(`ingest-floor: the rows of ${fmt(count)} imported memories, ${runs} runs; ${environment()}`)
  const source = join(dir, "source.db")
  await Effect.gen(function* () {
    const maintenance = yield* Maintenance
    yield* maintenance.importJsonl(toJsonl(generateMemories(count)), { origin: "bench:ingest", agent: "bench" })
  }).pipe(Effect.provide(AppLayer(source)), Effect.runPromise)
  const read = new Database(source, { readonly: true })
  const events = read.prepare("SELECT * FROM events ORDER BY seq").raw().all() as unknown[][]
  const links = read.prepare("SELECT memory_id, seq FROM event_memories ORDER BY seq").raw().all() as unknown[][]
  const memories = read.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories ORDER BY key`).raw().all() as unknown[][]
  // The full-text rows as the projection writes them: key, content, tags, category and the scope tokens.
  const ftsRows = (read.prepare("SELECT key, content, tags, category, project FROM memories ORDER BY key").raw().all() as unknown[][]).map(
    ([key, content, tags, category, project]) => [
      key,
      content,
      (JSON.parse(tags as string) as string[]).join(" "),
      category,
      scopeColumn({ project: project as string | null, live: true }, category as string)
    ]
  )
  read.close()

  const results: Array<Record<(typeof PARTS)[number] | "cpu" | "wall", number>> = []
  for (let run = 0; run < runs; run++) {
    const opened = LedgerStore.open(join(dir, `floor-${run}.db`), DEFAULT_CONFIG)
    if (Either.isLeft(opened)) throw new Error(opened.left.message)
    const db = opened.right.db
    const insertEvent = db.prepare("INSERT INTO events (seq, id, type, version, recorded_at, origin, agent, payload, payload_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    const insertLink = db.prepare("INSERT OR IGNORE INTO event_memories (memory_id, seq) VALUES (?, ?)")
    const insertMemory = db.prepare(`INSERT INTO memories (${MEMORY_COLUMNS}) VALUES (${MEMORY_COLUMNS.split(",").map(() => "?").join(", ")})`)
    const insertFts = db.prepare("INSERT INTO memories_fts (rowid, content, tags, category, scope) VALUES (?, ?, ?, ?, ?)")
    const spent = { events: 0, links: 0, memories: 0, fts: 0, commits: 0 }
    const timed = (part: keyof typeof spent, f: () => void) => {
      const before = process.cpuUsage()
      f()
      spent[part] += cpuSeconds(before)
    }
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (let start = 0; start < events.length; start += BULK_BATCH) {
      const end = Math.min(start + BULK_BATCH, events.length)
      db.exec("BEGIN IMMEDIATE")
      timed("events", () => events.slice(start, end).forEach((row) => insertEvent.run(row)))
      timed("links", () => links.slice(start, end).forEach((row) => insertLink.run(row)))
      timed("memories", () => memories.slice(start, end).forEach((row) => insertMemory.run(row)))
      timed("fts", () => ftsRows.slice(start, end).forEach((row) => insertFts.run(row)))
      timed("commits", () => db.exec("COMMIT"))
    }
    const result = { ...spent, cpu: cpuSeconds(cpu), wall: (performance.now() - started) / 1000 }
    opened.right.close()
    results.push(result)
    console.log(`  run ${run + 1}: ${result.wall.toFixed(2)} s wall, ${result.cpu.toFixed(2)} s cpu (${PARTS.map((p) => `${p} ${result[p].toFixed(2)}`).join(", ")})`)
  }
  const m = (k: keyof (typeof results)[number]) => median(results.map((r) => r[k])).toFixed(2)
  console.log(`median of ${runs}: ${m("wall")} s wall, ${m("cpu")} s cpu (${PARTS.map((p) => `${p} ${m(p)} s`).join(", ")})`)
})
