/**
 * Domain errors are data: each adapter maps them by tag (CLI exit code 1, HTTP status, MCP
 * `isError`). Every message says what went wrong and, where it can, what to do instead.
 */
import { Schema } from "effect"
import { CATEGORIES } from "./vocabulary.js"

export class MemoryNotFound extends Schema.TaggedError<MemoryNotFound>()("MemoryNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `no memory has the id ${this.id}`
  }
}

export class AmbiguousId extends Schema.TaggedError<AmbiguousId>()("AmbiguousId", {
  prefix: Schema.String,
  candidates: Schema.Array(Schema.String)
}) {
  override get message() {
    return `the id ${this.prefix} matches ${this.candidates.length} memories (${this.candidates.join(", ")}); type more characters`
  }
}

export class InvalidId extends Schema.TaggedError<InvalidId>()("InvalidId", {
  id: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `'${this.id}' is not a memory id: ${this.reason}`
  }
}

export class InvalidContent extends Schema.TaggedError<InvalidContent>()("InvalidContent", {
  reason: Schema.String
}) {
  override get message() {
    return `invalid content: ${this.reason}`
  }
}

export class UnknownCategory extends Schema.TaggedError<UnknownCategory>()("UnknownCategory", {
  category: Schema.String
}) {
  override get message() {
    return `unknown category '${this.category}'; use one of: ${CATEGORIES.join(", ")}`
  }
}

export class MemoryIsForgotten extends Schema.TaggedError<MemoryIsForgotten>()("MemoryIsForgotten", {
  id: Schema.String,
  action: Schema.String
}) {
  override get message() {
    return `memory ${this.id} is forgotten, so it cannot ${this.action}; run 'mem restore ${this.id}' first`
  }
}

export class MemoryIsSuperseded extends Schema.TaggedError<MemoryIsSuperseded>()("MemoryIsSuperseded", {
  id: Schema.String,
  by: Schema.String
}) {
  override get message() {
    return `memory ${this.id} is already superseded by ${this.by}`
  }
}

export class SupersedeSelf extends Schema.TaggedError<SupersedeSelf>()("SupersedeSelf", {
  id: Schema.String
}) {
  override get message() {
    return `memory ${this.id} cannot supersede itself`
  }
}

export class ConversationNotFound extends Schema.TaggedError<ConversationNotFound>()("ConversationNotFound", {
  origin: Schema.String
}) {
  override get message() {
    return `no events come from the conversation '${this.origin}'; 'mem conversations' lists them`
  }
}

export class ConversationPurged extends Schema.TaggedError<ConversationPurged>()("ConversationPurged", {
  origin: Schema.String
}) {
  override get message() {
    return `the conversation '${this.origin}' was purged: its events were erased and cannot be restored`
  }
}

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  message: Schema.String
}) {}

/**
 * An origin, agent or project that holds what looks like a secret. They are names, stored as
 * given in every event and shown with every memory, so they are refused rather than redacted.
 * The message names the field and the kind of secret, never the secret.
 */
export class SecretInIdentity extends Schema.TaggedError<SecretInIdentity>()("SecretInIdentity", {
  field: Schema.String,
  kind: Schema.String
}) {
  override get message() {
    return `${this.field} holds what looks like a secret (${this.kind}); it is a name, stored as given and shown with every memory written under it, so it is refused: give one without the secret`
  }
}

/** The database file exists but is not a memledger store, or is damaged. Never overwritten. */
export class DatabaseUnusable extends Schema.TaggedError<DatabaseUnusable>()("DatabaseUnusable", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot use ${this.path}: ${this.reason}`
  }
}

/**
 * No store file at the path, for a command that would have nothing to do on a new, empty one
 * (a read, or a change to what is stored): a mistyped path is said to be one, and not created.
 */
export class StoreNotFound extends Schema.TaggedError<StoreNotFound>()("StoreNotFound", {
  path: Schema.String
}) {
  override get message() {
    return `there is no store at ${this.path}; nothing was created (check --db or MEMLEDGER_DB; 'mem add' or 'mem import' starts a store)`
  }
}

/**
 * The disk holding `path` has no room left (SQLite's SQLITE_FULL, or ENOSPC): the write that met
 * it was rolled back, or the file was never made, so nothing of it is anywhere.
 */
export class DiskFull extends Schema.TaggedError<DiskFull>()("DiskFull", {
  path: Schema.String
}) {
  override get message() {
    return `the disk is full: nothing was written to ${this.path}; free some space and try again`
  }
}

export class ImportLineInvalid extends Schema.TaggedError<ImportLineInvalid>()("ImportLineInvalid", {
  line: Schema.Number,
  reason: Schema.String,
  /** The last line of the batches committed before this one's, when there were any. */
  importedThrough: Schema.optional(Schema.Number)
}) {
  override get message() {
    const kept =
      this.importedThrough === undefined
        ? ""
        : `; lines 1 to ${this.importedThrough} were imported in earlier batches: import the rest from line ${this.importedThrough + 1} on (those lines again would count as confirmations)`
    return `line ${this.line}: ${this.reason}; nothing from this batch was imported${kept}`
  }
}

/** `error`, saying which lines earlier batches imported when it is a bad line after some were. */
export const afterCommittedLines = <E extends DomainError>(error: E, lastCommittedLine: number): E | ImportLineInvalid =>
  error instanceof ImportLineInvalid && lastCommittedLine > (error.importedThrough ?? 0)
    ? new ImportLineInvalid({ line: error.line, reason: error.reason, importedThrough: lastCommittedLine })
    : error

export class ReplayTargetNotEmpty extends Schema.TaggedError<ReplayTargetNotEmpty>()("ReplayTargetNotEmpty", {
  path: Schema.String,
  events: Schema.Number
}) {
  override get message() {
    return `replay needs an empty database, and ${this.path} already holds ${this.events} events; pass --db with a new file`
  }
}

/** Through a person's token, what only an admin's token may do (docs/serve.md, "People and tokens"). */
export class NotPermitted extends Schema.TaggedError<NotPermitted>()("NotPermitted", {
  action: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.action} is not permitted: ${this.reason}; an admin's token may ('mem token add NAME --admin')`
  }
}

export type DomainError =
  | NotPermitted
  | MemoryNotFound
  | AmbiguousId
  | InvalidId
  | InvalidContent
  | UnknownCategory
  | MemoryIsForgotten
  | MemoryIsSuperseded
  | SupersedeSelf
  | ConversationNotFound
  | ConversationPurged
  | InvalidInput
  | SecretInIdentity
  | ImportLineInvalid
  | ReplayTargetNotEmpty
