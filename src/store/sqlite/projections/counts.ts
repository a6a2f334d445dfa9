/**
 * The `counts` projection (count-state.ts): memories per group the overview counts by, outcome
 * reports per conversation and UTC day, and apart, the outcomes naming a memory some event made
 * private, whose readers are decided when read (console-queries.ts `outcomesByDay`). A group is kept under one key of all its
 * columns, since a primary key over columns that may be null (project, private_to) would not
 * make a group one row in SQLite; a group that empties is deleted, as a rebuild never writes it.
 */
import type { CountChanges } from "../../../projections/count-state.js"
import { memoryGroupKey } from "../../../projections/count-state.js"
import type { Writes } from "../statements.js"
import type { Projection } from "./projection.js"

export const countsProjection: Projection = {
  name: "counts",
  // 2: outcomes on memories made private counted apart.
  version: 2,
  create: (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS memory_counts (
        grp TEXT PRIMARY KEY,
        category TEXT NOT NULL,
        project TEXT,
        status TEXT NOT NULL,
        forgotten INTEGER NOT NULL,
        superseded INTEGER NOT NULL,
        private_to TEXT,
        n INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS outcome_days (
        day TEXT NOT NULL,
        origin TEXT NOT NULL,
        worked INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        partial INTEGER NOT NULL,
        PRIMARY KEY (day, origin)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS private_outcomes (
        seq INTEGER PRIMARY KEY,
        day TEXT NOT NULL,
        origin TEXT NOT NULL,
        outcome TEXT NOT NULL,
        memory_ids TEXT NOT NULL
      ) STRICT;
      CREATE INDEX IF NOT EXISTS private_outcomes_day ON private_outcomes(day);
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS memory_counts; DROP TABLE IF EXISTS outcome_days; DROP TABLE IF EXISTS private_outcomes")
}

const ADD_TO_GROUP = `INSERT INTO memory_counts (grp, category, project, status, forgotten, superseded, private_to, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT(grp) DO UPDATE SET n = n + excluded.n`
const ADD_TO_DAY = `INSERT INTO outcome_days (day, origin, worked, failed, partial) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT(day, origin) DO UPDATE SET worked = worked + excluded.worked, failed = failed + excluded.failed, partial = partial + excluded.partial`

/** Adds a write's changes (or, into empty tables, a rebuild's counts). */
export const addCounts = (to: Writes, changes: CountChanges): void => {
  for (const g of changes.memories) {
    to.run(ADD_TO_GROUP, [memoryGroupKey(g), g.category, g.project, g.status, g.forgotten ? 1 : 0, g.superseded ? 1 : 0, g.privateTo, g.n])
  }
  if (changes.memories.some((g) => g.n < 0)) to.run("DELETE FROM memory_counts WHERE n = 0", [])
  for (const d of changes.outcomeDays) to.run(ADD_TO_DAY, [d.day, d.origin, d.worked, d.failed, d.partial])
  if (changes.outcomeDays.some((d) => d.worked < 0 || d.failed < 0 || d.partial < 0)) {
    to.run("DELETE FROM outcome_days WHERE worked = 0 AND failed = 0 AND partial = 0", [])
  }
  for (const o of changes.privateOutcomes) to.run(ADD_PRIVATE, [o.seq, o.day, o.origin, o.outcome, JSON.stringify(o.memoryIds)])
}

const ADD_PRIVATE = "INSERT INTO private_outcomes (seq, day, origin, outcome, memory_ids) VALUES (?, ?, ?, ?, ?)"

/** Whether an event before `seq` made the memory private (count-state.ts `madePrivate`): read from the log. */
export const MADE_PRIVATE_BEFORE = `SELECT 1 FROM event_memories m JOIN events e ON e.seq = m.seq
  WHERE m.memory_id = ? AND m.seq < ? AND e.type IN ('MemoryAdded', 'MemoryRevised') AND e.author IS NOT NULL
    AND json_extract(e.payload, '$.visibility') = 'private' LIMIT 1`
