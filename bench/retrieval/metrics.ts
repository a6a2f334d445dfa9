/**
 * Retrieval-quality metrics for the retrieval benchmark: pure functions from "what a system
 * returned for each query" and "what the data set says answers it" to per-kind and overall
 * figures, and a markdown table of them.
 *
 * Guarantees:
 * - A query is answerable when its relevant list is non-empty; only answerable queries count
 *   towards MRR and hit@k (so negatives never lower or raise them).
 * - A query with no relevant memory (a negative) counts only towards the empty-result share: the
 *   best a system can do with it is to return nothing.
 * - Ranks are the positions in the returned list as given (1-based); a key returned twice counts
 *   at its first position. Nothing here sorts, dedupes or truncates the list for the caller.
 */

export const QUERY_KINDS = ["lexical", "task", "paraphrase", "code", "negative"] as const
export type QueryKind = (typeof QUERY_KINDS)[number]

/**
 * The half of the query set a query belongs to, fixed by its id so it never depends on file
 * order or on a seed: odd-numbered ids ("q001", "q219") are for tuning, even-numbered ones are
 * held out, so a ranking tuned on one half can be checked on queries it never saw.
 */
export const queryHalf = (id: string): "tune" | "holdout" => {
  const match = /^q(\d+)$/.exec(id)
  if (match === null) throw new Error(`not a query id: ${id}`)
  return Number(match[1]) % 2 === 1 ? "tune" : "holdout"
}

/** One query as run: the ranked keys a system returned and the keys that answer it. */
export interface QueryOutcome {
  readonly id: string
  readonly kind: QueryKind
  readonly returned: ReadonlyArray<string>
  readonly relevant: ReadonlyArray<string>
}

/** Scores of one query; the answerable figures are null for a negative (no relevant key). */
export interface QueryScore {
  readonly id: string
  readonly kind: QueryKind
  readonly answerable: boolean
  readonly reciprocalRank: number | null
  readonly hit1: boolean | null
  readonly hit3: boolean | null
  readonly hit5: boolean | null
  readonly empty: boolean
}

/** One aggregated row. Shares are in [0, 1]; null where the row has no query the figure applies to. */
export interface SummaryRow {
  readonly label: QueryKind | "overall"
  readonly queries: number
  readonly answerable: number
  readonly mrr: number | null
  readonly hit1: number | null
  readonly hit3: number | null
  readonly hit5: number | null
  /** Share of the row's negatives (queries with no relevant key) for which nothing was returned. */
  readonly negativesEmpty: number | null
}

/** 1 / rank of the first relevant key in `returned`, or 0 when none is returned. */
export const reciprocalRank = (returned: ReadonlyArray<string>, relevant: ReadonlyArray<string>): number => {
  const rank = firstRelevantRank(returned, relevant)
  return rank === null ? 0 : 1 / rank
}

/** Whether a relevant key is among the first `k` returned. */
export const hitAt = (returned: ReadonlyArray<string>, relevant: ReadonlyArray<string>, k: number): boolean => {
  const rank = firstRelevantRank(returned, relevant)
  return rank !== null && rank <= k
}

export const scoreQuery = (outcome: QueryOutcome): QueryScore => {
  const answerable = outcome.relevant.length > 0
  const { returned, relevant } = outcome
  return {
    id: outcome.id,
    kind: outcome.kind,
    answerable,
    reciprocalRank: answerable ? reciprocalRank(returned, relevant) : null,
    hit1: answerable ? hitAt(returned, relevant, 1) : null,
    hit3: answerable ? hitAt(returned, relevant, 3) : null,
    hit5: answerable ? hitAt(returned, relevant, 5) : null,
    empty: returned.length === 0
  }
}

/** One row per kind present, in QUERY_KINDS order, then an overall row over every query. */
export const summarize = (outcomes: ReadonlyArray<QueryOutcome>): SummaryRow[] => {
  const scores = outcomes.map(scoreQuery)
  const rows: SummaryRow[] = []
  for (const kind of QUERY_KINDS) {
    const ofKind = scores.filter((s) => s.kind === kind)
    if (ofKind.length > 0) rows.push(aggregate(kind, ofKind))
  }
  rows.push(aggregate("overall", scores))
  return rows
}

/** A markdown table of summary rows; figures to three decimals, a dash where one does not apply. */
export const formatTable = (rows: ReadonlyArray<SummaryRow>): string => {
  const header = ["kind", "queries", "MRR", "hit@1", "hit@3", "hit@5", "negatives empty"]
  const lines = [row(header), row(header.map((_, i) => (i < 2 ? "---" : "---:")))]
  for (const r of rows) {
    lines.push(row([r.label, String(r.queries), fixed(r.mrr), fixed(r.hit1), fixed(r.hit3), fixed(r.hit5), fixed(r.negativesEmpty)]))
  }
  return lines.join("\n")
}

const firstRelevantRank = (returned: ReadonlyArray<string>, relevant: ReadonlyArray<string>): number | null => {
  const wanted = new Set(relevant)
  const index = returned.findIndex((key) => wanted.has(key))
  return index === -1 ? null : index + 1
}

const aggregate = (label: SummaryRow["label"], scores: ReadonlyArray<QueryScore>): SummaryRow => {
  const answerable = scores.filter((s) => s.answerable)
  const negatives = scores.filter((s) => !s.answerable)
  return {
    label,
    queries: scores.length,
    answerable: answerable.length,
    mrr: mean(answerable.map((s) => s.reciprocalRank ?? 0)),
    hit1: mean(answerable.map((s) => (s.hit1 ? 1 : 0))),
    hit3: mean(answerable.map((s) => (s.hit3 ? 1 : 0))),
    hit5: mean(answerable.map((s) => (s.hit5 ? 1 : 0))),
    negativesEmpty: mean(negatives.map((s) => (s.empty ? 1 : 0)))
  }
}

const mean = (values: ReadonlyArray<number>): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length

const fixed = (value: number | null): string => (value === null ? "–" : value.toFixed(3))

const row = (cells: ReadonlyArray<string>): string => `| ${cells.join(" | ")} |`

/**
 * MRR for each of `kinds`, overall, and for paraphrases on the tuning and held-out halves
 * apart: the figures the retrieval benches print a row of.
 */
export const mrrByKindAndHalf = (outcomes: ReadonlyArray<QueryOutcome>, kinds: ReadonlyArray<QueryKind>): number[] => {
  const mrr = (of: ReadonlyArray<QueryOutcome>, label: string) => summarize(of).find((r) => r.label === label)?.mrr ?? 0
  const paraphrases = outcomes.filter((o) => o.kind === "paraphrase")
  return [
    ...kinds.map((k) => mrr(outcomes, k)),
    mrr(outcomes, "overall"),
    mrr(paraphrases.filter((o) => queryHalf(o.id) === "tune"), "paraphrase"),
    mrr(paraphrases.filter((o) => queryHalf(o.id) === "holdout"), "paraphrase")
  ]
}
