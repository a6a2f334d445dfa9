/**
 * One checkpoint row per projection: its version and the last sequence number applied. All
 * projections here are applied inside the append transaction, so their checkpoints move
 * together; a version that differs from the code's means the projection must be rebuilt.
 */
import type { Db } from "../database.js"
import { statement, type Writes } from "../statements.js"

export const createCheckpoints = (db: Db): void => void
  db.exec(`
    CREATE TABLE IF NOT EXISTS projection_checkpoints (
      name TEXT PRIMARY KEY,
      version TEXT NOT NULL,
      last_seq INTEGER NOT NULL
    ) STRICT;
  `)

export interface Checkpoint {
  readonly name: string
  readonly version: string
  readonly lastSeq: number
}

export const readCheckpoints = (db: Db): Checkpoint[] =>
  (statement(db, "SELECT name, version, last_seq AS lastSeq FROM projection_checkpoints ORDER BY name").all() as Checkpoint[])

export const setCheckpoints = (to: Writes, lastSeq: number): void => {
  to.run("UPDATE projection_checkpoints SET last_seq = ?", [lastSeq])
}

export const writeCheckpoint = (db: Db, name: string, version: string, lastSeq: number): void => {
  statement(db, "INSERT OR REPLACE INTO projection_checkpoints (name, version, last_seq) VALUES (?, ?, ?)").run(name, version, lastSeq)
}
