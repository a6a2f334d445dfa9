/**
 * The tables bench/search.ts prints: wall and CPU percentiles of search and why per size and
 * mode (hybrid without its query embedding), the query embedding itself, USE-lite's per-query
 * cost for reference, and the goal verdicts at 100,000 memories.
 */
import { fmt, median } from "./measure.js"

export type Mode = "keyword" | "hybrid"

export interface Measured {
  readonly size: number
  readonly mode: Mode
  /** Wall time of each call; for hybrid, without the query's embedding call. */
  readonly search: number[]
  readonly why: number[]
  /** CPU time (user + system) of each call, likewise: on a shared machine, the part other processes cannot inflate. */
  readonly searchCpu: number[]
  readonly whyCpu: number[]
  /** CPU time of the ranking alone (what search does before it appends MemoriesRecalled). */
  readonly rankingCpu: number[]
  /** Hybrid: each query embedding call (search's and why's), wall and this process's CPU. */
  readonly embed: number[]
  readonly embedCpu: number[]
  /** why / search for each query. */
  readonly ratio: number[]
  /** Keyword matches per query, scope aside: how much BM25 work each query asks for. */
  readonly matches: number[]
  readonly results: number[]
  readonly dump: unknown[]
  /** Hybrid: seconds to embed and store every memory's vector. */
  readonly vectorSeconds?: number
  /** Hybrid: the sync a search runs first once an outcome rewrote one memory's learned cues. */
  readonly resyncMs?: number
}

export interface LocalEmbedding {
  readonly loadSeconds: number
  readonly wall: number[]
  readonly cpu: number[]
}

export const GOALS = { keywordSearchP95: 15, hybridSearchP95: 75, whyRatio: 2 } as const

/** Nearest-rank percentile. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

const ms = (x: number) => `${x.toFixed(2)} ms`
const p50 = median
const p95 = (xs: ReadonlyArray<number>) => percentile(xs, 95)

const table = (header: string[], rows: string[][]) => {
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => " --- ").join("|")}|`)
  for (const row of rows) console.log(`| ${row.join(" | ")} |`)
}

export const printLatencyReport = (all: ReadonlyArray<Measured>, local: LocalEmbedding | undefined, footer: string): void => {
  console.log("\nWall time per call (hybrid: without the query embedding, which is below):")
  table(
    ["memories", "mode", "search p50", "search p95", "why p50", "why p95", "why/search p50", "why/search p95", "per-query why/search (median)"],
    all.map((m) => [
      fmt(m.size), m.mode, ms(p50(m.search)), ms(p95(m.search)), ms(p50(m.why)), ms(p95(m.why)),
      (p50(m.why) / p50(m.search)).toFixed(2), (p95(m.why) / p95(m.search)).toFixed(2), median(m.ratio).toFixed(2)
    ])
  )

  console.log("\nCPU time per call (user + system of this process; less sensitive to other load; hybrid without the query embedding):")
  table(
    ["memories", "mode", "search cpu p50", "search cpu p95", "of which ranking p50", "ranking p95", "why cpu p50", "why cpu p95", "why/search cpu p50"],
    all.map((m) => [
      fmt(m.size), m.mode, ms(p50(m.searchCpu)), ms(p95(m.searchCpu)), ms(p50(m.rankingCpu)), ms(p95(m.rankingCpu)),
      ms(p50(m.whyCpu)), ms(p95(m.whyCpu)), (p50(m.whyCpu) / p50(m.searchCpu)).toFixed(2)
    ])
  )

  const hybrid = all.filter((m) => m.mode === "hybrid")
  if (hybrid.length > 0) {
    console.log("\nQuery embedding in hybrid search (the http embedder, one query a call, to the hash server on loopback; each search and each why embeds once):")
    table(
      ["memories", "vectors built in", "embed wall p50", "embed wall p95", "embed cpu p50 (client)", "embed cpu p95 (client)", "search incl. embedding p50", "p95"],
      hybrid.map((m) => {
        const whole = m.search.map((s, i) => s + m.embed[2 * i]!)
        return [fmt(m.size), `${m.vectorSeconds?.toFixed(1)} s`, ms(p50(m.embed)), ms(p95(m.embed)), ms(p50(m.embedCpu)), ms(p95(m.embedCpu)), ms(p50(whole)), ms(p95(whole))]
      })
    )
  }
  if (local) {
    console.log(
      `\nFor reference, the local provider (USE-lite in-process), one query a call, ${local.wall.length} queries after loading in ${local.loadSeconds.toFixed(2)} s: ` +
        `wall p50 ${ms(p50(local.wall))}, p95 ${ms(p95(local.wall))}; CPU p50 ${ms(p50(local.cpu))}, p95 ${ms(p95(local.cpu))}`
    )
  }

  console.log(footer)

  for (const m of all.filter((x) => x.size === 100_000)) {
    const goal = m.mode === "keyword" ? GOALS.keywordSearchP95 : GOALS.hybridSearchP95
    const search = p95(m.search)
    const ratio = p95(m.why) / search
    const verdict = (ok: boolean) => (ok ? "meets" : "misses")
    console.log(
      `at 100,000, ${m.mode}: search p95 ${ms(search)}${m.mode === "hybrid" ? " excluding the query embedding" : ""} ` +
        `(${verdict(search < goal)} the goal of < ${goal} ms; CPU p95 ${ms(p95(m.searchCpu))}); ` +
        `why p95 is ${ratio.toFixed(2)}x search p95 (${verdict(ratio < GOALS.whyRatio)} the goal of < ${GOALS.whyRatio}x)`
    )
  }
}
