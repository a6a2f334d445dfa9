/**
 * What can go wrong with the store itself, in the words a person acts on. A store's driver throws
 * a damaged file or a held lock from whatever statement meets it; the store says which of these
 * errors a thrown value stands for (SQLite: sqlite/store-error-of.ts), and each edge turns it into
 * one of them, so no stack trace reaches a user for them.
 * They are not `DomainError`s: no decision refused anything, the file or its neighbours did.
 */
import { Schema } from "effect"
import type { DiskFull } from "../domain/errors.js"

/** The file's pages are not what SQLite wrote (SQLITE_CORRUPT, SQLITE_NOTADB). */
export class StoreDamaged extends Schema.TaggedError<StoreDamaged>()("StoreDamaged", {
  path: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `the store at ${this.path} is damaged (${this.detail}); it was left untouched; 'mem verify' tells more (restore it from a backup, or replay an export into a new file)`
  }
}

/** Another process held the write lock for longer than the busy timeout (SQLITE_BUSY, SQLITE_LOCKED). */
export class StoreLocked extends Schema.TaggedError<StoreLocked>()("StoreLocked", {
  path: Schema.String,
  waitedMs: Schema.Number
}) {
  override get message() {
    return `the store at ${this.path} is locked by another process; waited ${Math.round(this.waitedMs / 1000)} s for it; nothing was written, try again`
  }
}

/**
 * A `mem verify` found the hash chain broken at `brokenAt`, and the finding is kept in the store
 * (chain-break.ts): no process writes to it any more. The message is the way out.
 */
export class LogBroken extends Schema.TaggedError<LogBroken>()("LogBroken", {
  path: Schema.String,
  brokenAt: Schema.Number,
  reason: Schema.String,
  foundAt: Schema.String
}) {
  override get message() {
    return (
      `the log at ${this.path} does not verify from event #${this.brokenAt} on (${this.reason}; found by 'mem verify' at ${this.foundAt}), ` +
      `so nothing more is written to it, by any process. To recover: 'mem --db ${this.path} export --verified FILE' writes the ` +
      `${this.brokenAt - 1} events before it, and 'mem --db NEW.db replay FILE' makes a new store of them, to use from then on ` +
      "(a later 'mem verify' that finds this log whole again lifts the refusal)"
    )
  }
}

export type StoreError = StoreDamaged | StoreLocked | DiskFull | LogBroken
