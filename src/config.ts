/**
 * Every tunable number in one place (brief section 4: configuration, not constants). The
 * defaults reproduce Runtime Memory 4.0; they change only when the retrieval benchmark shows
 * a gain.
 */
export interface LedgerConfig {
  /** Outcome counts halve every this many days. The evidence projection is anchored on it. */
  readonly halfLifeDays: number
  /** `f` is weighed this much more than `w` in the outcome score. */
  readonly failureWeight: number
  /** An outcome score at or below this leaves the memory out of recall. */
  readonly failureGate: number
}

export const DEFAULT_CONFIG: LedgerConfig = {
  halfLifeDays: 90,
  failureWeight: 1.5,
  failureGate: -0.5
}
