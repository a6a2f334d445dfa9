/**
 * `mem verify`: recomputes the hash chain, decodes every payload with its schema, runs
 * SQLite's own integrity check, and compares the projections with a rebuild done inside a
 * transaction that is then rolled back, so verifying never changes the file.
 */
import type { LedgerConfig } from "../config.js"
import { chainHash, decodePayload, GENESIS_HASH, sha256 } from "../events/codec.js"
import { readRows, type EventRow } from "../events/log.js"
import { rebuildProjections, type Progress } from "../projections/rebuild.js"
import { diffSnapshots, snapshotProjections } from "../projections/snapshot.js"
import { quickCheck, type Db } from "./database.js"
import { clearStatements } from "./statements.js"

export interface VerifyReport {
  readonly ok: boolean
  readonly events: number
  readonly integrity: string
  readonly chain: { readonly ok: boolean; readonly brokenAt?: number; readonly reason?: string }
  readonly projections: { readonly ok: boolean; readonly differences: ReturnType<typeof diffSnapshots> }
}

/** `onProgress` counts in events: the chain check is the first half of the work, the rebuild the second. */
export const verifyStore = (db: Db, config: LedgerConfig, onProgress?: Progress): VerifyReport => {
  const integrity = quickCheck(db)
  if (integrity !== "ok") return damaged(db, integrity)
  // The log's size, not how far the chain check got: a break at #3 of 27 is still 27 events.
  const events = countEvents(db)
  const chain = verifyChain(db, onProgress && ((done) => onProgress(done / 2, events)))
  const differences = compareWithRebuild(db, config, onProgress && ((done, total) => onProgress(events / 2 + (total > 0 ? done / total : 1) * (events / 2), events)))
  onProgress?.(events, events)
  return {
    ok: chain.ok && differences.length === 0,
    events,
    integrity,
    chain: chain.ok ? { ok: true } : { ok: false, brokenAt: chain.brokenAt!, reason: chain.reason! },
    projections: { ok: differences.length === 0, differences }
  }
}

/**
 * The report on a file SQLite finds damaged: what of the chain still reads, and no rebuild (it
 * would write, if only to roll back, to a file that is reported as never written to).
 */
const damaged = (db: Db, integrity: string): VerifyReport => {
  const checked = verifyChain(db)
  const chain = checked.ok ? { ok: true } : { ok: false, brokenAt: checked.brokenAt!, reason: checked.reason! }
  // Not compared, so not "equal": the one entry says why, for the report's reader.
  const notCompared = { projection: "(not compared: SQLite finds the file damaged)", expected: null, actual: null }
  return { ok: false, events: attempt(() => countEvents(db)) ?? checked.events, integrity, chain, projections: { ok: false, differences: [notCompared] } }
}

const attempt = <A>(f: () => A): A | undefined => {
  try {
    return f()
  } catch {
    return undefined
  }
}

const countEvents = (db: Db): number => (db.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n

/** `events`: how many events chained soundly, before the break if there is one. `onProgress` hears every 50,000 events. */
export const verifyChain = (db: Db, onProgress?: (done: number) => void): { ok: boolean; events: number; brokenAt?: number; reason?: string } => {
  const rows = readRows(db)
  try {
    return checkChain(rows, onProgress)
  } finally {
    // Ends the statement's iteration when the check stops early, or the connection stays busy.
    attempt(() => rows.return(undefined))
  }
}

const checkChain = (rows: Generator<EventRow>, onProgress?: (done: number) => void): { ok: boolean; events: number; brokenAt?: number; reason?: string } => {
  let previous = GENESIS_HASH
  let expectedSeq = 1
  for (;;) {
    let next: IteratorResult<EventRow>
    try {
      next = rows.next()
    } catch (error) {
      // A damaged page: the chain is sound up to here, and what follows cannot be read.
      const reason = `the log cannot be read from here on (${error instanceof Error ? error.message : String(error)})`
      return { ok: false, events: expectedSeq - 1, brokenAt: expectedSeq, reason }
    }
    if (next.done) break
    const row = next.value
    const broken = (reason: string) => ({ ok: false, events: expectedSeq - 1, brokenAt: row.seq, reason })
    if (row.seq !== expectedSeq) return broken(`sequence jumps from ${expectedSeq - 1} to ${row.seq}`)
    if (row.payload !== null) {
      if (sha256(row.payload) !== row.payload_hash) return broken("the payload does not match its hash (edited)")
      try {
        decodePayload(row.type, row.version, row.payload)
      } catch (error) {
        return broken(error instanceof Error ? error.message : String(error))
      }
    }
    const hash = chainHash(
      previous,
      { seq: row.seq, id: row.id, type: row.type, version: row.version, recordedAt: row.recorded_at, origin: row.origin, agent: row.agent },
      row.payload_hash
    )
    if (hash !== row.hash) return broken("the envelope or the chain was altered")
    previous = hash
    if (onProgress && expectedSeq % 50_000 === 0) onProgress(expectedSeq)
    expectedSeq++
  }
  return { ok: true, events: expectedSeq - 1 }
}

class RollBack extends Error {}

const compareWithRebuild = (db: Db, config: LedgerConfig, onProgress?: Progress) => {
  let differences: ReturnType<typeof diffSnapshots> = []
  try {
    db.transaction(() => {
      const current = snapshotProjections(db)
      rebuildProjections(db, config, onProgress)
      differences = diffSnapshots(current, snapshotProjections(db))
      throw new RollBack()
    }).immediate()
  } catch (error) {
    if (!(error instanceof RollBack)) throw error
  } finally {
    clearStatements(db)
  }
  return differences
}
