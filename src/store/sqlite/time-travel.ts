/**
 * The store as it was at a moment: the events recorded up to then, replayed into a store in
 * memory with every projection rebuilt. `why --at` ranks there, with the same code as now.
 */
import { Either } from "effect"
import { appendRaw, readRows } from "./event-log.js"
import { rebuildProjections } from "./projections/rebuild.js"
import { LedgerStore } from "./ledger-store.js"

export const replayUntil = (store: LedgerStore, untilIso: string): LedgerStore => {
  // An in-memory database has no file to be damaged or foreign, so opening it cannot fail.
  const past = Either.getOrThrow(LedgerStore.open(":memory:", store.config))
  const rows = store.read((db) => [...readRows(db, { until: untilIso })])
  past.writeOrThrow((tx) => {
    appendRaw(
      tx.db,
      rows.map((r) => ({
        id: r.id,
        type: r.type,
        version: r.version,
        recordedAt: r.recorded_at,
        origin: r.origin,
        agent: r.agent,
        ...(r.author === null ? {} : { author: r.author }),
        payload: r.payload,
        payloadHash: r.payload_hash
      }))
    )
    rebuildProjections(tx.db, store.config)
  })
  return past
}
