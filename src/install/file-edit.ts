/**
 * The unit of an install: one file, and how its content changes. Edits are pure functions from
 * the current content (null: no such file) to the new content (null: no file), so a plan can be
 * computed, printed by --dry-run and checked by tests without touching the disk.
 */
import { Either } from "effect"
import type { PlanError } from "./errors.js"

export type Direction = "install" | "uninstall"
export type Action = "created" | "updated" | "unchanged" | "removed"

export interface FileEdit {
  readonly path: string
  readonly install: (current: string | null) => Either.Either<string | null, PlanError>
  readonly uninstall: (current: string | null) => Either.Either<string | null, PlanError>
}

export interface PlannedFile {
  readonly path: string
  readonly action: Action
  readonly before: string | null
  readonly after: string | null
}

/** Every file's new content, or the first reason one of them cannot be edited safely. */
export const planEdits = (
  edits: ReadonlyArray<FileEdit>,
  direction: Direction,
  read: (path: string) => string | null
): Either.Either<ReadonlyArray<PlannedFile>, PlanError> =>
  Either.all(
    edits.map((edit) => {
      const before = read(edit.path)
      return Either.map(edit[direction](before), (after) => ({ path: edit.path, action: actionOf(before, after), before, after }))
    })
  )

export const actionOf = (before: string | null, after: string | null): Action =>
  before === after ? "unchanged" : before === null ? "created" : after === null ? "removed" : "updated"
