/**
 * `mem verify` on PostgreSQL: the hash chain recomputed and every payload decoded, then the
 * projections compared with the log folded afresh (log-fold.ts): each memory, its evidence, each
 * conversation and the overview's counts as the store holds them against the fold's. As on SQLite, a broken chain is
 * recorded in the store (no process writes after it) and a whole one lifts an earlier finding.
 */
import type { LedgerConfig } from "../../config.js"
import { LogChain } from "../../events/log-chain.js"
import { memoryGroupKey, type OutcomeDay } from "../../projections/count-state.js"
import { foldLog } from "../../projections/log-fold.js"
import { logOutline } from "./rebuild.js"
import type { Outcome } from "../../domain/vocabulary.js"
import type { ChainBreak, Progress, ProjectionDifference, VerifyReport } from "../store-maintenance.js"
import { readEvents, readRows } from "./event-log.js"
import { readChainBreak } from "./memory-reads.js"
import { forgottenOrigins, listConversations, loadEvidence, loadMemory } from "./projections.js"
import type { PgLedger } from "./pg-ledger.js"
import type { SyncPg } from "./sync-client.js"

export const verifyStore = (ledger: PgLedger, config: LedgerConfig, now: string, onProgress?: Progress): VerifyReport => {
  const found = ledger.read((db) => {
    const events = db.one<{ n: number }>("SELECT count(*) AS n FROM events")!.n
    const chain = new LogChain()
    for (const row of readRows(db)) {
      const broken = chain.check(row, { decode: true })
      if (broken !== undefined) return { events, chain: { ok: false, brokenAt: row.seq, reason: broken } }
      if (onProgress && chain.sound % 10_000 === 0) onProgress(chain.sound / 2, events)
    }
    return { events, chain: { ok: true }, differences: differences(db, config) }
  })
  const { events, chain } = found
  if (!chain.ok || !("differences" in found)) {
    const refused: ChainBreak = { brokenAt: chain.brokenAt!, reason: chain.reason!, foundAt: now }
    ledger.db.execute(
      "INSERT INTO chain_break (id, broken_at, reason, found_at) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO UPDATE SET broken_at = excluded.broken_at, reason = excluded.reason, found_at = excluded.found_at",
      [refused.brokenAt, refused.reason, refused.foundAt]
    )
    const notCompared = { projection: "(not compared: the log does not verify)", expected: null, actual: null }
    return { ok: false, events, integrity: "ok", chain, projections: { ok: false, differences: [notCompared] }, writes: { refused } }
  }
  const lifted = ledger.read(readChainBreak)
  if (lifted !== undefined) ledger.db.execute("DELETE FROM chain_break WHERE id = 1")
  onProgress?.(events, events)
  const projections = { ok: found.differences.length === 0, differences: found.differences }
  return { ok: projections.ok, events, integrity: "ok", chain, projections, ...(lifted === undefined ? {} : { writes: { lifted } }) }
}

/** The first difference of each projection between the store and a fresh fold of its log. */
const differences = (db: SyncPg, config: LedgerConfig): ProjectionDifference[] => {
  const outline = logOutline(db)
  const hidden = outline.hidden
  const folded = foldLog(readEvents(db), outline, config)
  const out: ProjectionDifference[] = []
  const first = (projection: string, pairs: Iterable<[unknown, unknown]>) => {
    for (const [expected, actual] of pairs) {
      if (JSON.stringify(expected) !== JSON.stringify(actual)) return void out.push({ projection, expected: expected ?? null, actual: actual ?? null })
    }
  }
  const count = db.one<{ n: number }>("SELECT count(*) AS n FROM memories")!.n
  first("memories", [[folded.memories.size, count], ...[...folded.memories.values()].map((m): [unknown, unknown] => [m, loadMemory(db, m.id)])])
  first("evidence", [...folded.memories.keys()].map((id): [unknown, unknown] => [folded.evidence.get(id), loadEvidence(db, id)]))
  const stored = new Map(listConversations(db).map((c) => [c.origin, c]))
  first("conversations", [[folded.conversations.size, stored.size], ...[...folded.conversations.values()].map((c): [unknown, unknown] => [c, stored.get(c.origin)])])
  first("forgotten origins", [[[...hidden].sort(), [...forgottenOrigins(db)].sort()]])
  const groups = new Map(folded.counts.memories.map((g) => [memoryGroupKey(g), g.n]))
  const storedGroups = new Map(db.query<{ grp: string; n: number }>("SELECT grp, n FROM memory_counts").map((r) => [r.grp, r.n]))
  first("memory counts", pairedBy(groups, storedGroups, (grp, n) => (n === undefined ? undefined : { grp, n })))
  const dayKey = (d: OutcomeDay) => `${d.day} ${d.origin}`
  const days = new Map(folded.counts.outcomeDays.map((d) => [dayKey(d), d]))
  const storedDays = new Map(db.query<OutcomeDay>("SELECT day, origin, worked, failed, partial FROM outcome_days").map((d) => [dayKey(d), d]))
  first("outcome days", pairedBy(days, storedDays, (_, d) => d && { day: d.day, origin: d.origin, worked: d.worked, failed: d.failed, partial: d.partial }))
  const privateOutcomes = new Map(folded.counts.privateOutcomes.map((o) => [String(o.seq), o]))
  const storedPrivate = new Map(
    db
      .query<{ seq: number; day: string; origin: string; outcome: Outcome; memory_ids: string }>("SELECT seq, day, origin, outcome, memory_ids FROM private_outcomes")
      .map((o) => [String(o.seq), { seq: Number(o.seq), day: o.day, origin: o.origin, outcome: o.outcome, memoryIds: JSON.parse(o.memory_ids) as string[] }])
  )
  first("private outcomes", pairedBy(privateOutcomes, storedPrivate, (_, o) => o))
  return out
}

/** Each key of either map with what the fold has under it and what the store has, as `shown` shows them. */
const pairedBy = <A>(folded: Map<string, A>, stored: Map<string, A>, shown: (key: string, value: A | undefined) => unknown): Array<[unknown, unknown]> =>
  [...new Set([...folded.keys(), ...stored.keys()])].sort().map((key) => [shown(key, folded.get(key)), shown(key, stored.get(key))])
