/**
 * A projection: a name, a version, and DDL that can be dropped and created again. Bumping the
 * version makes the next open rebuild it from the log.
 */
import type { Db } from "../database.js"

export interface Projection {
  readonly name: string
  readonly version: number
  readonly create: (db: Db) => void
  readonly drop: (db: Db) => void
}
