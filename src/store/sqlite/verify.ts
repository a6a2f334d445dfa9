/**
 * `mem verify`: recomputes the hash chain, decodes every payload with its schema, runs
 * SQLite's own integrity check, and compares the projections with a rebuild done inside a
 * transaction that is then rolled back, so verifying never changes the log or its projections.
 *
 * What it writes is its finding about the chain (chain-break.ts): a broken chain is kept in the
 * store, and every process refuses writes from then on; a verify that finds the chain whole
 * lifts an earlier finding. On a file SQLite finds damaged it writes nothing at all.
 */
import type { LedgerConfig } from "../../config.js"
import { LogChain } from "../../events/log-chain.js"
import { readRows } from "./event-log.js"
import { rebuildProjections } from "./projections/rebuild.js"
import { diffSnapshots, snapshotProjections } from "./projections/snapshot.js"
import { clearChainBreak, recordChainBreak } from "./chain-break.js"
import { quickCheck, type Db } from "./database.js"
import { clearStatements } from "./statements.js"
import type { EventRow } from "../../events/log.js"
import type { Progress } from "../store-maintenance.js"
import type { ChainBreak } from "../store-maintenance.js"
import type { VerifyReport } from "../store-maintenance.js"

/**
 * `now`: when the verify runs (ISO-8601 UTC), kept with a finding. `onProgress` counts in
 * events: the chain check is the first half of the work, the rebuild the second.
 */
export const verifyStore = (db: Db, config: LedgerConfig, now: string, onProgress?: Progress): VerifyReport => {
  const integrity = quickCheck(db)
  if (integrity !== "ok") return damaged(db, integrity)
  // The log's size, not how far the chain check got: a break at #3 of 27 is still 27 events.
  const events = countEvents(db)
  const chain = verifyChain(db, onProgress && ((done) => onProgress(done / 2, events)))
  if (!chain.ok) {
    const refused: ChainBreak = { brokenAt: chain.brokenAt!, reason: chain.reason!, foundAt: now }
    recordChainBreak(db, refused)
    // A rebuild folds every payload, and one that does not verify may not even be JSON.
    const notCompared = { projection: "(not compared: the log does not verify)", expected: null, actual: null }
    const broken = { ok: false, brokenAt: chain.brokenAt!, reason: chain.reason! }
    return { ok: false, events, integrity, chain: broken, projections: { ok: false, differences: [notCompared] }, writes: { refused } }
  }
  const differences = compareWithRebuild(db, config, onProgress && ((done, total) => onProgress(events / 2 + (total > 0 ? done / total : 1) * (events / 2), events)))
  onProgress?.(events, events)
  const lifted = clearChainBreak(db)
  return {
    ok: differences.length === 0,
    events,
    integrity,
    chain: { ok: true },
    projections: { ok: differences.length === 0, differences },
    ...(lifted === undefined ? {} : { writes: { lifted } })
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
  const chain = new LogChain()
  for (;;) {
    let next: IteratorResult<EventRow>
    try {
      next = rows.next()
    } catch (error) {
      // A damaged page: the chain is sound up to here, and what follows cannot be read.
      const reason = `the log cannot be read from here on (${error instanceof Error ? error.message : String(error)})`
      return { ok: false, events: chain.sound, brokenAt: chain.sound + 1, reason }
    }
    if (next.done) break
    const broken = chain.check(next.value, { decode: true })
    if (broken !== undefined) return { ok: false, events: chain.sound, brokenAt: next.value.seq, reason: broken }
    if (onProgress && chain.sound % 50_000 === 0) onProgress(chain.sound)
  }
  return { ok: true, events: chain.sound }
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
