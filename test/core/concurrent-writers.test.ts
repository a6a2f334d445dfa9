/**
 * Protects concurrent writing: four OS processes appending to one database file at the same
 * time lose no event and duplicate none; sequence numbers stay gap-free, the chain verifies,
 * and the projections they maintained together equal a rebuild.
 */
import { join } from "node:path"
import Database from "better-sqlite3"
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { rebuildProjections } from "../../src/store/sqlite/projections/rebuild.js"
import { chainProblem } from "../support/chain.js"
import { startWorker, workersInTempDir } from "../support/processes.js"
import { expectSameProjections, snapshot } from "../support/snapshot.js"

const WORKERS = 4
const EVENTS_EACH = 500

const tempDir = workersInTempDir()

test(`${WORKERS} processes appending ${EVENTS_EACH} events each lose and duplicate nothing`, async () => {
  const path = join(tempDir(), "shared.db")
  const workers = Array.from({ length: WORKERS }, (_, w) => startWorker("append-worker.mjs", [path, String(w), String(EVENTS_EACH)]))
  await Promise.all(workers.map((w) => w.waitForLine((l) => l === "ready")))
  for (const w of workers) w.child.stdin!.write("go\n")
  const reported = await Promise.all(
    workers.map(async (w) => {
      const { code, stderr } = await w.exited
      expect(code, stderr).toBe(0)
      return (JSON.parse(await w.waitForLine((l) => l.startsWith("{"))) as { ids: string[] }).ids
    })
  )

  const db = new Database(path)
  try {
    const rows = db.prepare("SELECT seq, id, origin FROM events ORDER BY seq").all() as { seq: number; id: string; origin: string }[]
    expect(rows).toHaveLength(WORKERS * EVENTS_EACH)
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: WORKERS * EVENTS_EACH }, (_, i) => i + 1))
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
    const seqOf = new Map(rows.map((r) => [r.id, r.seq]))
    reported.forEach((ids, w) => {
      expect(ids).toHaveLength(EVENTS_EACH)
      // None lost: every id a worker was told it appended is there, from that worker, in its order.
      const seqs = ids.map((id) => seqOf.get(id))
      expect(seqs.every((s) => s !== undefined)).toBe(true)
      expect(seqs).toEqual([...seqs].sort((a, b) => a! - b!))
      expect(new Set(ids.map((id) => rows[seqOf.get(id)! - 1]!.origin))).toEqual(new Set([`worker:${w}`]))
    })
    // The writers really overlapped: their events interleave in the log.
    const switches = rows.filter((r, i) => i > 0 && r.origin !== rows[i - 1]!.origin).length
    expect(switches).toBeGreaterThan(WORKERS)

    expect(chainProblem(db)).toBeUndefined()
    const checkpoints = db.prepare("SELECT DISTINCT last_seq FROM projection_checkpoints").all()
    expect(checkpoints).toEqual([{ last_seq: WORKERS * EVENTS_EACH }])
    const incremental = snapshot(db)
    expect(incremental.memories).toHaveLength(WORKERS * EVENTS_EACH)
    db.transaction(() => rebuildProjections(db, DEFAULT_CONFIG)).immediate()
    expectSameProjections(incremental, snapshot(db), ["memories", "evidence", "fts", "ftsOrphans", "ftsTotals", "conversations", "memoryCounts", "outcomeDays"])
  } finally {
    db.close()
  }
}, 120_000)
