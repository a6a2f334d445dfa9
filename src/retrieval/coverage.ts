/**
 * An absolute measure of relevance, which BM25 scaled to the best match is not: the share of
 * the query's information (its words, weighted by inverse document frequency) that a memory
 * contains. A query about Kubernetes that shares only "deploy" with a memory covers little of
 * it, because "kubernetes", found nowhere, carries the most weight. Context injection uses it
 * to add nothing when nothing answers.
 */
import type { Db } from "../store/database.js"
import { textMatch } from "../projections/fts-scope.js"
import { queryWords } from "./fts-query.js"

export const termCoverage = (db: Db, query: string, keys: ReadonlyArray<number>): Map<number, number> => {
  const coverage = new Map<number, number>(keys.map((k) => [k, 0]))
  const words = queryWords(query)
  if (words.length === 0 || keys.length === 0) return coverage
  const total = (db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n
  const keyList = keys.join(",")
  let weightSum = 0
  for (const word of words) {
    const phrase = textMatch(`"${word.replace(/"/g, '""')}"`)
    const df = (db.prepare("SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?").get(phrase) as { n: number }).n
    const idf = Math.log(1 + (total + 1) / (df + 0.5))
    weightSum += idf
    if (df === 0) continue
    const matched = db.prepare(`SELECT rowid AS key FROM memories_fts WHERE memories_fts MATCH ? AND rowid IN (${keyList})`).all(phrase) as { key: number }[]
    for (const { key } of matched) coverage.set(key, (coverage.get(key) ?? 0) + idf)
  }
  for (const [key, value] of coverage) coverage.set(key, weightSum > 0 ? value / weightSum : 0)
  return coverage
}
