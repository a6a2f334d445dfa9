/**
 * What can stop an install or uninstall. Every one of them is found while planning, before any
 * file is written, so a refused install leaves every file as it was.
 */
import { Schema } from "effect"

/** An existing settings file memledger would have to edit cannot be read safely. */
export class MalformedConfig extends Schema.TaggedError<MalformedConfig>()("MalformedConfig", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.path}: ${this.reason}; fix or move it and run again (nothing was written)`
  }
}

/** A file at a path memledger writes exists and was not written by memledger. */
export class ForeignFile extends Schema.TaggedError<ForeignFile>()("ForeignFile", {
  path: Schema.String
}) {
  override get message() {
    return `${this.path} exists and was not written by memledger; rename or remove it and run again (nothing was written)`
  }
}

/** The agent has no configuration at the scope asked for. */
export class UnsupportedScope extends Schema.TaggedError<UnsupportedScope>()("UnsupportedScope", {
  target: Schema.String,
  scope: Schema.String
}) {
  override get message() {
    return `${this.target} has no ${this.scope} configuration; run 'mem install ${this.target}' without --${this.scope}`
  }
}

/** The file system refused a read or a write. */
export class InstallIoFailed extends Schema.TaggedError<InstallIoFailed>()("InstallIoFailed", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.path}: ${this.reason}`
  }
}

export type PlanError = MalformedConfig | ForeignFile
export type InstallError = PlanError | UnsupportedScope | InstallIoFailed
