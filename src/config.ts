/**
 * Every tunable number in one place (configuration, not constants; docs/ranking.md lists them). The
 * defaults reproduce Runtime Memory 4.0 except where a benchmark in bench/ showed a gain; each
 * such change says which.
 */
import { Context } from "effect"

export interface RankingWeights {
  readonly relevance: number
  readonly outcome: number
  readonly recency: number
  readonly confidence: number
  readonly frequency: number
}

export interface LedgerConfig {
  /** Outcome counts halve every this many days. The evidence projection is anchored on it. */
  readonly halfLifeDays: number
  /** `f` is weighed this much more than `w` in the outcome score. */
  readonly failureWeight: number
  /** An outcome score at or below this leaves the memory out of recall. */
  readonly failureGate: number
  /**
   * When an outcome contradicts earlier ones (a failure after successes, a success after
   * failures), the earlier opposite counts are multiplied by this. 1 is Runtime Memory 4.0
   * exactly; below 1, advice that stopped working is noticed after a few failures instead of
   * as many failures as it once had successes. Repeated agreement is never discounted, so the
   * reference values (one success 0.33, ten 0.83, one failure -0.43, two -0.6) are unchanged.
   * 0.5 because bench/outcome-sim measured it: after good and bad advice swap, precision@1
   * returns to 1.00 (0.33 with 1), and it still settles at 0.99 with 20% of reports wrong.
   */
  readonly contradictionDiscount: number
  readonly weights: RankingWeights
  /** The relevance pool holds ceil(limit x poolFactor) memories. */
  readonly poolFactor: number
  /** With vectors: relevance = keywordShare x keyword + (1 - keywordShare) x vector. */
  readonly keywordShare: number
  /** Recency is 0.5^(age / recencyHalfLifeDays). */
  readonly recencyHalfLifeDays: number
  /** A cosine below this is no relevance at all. */
  readonly minVectorSimilarity: number
  /** Context injects a memory found by vector alone only at or above this cosine. */
  readonly contextMinCosine: number
  /** A result this similar (cosine) to a better one is a near-duplicate and dropped. */
  readonly nearDuplicateCosine: number
  /** BM25 weights of the indexed columns: content, written cues, tags, category, code words. */
  readonly fieldWeights: readonly [number, number, number, number, number]
  /**
   * When nothing in the pool has a non-negative record, the best gated memory is admitted on
   * probation, so a memory gated before the world changed can earn its way back without
   * waiting ~53 days for its failures to fade (bench/outcome-sim).
   */
  readonly probation: boolean
  /**
   * A new memory whose words overlap an existing one's this much (Dice coefficient of their
   * content words) is a near-duplicate: the write stores nothing and asks the caller to say
   * confirms, supersedes or distinct_from.
   */
  readonly similarWords: number
  /** With vectors, a cosine at or above this is a near-duplicate too. */
  readonly similarCosine: number
  /** A learned cue's BM25 counts this much against a memory's own text's. */
  readonly learnedCueWeight: number
  /**
   * Search and recall leave out a result that answers less of the query than this: the share
   * of the query's words (weighted by rarity) found in its text or in one of its cues, for the
   * best phrasing. A match by vector alone passes at `coverageCosine` instead.
   */
  readonly minCoverage: number
  readonly coverageCosine: number
  /** A memory keeps at most this many learned cues, the strongest. */
  readonly maxLearnedCues: number
  /** An outcome learns from at most this many of its conversation's recalls before it... */
  readonly cueWindowRecalls: number
  /** ...asked at most this long before it. */
  readonly cueWindowMs: number
}

export const DEFAULT_CONFIG: LedgerConfig = {
  halfLifeDays: 90,
  failureWeight: 1.5,
  failureGate: -0.5,
  contradictionDiscount: 0.5,
  weights: { relevance: 0.55, outcome: 0.25, recency: 0.1, confidence: 0.1, frequency: 0 },
  poolFactor: 2,
  keywordShare: 0.3,
  recencyHalfLifeDays: 30,
  minVectorSimilarity: 0.3,
  contextMinCosine: 0.65,
  nearDuplicateCosine: 0.95,
  fieldWeights: [1, 1, 0.5, 0.25, 0.5],
  probation: true,
  similarWords: 0.6,
  similarCosine: 0.9,
  learnedCueWeight: 1,
  minCoverage: 0.3,
  coverageCosine: 0.6,
  maxLearnedCues: 8,
  cueWindowRecalls: 10,
  cueWindowMs: 2 * 3_600_000
}

/** The configuration a program runs with, as a service: whichever store it opens, the services read the same settings. */
export class Settings extends Context.Tag("memledger/Settings")<Settings, LedgerConfig>() {}
