/**
 * `mem replay`: rebuilds an empty store from an export, and only from a whole, unedited one.
 * The file is read as an import reads it (import-lines.ts), which checks each line against the
 * lines before it (export-chain.ts): sequence numbers run 1, 2, 3..., no id comes twice, and
 * every hash is the chain hash of its line; so a deleted, repeated, moved or edited line is
 * named, and nothing is kept (the replay is one transaction). A missing last line leaves no
 * trace in the lines before it: the export has no end marker, so only the count replay reports
 * can show it.
 */
import { Either } from "effect"
import { parseImport } from "../../commands/import-lines.js"
import { ImportLineInvalid, InvalidInput, ReplayTargetNotEmpty, type DomainError } from "../../domain/errors.js"
import type { Progress } from "../store-maintenance.js"
import { rawOf } from "./import-line-by-line.js"
import type { LogWriter } from "./log-writer.js"

export const replayLog = (store: LogWriter, text: string, onProgress?: Progress): Either.Either<{ events: number }, DomainError> =>
  Either.flatMap(Either.mapLeft(parseImport(text), replayed), (items) =>
    store.write((tx): Either.Either<{ events: number }, DomainError> => {
      const existing = tx.eventCount()
      if (existing > 0) return Either.left(new ReplayTargetNotEmpty({ path: store.location, events: existing }))
      for (const item of items) {
        if (item.kind !== "event") {
          return Either.left(replayed(new ImportLineInvalid({ line: item.line, reason: "replay takes an exported event log ('mem export'), not memories; use 'mem import'" })))
        }
        const [stored] = tx.appendLogOnly([rawOf(item.event)])
        // The store is empty, so its chain is the export's, which the parse has checked line by line.
        if (stored!.hash !== item.event.hash) return Either.left(replayed(new ImportLineInvalid({ line: item.line, reason: "the hash chain does not match the export" })))
        if (onProgress && stored!.seq % 50_000 === 0) onProgress(stored!.seq, items.length)
      }
      return Either.right(tx.rebuild())
    })
  )

/** A bad line in replay's words: nothing of a replay is kept, where an import keeps earlier batches. */
const replayed = (error: DomainError): DomainError =>
  error instanceof ImportLineInvalid ? new InvalidInput({ message: `line ${error.line}: ${error.reason}; nothing was replayed` }) : error
