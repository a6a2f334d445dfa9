/**
 * `mem verify`: recomputes the hash chain, decodes every payload with its schema, runs
 * SQLite's own integrity check, and compares the projections with a rebuild done inside a
 * transaction that is then rolled back, so verifying never changes the file.
 */
import type { LedgerConfig } from "../config.js"
import { chainHash, decodePayload, GENESIS_HASH, sha256 } from "../events/codec.js"
import { readRows } from "../events/log.js"
import { rebuildProjections } from "../projections/rebuild.js"
import { diffSnapshots, snapshotProjections } from "../projections/snapshot.js"
import type { Db } from "./database.js"
import { clearStatements } from "./statements.js"

export interface VerifyReport {
  readonly ok: boolean
  readonly events: number
  readonly integrity: string
  readonly chain: { readonly ok: boolean; readonly brokenAt?: number; readonly reason?: string }
  readonly projections: { readonly ok: boolean; readonly differences: ReturnType<typeof diffSnapshots> }
}

export const verifyStore = (db: Db, config: LedgerConfig): VerifyReport => {
  const integrity = (db.pragma("quick_check", { simple: true }) as string) ?? "unknown"
  const chain = verifyChain(db)
  const differences = compareWithRebuild(db, config)
  return {
    ok: integrity === "ok" && chain.ok && differences.length === 0,
    events: chain.events,
    integrity,
    chain: chain.ok ? { ok: true } : { ok: false, brokenAt: chain.brokenAt!, reason: chain.reason! },
    projections: { ok: differences.length === 0, differences }
  }
}

export const verifyChain = (db: Db): { ok: boolean; events: number; brokenAt?: number; reason?: string } => {
  let previous = GENESIS_HASH
  let expectedSeq = 1
  for (const row of readRows(db)) {
    const broken = (reason: string) => ({ ok: false, events: row.seq, brokenAt: row.seq, reason })
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
    expectedSeq++
  }
  return { ok: true, events: expectedSeq - 1 }
}

class RollBack extends Error {}

const compareWithRebuild = (db: Db, config: LedgerConfig) => {
  let differences: ReturnType<typeof diffSnapshots> = []
  try {
    db.transaction(() => {
      const current = snapshotProjections(db)
      rebuildProjections(db, config)
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
