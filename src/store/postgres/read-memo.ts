/**
 * What one read-only transaction on PostgreSQL has read already, so that the port's reads that
 * a search makes one after the other (ranking-run.ts: candidates, the results' rows, the query's
 * document frequencies, the results' learned cues, their short ids) are answered from fewer
 * statements: each statement a search sends costs a round trip to the worker thread and the
 * server. Within one snapshot what was read cannot change, so an answer from here is the one a
 * statement would give. Outside a read-only transaction (in a write, which changes what it
 * reads) nothing is kept and every read asks the database.
 */
import type { LearnedCueRow } from "../../projections/cue-state.js"

export class ReadMemo {
  private active = false
  /** Memories' index: each term's document frequency (0 when asked and absent), and how many documents there are. */
  private readonly frequencies = new Map<string, number>()
  private documents: number | undefined
  /** Each memory read with its extras: its learned cues (in key order) and its short id. */
  private readonly learned = new Map<string, LearnedCueRow[]>()
  private readonly shortIds = new Map<string, string>()

  /** Runs `f`, a read-only transaction's work, keeping what it reads until it ends. */
  within<A>(f: () => A): A {
    this.active = true
    try {
      return f()
    } finally {
      this.active = false
      this.frequencies.clear()
      this.documents = undefined
      this.learned.clear()
      this.shortIds.clear()
    }
  }

  get keeping(): boolean {
    return this.active
  }

  keepFrequencies(df: ReadonlyMap<string, number>, documents: number): void {
    if (!this.active) return
    for (const [term, n] of df) this.frequencies.set(term, n)
    this.documents = documents
  }

  /** The memories' document frequency of each stem, when every one was read already. */
  frequenciesOf(stems: ReadonlyArray<string>): { total: number; df: Map<string, number> } | undefined {
    if (!this.active || this.documents === undefined || !stems.every((s) => this.frequencies.has(s))) return undefined
    return { total: this.documents, df: new Map(stems.map((s) => [s, this.frequencies.get(s)!])) }
  }

  keepMemory(id: string, learned: LearnedCueRow[], shortId: string): void {
    if (!this.active) return
    this.learned.set(id, learned)
    this.shortIds.set(id, shortId)
  }

  /** As learnedCuesOf answers: only the memories that have cues. */
  learnedOf(ids: ReadonlyArray<string>): Map<string, LearnedCueRow[]> | undefined {
    if (!this.active || !ids.every((id) => this.learned.has(id))) return undefined
    return new Map(ids.flatMap((id) => (this.learned.get(id)!.length === 0 ? [] : [[id, this.learned.get(id)!] as const])))
  }

  shortIdsOf(ids: ReadonlyArray<string>): Map<string, string> | undefined {
    if (!this.active || !ids.every((id) => this.shortIds.has(id))) return undefined
    return new Map(ids.map((id) => [id, this.shortIds.get(id)!]))
  }
}
