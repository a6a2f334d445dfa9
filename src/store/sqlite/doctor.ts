/**
 * `mem doctor`: checks the database, the embedder and the configuration, and for each problem
 * says what to do. Cheap checks only (the full projection comparison is `mem verify`).
 */
import { statSync } from "node:fs"
import { dirname } from "node:path"
import { verifyChain } from "./verify.js"
import type { Db } from "./database.js"
import type { Check, PrivacyCounts } from "../store-maintenance.js"

export const databaseChecks = (db: Db, path: string): Check[] => {
  const integrity = String(db.pragma("quick_check", { simple: true }))
  const chain = verifyChain(db)
  const checks: Check[] = [
    integrity === "ok"
      ? { name: "sqlite integrity", ok: true, detail: "quick_check ok" }
      : { name: "sqlite integrity", ok: false, detail: integrity, fix: "export what still reads ('mem export FILE'), then 'mem replay FILE' into a new --db" },
    chain.ok
      ? { name: "hash chain", ok: true, detail: `${chain.events} events verify` }
      : { name: "hash chain", ok: false, detail: `broken at #${chain.brokenAt}: ${chain.reason}`, fix: "the log was edited or damaged outside memledger: restore the file from a backup, or 'mem export --verified FILE' and 'mem replay FILE' into a new --db" }
  ]
  if (path !== ":memory:") checks.push(permissions(path))
  return checks
}

const permissions = (path: string): Check => {
  const file = statSync(path).mode & 0o777
  const dir = statSync(dirname(path)).mode & 0o777
  const open = (file & 0o077) !== 0
  return open
    ? {
        name: "permissions",
        ok: false,
        detail: `the store is readable by others (file ${file.toString(8)}, folder ${dir.toString(8)})`,
        fix: `chmod 600 ${path}; chmod 700 ${dirname(path)}`
      }
    : { name: "permissions", ok: true, detail: `file ${file.toString(8)}, folder ${dir.toString(8)}` }
}

export const privacyCounts = (db: Db): PrivacyCounts =>
  db
    .prepare(
      `SELECT
         count(*) FILTER (WHERE json_array_length(payload, '$.redacted') > 0) AS redactedWrites,
         coalesce(sum(json_array_length(payload, '$.redacted')), 0) AS secretsRedacted,
         count(*) FILTER (WHERE json_extract(payload, '$.privateDropped') > 0) AS privateDroppedWrites,
         count(*) FILTER (WHERE EXISTS (SELECT 1 FROM json_each(payload, '$.flags') WHERE value = 'instruction-like')) AS instructionLikeWrites
       FROM events
      WHERE type IN ('MemoryAdded', 'MemoryRevised') AND payload IS NOT NULL
        -- A plain text search first, so the JSON is parsed only for events the scan touched.
        AND (instr(payload, '"redacted":') > 0 OR instr(payload, '"privateDropped":') > 0 OR instr(payload, '"flags":') > 0)`
    )
    .get() as PrivacyCounts
