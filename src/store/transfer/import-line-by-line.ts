/**
 * Importing memory lines one at a time, through the same decide-append-project path as
 * `mem add`, IMPORT_BATCH lines per transaction; an exported event among them is appended as
 * it was unless the log already holds it. Every store imports this way; the SQLite store also
 * has a bulk path for large files that writes the same rows.
 */
import { Either } from "effect"
import type { Actor } from "../../commands/actor.js"
import { decideAddInput } from "../../commands/add-input.js"
import { executeIn } from "../../commands/execute.js"
import type { ImportItem } from "../../commands/import-lines.js"
import { afterCommittedLines, ImportLineInvalid, type DomainError } from "../../domain/errors.js"
import { sha256 } from "../../events/codec.js"
import type { ExportedEvent } from "../../events/export-line.js"
import type { RawEvent } from "../../events/log.js"
import type { ImportReport, Progress } from "../store-maintenance.js"
import type { LogWriter } from "./log-writer.js"

/** Lines per import transaction on the line-at-a-time path: large enough to be fast, small enough to let others write. */
export const IMPORT_BATCH = 2_000

/** Each line through the decide-append-project path of `mem add`, IMPORT_BATCH lines per transaction. */
export const importLineByLine = (
  store: LogWriter,
  items: ImportItem[],
  actor: Actor,
  now: number,
  makeId: (timeMs: number) => string,
  onProgress?: Progress
): Either.Either<ImportReport, DomainError> => {
  const ids: string[] = []
  let imported = 0
  let confirmed = 0
  let events = 0
  for (let start = 0; start < items.length; start += IMPORT_BATCH) {
    const batch = items.slice(start, start + IMPORT_BATCH)
    const written = store.write((tx) => {
      for (const item of batch) {
        if (item.kind === "event") {
          if (!tx.hasEvent(item.event.id)) {
            tx.appendRaw([rawOf(item.event)])
            events++
          }
          continue
        }
        const who = { origin: item.origin ?? actor.origin, agent: item.agent ?? actor.agent }
        const result = executeIn(tx, who, now, makeId, (ctx) => decideAddInput(item.input, ctx))
        if (Either.isLeft(result)) return Either.left(new ImportLineInvalid({ line: item.line, reason: result.left.message }))
        ids.push(result.right.id)
        if (result.right.stored) imported++
        else confirmed++
      }
      return Either.right(batch.length)
    })
    if (Either.isLeft(written)) return Either.left(afterCommittedLines(written.left, start > 0 ? items[start - 1]!.line : 0))
    onProgress?.(Math.min(start + IMPORT_BATCH, items.length), items.length)
  }
  return Either.right({ imported, confirmed, events, ids })
}

/** Payloads are re-serialised exactly as they were exported; the hash check catches any drift. */
export const rawOf = (e: ExportedEvent): RawEvent => {
  const payload = e.payload === null ? null : JSON.stringify(e.payload)
  return {
    id: e.id,
    type: e.type,
    version: e.version,
    recordedAt: e.recordedAt,
    origin: e.origin,
    agent: e.agent,
    ...(e.author === undefined ? {} : { author: e.author }),
    payload,
    payloadHash: payload === null ? e.payloadHash : sha256(payload)
  }
}
