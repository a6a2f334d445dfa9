/**
 * `mem replay`: rebuilds an empty store from an export, and only from a whole, unedited one.
 * The export's sequence numbers must run 1, 2, 3... and every rebuilt hash must equal the
 * exported one, so a deleted, repeated or edited line is named and nothing is kept (the
 * replay is one transaction). A missing last line leaves no trace in the lines before it: the
 * export has no end marker, so only the count replay reports can show it.
 */
import { Either } from "effect"
import { parseImport } from "../commands/import-lines.js"
import { ImportLineInvalid, InvalidInput, ReplayTargetNotEmpty, type DomainError } from "../domain/errors.js"
import { appendRaw, eventCount } from "../events/log.js"
import { rebuildProjections, type Progress } from "../projections/rebuild.js"
import type { LedgerStore } from "../store/ledger-store.js"
import { rawOf } from "./import-memories.js"

export const replayLog = (store: LedgerStore, text: string, onProgress?: Progress): Either.Either<{ events: number }, DomainError> =>
  Either.flatMap(parseImport(text), (items) =>
    store.write((tx): Either.Either<{ events: number }, DomainError> => {
      const existing = eventCount(tx.db)
      if (existing > 0) return Either.left(new ReplayTargetNotEmpty({ path: store.path, events: existing }))
      const ids = new Set<string>()
      let expected = 1
      for (const item of items) {
        if (item.kind !== "event") {
          return Either.left(new ImportLineInvalid({ line: item.line, reason: "replay takes an exported event log ('mem export'), not memories; use 'mem import'" }))
        }
        const bad = (reason: string) => Either.left(new InvalidInput({ message: `line ${item.line}: ${reason}; nothing was replayed` }))
        const { seq, id, hash } = item.event
        if (seq < expected) return bad(`event #${seq} comes a second time (a repeated line); #${expected} was expected here`)
        if (seq > expected) {
          const missing = seq === expected + 1 ? `event #${expected} is` : `events #${expected} to #${seq - 1} are`
          return bad(`${missing} missing before this line (lines were deleted from the export)`)
        }
        // Checked before the insert, which would otherwise fail on the UNIQUE id with SQLite's words.
        if (ids.has(id)) return bad(`the event id ${id} is on an earlier line too (the file was edited)`)
        ids.add(id)
        const [stored] = appendRaw(tx.db, [rawOf(item.event)])
        if (stored!.hash !== hash) return bad("the hash chain does not match the export (the file was edited or is incomplete)")
        expected++
        if (onProgress && seq % 50_000 === 0) onProgress(seq, items.length)
      }
      return Either.right(rebuildProjections(tx.db, store.config))
    })
  )
