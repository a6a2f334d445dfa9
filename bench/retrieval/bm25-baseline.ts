/**
 * A plain BM25 baseline for the retrieval benchmark, computed independently of memledger's own
 * ranking: an in-memory SQLite FTS5 table over memory content only (`porter unicode61`), the
 * query's words OR'ed, each word double-quoted so FTS5 syntax in a query is never interpreted,
 * scoped to the query's project plus global memories, superseded memories left out, ranked by
 * bm25(). Anything memledger does beyond that (tags, outcomes, recency, vectors) has to beat it.
 *
 *   npx esbuild bench/retrieval/bm25-baseline.ts --bundle --platform=node --format=esm \
 *     --external:better-sqlite3 --outfile=bench/.data/retrieval-bm25-baseline.mjs \
 *     && node bench/.data/retrieval-bm25-baseline.mjs [--limit 10] [--misses]
 */
import { basename } from "node:path"
import Database from "better-sqlite3"
import { formatTable, summarize, type QueryOutcome } from "./metrics.js"
import { datasetDir, loadDataset, type BenchMemory, type BenchQuery } from "./validate.js"

/** What the baseline needs of a query: its text and the project the agent works in. */
export type RankQuery = Pick<BenchQuery, "query" | "project">

export interface Bm25Index {
  /** Keys of the best `limit` live, in-scope memories matching any query word, best first. */
  readonly rank: (query: RankQuery, limit: number) => string[]
  readonly close: () => void
}

/** Ranks with an index built once per memories array (cached by identity, so pass the same array). */
export const bm25Rank = (memories: ReadonlyArray<BenchMemory>, query: RankQuery, limit: number): string[] => {
  let index = cache.get(memories)
  if (index === undefined) {
    index = createBm25Index(memories)
    cache.set(memories, index)
  }
  return index.rank(query, limit)
}

export const createBm25Index = (memories: ReadonlyArray<BenchMemory>): Bm25Index => {
  const db = new Database(":memory:")
  db.exec("CREATE VIRTUAL TABLE memory_fts USING fts5(content, key UNINDEXED, project UNINDEXED, tokenize = 'porter unicode61')")
  const superseded = new Set(memories.flatMap((m) => (m.supersedes === undefined ? [] : [m.supersedes])))
  const insert = db.prepare("INSERT INTO memory_fts (content, key, project) VALUES (?, ?, ?)")
  db.transaction(() => {
    for (const m of memories) if (!superseded.has(m.key)) insert.run(m.content, m.key, m.project)
  })()
  // bm25() is smaller for better matches; the key breaks ties so runs are reproducible.
  const search = db.prepare(
    `SELECT key FROM memory_fts
      WHERE memory_fts MATCH ? AND (project IS NULL OR project = ?)
      ORDER BY bm25(memory_fts), key
      LIMIT ?`
  )
  return {
    rank: (query, limit) => {
      const match = matchExpression(query.query)
      if (match === null || limit <= 0) return []
      return (search.all(match, query.project, limit) as Array<{ key: string }>).map((row) => row.key)
    },
    close: () => db.close()
  }
}

/**
 * The query's words, each double-quoted, joined with OR; null when it has no word. A word is a
 * run of letters or digits, as the unicode61 tokenizer splits text, so quoting needs no escaping
 * and FTS5 operators (AND, NOT, NEAR, `*`, `:`, `^`, parentheses) in a query are plain text.
 */
export const matchExpression = (text: string): string | null => {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []))]
  return words.length === 0 ? null : words.map((w) => `"${w}"`).join(" OR ")
}

/** Runs every query of the data set through the baseline. */
export const runBaseline = (dir = datasetDir(), limit = 10): QueryOutcome[] => {
  const { memories, queries } = loadDataset(dir)
  const index = createBm25Index(memories)
  try {
    return queries.map((q) => ({ id: q.id, kind: q.kind, returned: index.rank(q, limit), relevant: q.relevant }))
  } finally {
    index.close()
  }
}

const cache = new WeakMap<ReadonlyArray<BenchMemory>, Bm25Index>()

if (/bm25-baseline$/.test(basename(process.argv[1] ?? "").replace(/\.[cm]?[jt]s$/, ""))) {
  const args = process.argv.slice(2)
  const at = args.indexOf("--limit")
  const limit = at >= 0 ? Number(args[at + 1]) : 10
  const outcomes = runBaseline(datasetDir(), limit)
  console.log(`BM25 baseline (FTS5 porter unicode61, content only, words OR'ed), limit ${limit}\n`)
  console.log(formatTable(summarize(outcomes)))
  const { queries } = loadDataset()
  const batchOf = new Map(queries.map((q) => [q.id, q.batch]))
  for (const batch of [1, 2] as const) {
    console.log(`\nbatch ${batch} only:\n`)
    console.log(formatTable(summarize(outcomes.filter((o) => batchOf.get(o.id) === batch))))
  }
  if (args.includes("--misses")) {
    const text = new Map(queries.map((q) => [q.id, q.query]))
    console.log("\nanswerable queries without a relevant memory in the top 5:")
    for (const o of outcomes) {
      const rank = o.returned.findIndex((k) => o.relevant.includes(k))
      if (o.relevant.length > 0 && (rank < 0 || rank >= 5)) console.log(`  ${o.id} ${o.kind} "${text.get(o.id)}" -> ${rank < 0 ? "missed" : `rank ${rank + 1}`}`)
    }
  }
}
