/**
 * A what-if for keyword scope, not kept: instead of place tokens in the MATCH (fts-scope.ts), each
 * memory's row keyed by its place (place x 2^32 + key) and each place searched by its rowid range,
 * one statement a place, the best of them merged. The same scope column is kept, so both
 * tables give each row the same BM25. On a copy of a store `cue-statements --store FILE` built
 * (its queries beside it); prints the wall time of the content statement both ways, alternated
 * query by query, and whether the scores agree. FTS5 counts each word's documents again in every
 * statement, which is what the ranges pay for.
 *
 *   node bench/run.mjs place-ranges --store FILE
 */
import Database from "better-sqlite3"
import { copyFileSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { DEFAULT_CONFIG } from "../src/config.js"
import { isLive } from "../src/projections/memory-state.js"
import { ftsMatchExpression } from "../src/retrieval/fts-query.js"
import { indexedColumns } from "../src/retrieval/indexed-text.js"
import { placeToken, scopeColumn } from "../src/retrieval/place-tokens.js"
import { MEMORY_COLUMNS, rowToMemory, type MemoryRow } from "../src/store/projection-rows.js"
import { inPlaces, placeTokensOf, textMatch } from "../src/store/sqlite/projections/fts-scope.js"
import { environment, median, stringArg, withScratchDir } from "./support/measure.js"
import type { BenchQuery } from "./support/search-queries.js"

const kept = stringArg("store")
if (kept === undefined) throw new Error("usage: node bench/run.mjs place-ranges --store FILE (a store cue-statements --store FILE built)")
const SPAN = 2 ** 32
const WEIGHTS = [...DEFAULT_CONFIG.fieldWeights, 0].join(", ")
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!

await withScratchDir("place-ranges", async (dir) => {
  const path = join(dir, "store.db")
  copyFileSync(kept, path)
  const db = new Database(path)
  const memories = (db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories`).all() as MemoryRow[]).map(rowToMemory)
  const places = new Map<string, number>()
  const placeOf = (token: string) => places.get(token) ?? places.set(token, places.size + 1).get(token)!
  db.exec("CREATE VIRTUAL TABLE by_place USING fts5(content, cues, tags, category, code, scope, content = '', tokenize = 'porter unicode61 remove_diacritics 2')")
  const insert = db.prepare("INSERT INTO by_place (rowid, content, cues, tags, category, code, scope) VALUES (?, ?, ?, ?, ?, ?, ?)")
  db.transaction(() => {
    for (const m of memories) {
      const key = { project: m.project, live: isLive(m), owner: m.privateTo }
      insert.run(placeOf(placeToken(key)) * SPAN + m.key, ...indexedColumns(m), scopeColumn(key, m.category))
    }
  })()
  // Both indexes in one segment, so neither pays for merges the other does not.
  db.exec("INSERT INTO by_place(by_place) VALUES ('optimize'); INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")

  const byTokens = db.prepare(`SELECT -bm25(memories_fts, ${WEIGHTS}) AS r FROM memories_fts WHERE memories_fts MATCH ? ORDER BY r DESC LIMIT 40`)
  const byRange = db.prepare(`SELECT -bm25(by_place, ${WEIGHTS}) AS r FROM by_place WHERE by_place MATCH ? AND rowid BETWEEN ? AND ? ORDER BY r DESC LIMIT 40`)
  const queries = (JSON.parse(readFileSync(`${kept}.queries.json`, "utf8")) as BenchQuery[]).filter((q) => ftsMatchExpression(q.query) !== undefined)
  const tokens: number[] = []
  const ranges: number[] = []
  let differ = 0
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const words = ftsMatchExpression(q.query)!
      const searched = placeTokensOf(q.project, true)
      let started = performance.now()
      const a = byTokens.all(inPlaces(words, searched)) as { r: number }[]
      tokens.push(performance.now() - started)
      started = performance.now()
      const b = searched
        .flatMap((token) => (places.has(token) ? [places.get(token)!] : []))
        .flatMap((p) => byRange.all(textMatch(words), p * SPAN, p * SPAN + SPAN - 1) as { r: number }[])
        .sort((x, y) => y.r - x.r)
        .slice(0, 40)
      ranges.push(performance.now() - started)
      if (round === 0 && a.map((x) => x.r).join() !== b.map((x) => x.r).join()) differ++
    }
  }
  db.close()
  console.log(`place-ranges: ${memories.length} memories, ${queries.length} queries x 3; ${environment()}`)
  console.log(`  scores differ for ${differ} of ${queries.length} queries`)
  console.log(`  place tokens (today)   p50 ${median(tokens).toFixed(2)}  p95 ${p95(tokens).toFixed(2)} ms`)
  console.log(`  rowid ranges by place  p50 ${median(ranges).toFixed(2)}  p95 ${p95(ranges).toFixed(2)} ms`)
})
