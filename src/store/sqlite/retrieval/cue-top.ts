/**
 * The best learned cues of one place for a query, exactly as `cues_fts`'s BM25 ranks them,
 * without scoring every cue that holds a query word: each word's cues are read best first from
 * `cue_postings` (at most `count` of each), those read are scored here with FTS5's own formula
 * and statistics (fts-statistics.ts: the very doubles `bm25()` returns), and the answer stands
 * when no cue left unread could score above the last one kept. FTS5 itself scores every match,
 * some 1.5 µs each: a common word in 75,000 global cues cost milliseconds a search.
 *
 * Undefined when this cannot answer exactly, and the caller asks FTS5: a word FTS5 would read as
 * a phrase of several tokens or stem otherwise (anything but a-z), a stop word's stem, an index
 * marked inexact, negative weights, or a bound that does not settle.
 */
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { porterStem } from "../../../retrieval/porter.js"
import { postingsState, STOP_STEMS } from "../projections/cue-postings.js"
import { bm25Of, ftsTotals, idfOf, weightedCount, type FtsTotals } from "../projections/fts-statistics.js"

export interface CueMatch {
  readonly key: number
  readonly relevance: number
}

/** What one query needs of the whole index, read once for every place it searches. */
export interface CueQuery {
  readonly stems: ReadonlyArray<string>
  readonly idf: ReadonlyArray<number>
  readonly totals: FtsTotals
  /** How much a row's share now can exceed its impact times its word's IDF (weights, and the average length against the reference one). */
  readonly slack: number
}

const PLAIN_WORD = /^[a-z]+$/

/** `words`: the query's words as fts-query.ts gives them, one phrase each, in order. */
export const prepareCueQuery = (db: Db, words: ReadonlyArray<string>, weights: readonly [number, number]): CueQuery | undefined => {
  if (weights.some((w) => w < 0) || !words.every((w) => PLAIN_WORD.test(w))) return undefined
  const stems = words.map(porterStem)
  if (stems.some((s) => STOP_STEMS.has(s))) return undefined
  const state = postingsState(db)
  const totals = ftsTotals(db, "cues_fts")
  if (state === undefined || state.inexact !== 0 || totals === undefined) return undefined
  const count = statement(db, "SELECT count(*) AS n FROM cues_fts WHERE cues_fts MATCH ?")
  const hits = new Map<string, number>()
  words.forEach((w, i) => {
    if (!hits.has(stems[i]!)) hits.set(stems[i]!, (count.get(`{text code} : "${w}"`) as { n: number }).n)
  })
  const idf = idfOf(db, totals, stems.map((s) => hits.get(s)!))
  const slack = Math.max(1, ...weights) * Math.max(1, totals.avg / state.ref_avg) * (1 + 1e-9)
  return { stems, idf, totals, slack }
}

interface Read {
  readonly tokens: number
  readonly tf: Map<string, readonly [number, number]>
}

interface Posting {
  readonly key: number
  readonly impact: number
  readonly text_tf: number
  readonly code_tf: number
  readonly tokens: number
}

/** The `count` best cues of place `place` (its id in cue_places, 0 global), best first, or undefined when the bound does not settle. */
export const bestCuesOfPlace = (db: Db, q: CueQuery, place: number, count: number, weights: readonly [number, number], perWord = count): CueMatch[] | undefined => {
  const best = statement(db, "SELECT key, impact, text_tf, code_tf, tokens FROM cue_postings WHERE term = ? AND place = ? ORDER BY impact DESC LIMIT ?")
  const read = new Map<number, Read>()
  // What a cue not read in a word's list can take from that word: 0 when the list was read whole.
  const reach = new Map<string, number>()
  q.stems.forEach((stem, i) => {
    if (reach.has(stem)) return
    const rows = best.all(stem, place, perWord) as Posting[]
    reach.set(stem, rows.length < perWord ? 0 : q.idf[i]! * rows[rows.length - 1]!.impact * q.slack)
    for (const r of rows) {
      const cue = read.get(r.key) ?? read.set(r.key, { tokens: r.tokens, tf: new Map() }).get(r.key)!
      cue.tf.set(stem, [r.text_tf, r.code_tf])
    }
  })
  const share = (i: number, tf: readonly [number, number], tokens: number) => bm25Of([q.idf[i]!], [weightedCount(tf, weights)], tokens, q.totals.avg)
  // Each cue read: what it scores at least (its words read) and at most (plus the reach of those not).
  const bounds = [...read].map(([key, cue]) => {
    let low = 0
    let high = 0
    q.stems.forEach((stem, i) => {
      const tf = cue.tf.get(stem)
      if (tf !== undefined) low += share(i, tf, cue.tokens)
      else high += reach.get(stem)!
    })
    return { key, cue, low, high: low + high }
  })
  const floor = bounds.length < count ? 0 : [...bounds.map((b) => b.low)].sort((a, b) => b - a)[count - 1]!
  const probe = statement(db, "SELECT text_tf, code_tf FROM cue_postings WHERE key = ? AND term = ?")
  const scored = bounds.flatMap(({ key, cue, high }) => {
    if (high < floor) return []
    const freqs = q.stems.map((stem) => {
      let tf = cue.tf.get(stem)
      if (tf === undefined && reach.get(stem)! > 0) {
        const row = probe.get(key, stem) as { text_tf: number; code_tf: number } | undefined
        tf = row === undefined ? [0, 0] : [row.text_tf, row.code_tf]
      }
      return tf === undefined ? 0 : weightedCount(tf, weights)
    })
    return [{ key, relevance: bm25Of(q.idf, freqs, cue.tokens, q.totals.avg) }]
  })
  const top = scored.sort((a, b) => b.relevance - a.relevance || a.key - b.key).slice(0, count)
  const unread = q.stems.reduce((sum, stem) => sum + reach.get(stem)!, 0)
  if (unread === 0 || (top.length >= count && top[count - 1]!.relevance >= unread)) return top
  return undefined
}
