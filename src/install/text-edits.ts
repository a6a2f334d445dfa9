/** File edits for text: a whole file memledger owns, a marked block, a TOML table. */
import { Either } from "effect"
import { ForeignFile, MalformedConfig } from "./errors.js"
import type { FileEdit } from "./file-edit.js"
import { withBlock, withoutBlock } from "./marked-block.js"
import { withoutTable, withTable } from "./toml-table.js"

/**
 * Marks a file memledger wrote in full (a slash command, a skill). Uninstall removes only files
 * that carry it, and install refuses to overwrite a file without it: a user's own /recall stays.
 */
export const OWNED_MARK = "<!-- memledger-managed"

export const ownedFileEdit = (path: string, content: string): FileEdit => ({
  path,
  install: (current) =>
    current === null || current === content || current.includes(OWNED_MARK) ? Either.right(content) : Either.left(new ForeignFile({ path })),
  uninstall: (current) => Either.right(current !== null && current.includes(OWNED_MARK) ? null : current)
})

/** A marked block in a shared file; the file goes when the block was all it held. */
export const blockEdit = (path: string, body: string): FileEdit => ({
  path,
  install: (current) => Either.mapLeft(withBlock(current ?? "", body), (reason) => new MalformedConfig({ path, reason })),
  uninstall: (current) =>
    current === null
      ? Either.right(null)
      : Either.map(Either.mapLeft(withoutBlock(current), (reason) => new MalformedConfig({ path, reason })), (next) =>
          next === current ? current : next.trim() === "" ? null : next
        )
})

/** One table of a TOML file; the file goes when the table was all it held. */
export const tomlTableEdit = (path: string, table: ReadonlyArray<string>, entries: ReadonlyArray<readonly [string, string]>): FileEdit => ({
  path,
  install: (current) =>
    Either.mapLeft(withTable(current ?? "", table, entries), (reason) => new MalformedConfig({ path, reason: `cannot edit it safely: ${reason}` })),
  uninstall: (current) =>
    current === null
      ? Either.right(null)
      : Either.map(
          Either.mapLeft(withoutTable(current, table), (reason) => new MalformedConfig({ path, reason: `cannot edit it safely: ${reason}` })),
          (next) => (next === current ? current : next.trim() === "" ? null : next)
        )
})
