/**
 * A unit of reads is one snapshot, even while another process rebuilds the projections: a
 * rebuild committed by another connection in the middle of a unit changes nothing the unit
 * reads, and the next unit sees the rebuilt store whole. A search on one server must never find
 * the store empty because `mem rebuild` (or `mem purge`, which ends in the same rebuild) ran
 * elsewhere, nor wait for it. On every store, each side opened by its location as two processes
 * would open it.
 */
import { Effect, ManagedRuntime } from "effect"
import { afterEach, expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import type { MemoryId } from "../../src/domain/ids.js"
import { StoreLive } from "../../src/services/app.js"
import { LedgerReader } from "../../src/store/ledger-reader.js"
import type { LedgerReads } from "../../src/store/ledger-reads.js"
import { StoreMaintenance } from "../../src/store/store-maintenance.js"
import { actor, Commands, describeEachStore, runAt, T0 } from "../support/services.js"

const MEMORIES = 5

const opened: Array<{ readonly dispose: () => Promise<void> }> = []
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.dispose()
})

/** The store at `location` as another process opens it. */
const openAt = (location: string) => {
  const runtime = ManagedRuntime.make(StoreLive(location, DEFAULT_CONFIG))
  opened.push(runtime)
  return runtime
}

/** What the unit reads: the memories by id and by keyword, and the counts. */
const seen = (reads: LedgerReads, ids: ReadonlyArray<MemoryId>) => ({
  byId: ids.filter((id) => reads.memory(id) !== undefined).length,
  byKeyword: reads.keywordCandidates(["deploy"], { project: null }, 10, DEFAULT_CONFIG, T0).size,
  live: reads.counts(T0, DEFAULT_CONFIG).memories.live
})

const whole = { byId: MEMORIES, byKeyword: MEMORIES, live: MEMORIES }

describeEachStore((store) => {
  it("sees the store whole while a rebuild commits on another connection", async () => {
    const location = await store.fresh()
    const ids = await runAt(
      location,
      T0,
      Effect.gen(function* () {
        const c = yield* Commands
        const ids: MemoryId[] = []
        for (let i = 0; i < MEMORIES; i++) ids.push((yield* c.add({ content: `deploy step ${i} of the release`, scope: "global", project: null }, actor)).id)
        return ids
      })
    )
    const reader = await openAt(location).runPromise(LedgerReader)
    const other = await openAt(location).runPromise(StoreMaintenance)
    const [before, after] = await Effect.runPromise(
      reader.read((reads) => {
        // The first read starts the unit's snapshot; the rebuild commits after it, on another connection.
        const before = seen(reads, ids)
        Effect.runSync(other.rebuild())
        return [before, seen(reads, ids)]
      })
    )
    expect(before).toEqual(whole)
    expect(after).toEqual(whole)
    expect(await Effect.runPromise(reader.read((reads) => seen(reads, ids)))).toEqual(whole)
  })
})
