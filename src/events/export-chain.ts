/**
 * Whether the exported events of a file are a whole, unedited export (`mem export`), line by
 * line: sequence numbers run 1, 2, 3... without a gap or a repeat, no id comes twice, and each
 * line's hash is the chain hash of its own envelope and payload hash after the line before. An
 * edited envelope (time, origin, agent, author...), a line deleted, repeated or moved is named. Replay
 * and import of exported events both read their files through it (import-lines.ts), so the one
 * refuses what the other does. The payload against its payloadHash is checked as a line is
 * parsed, before this.
 */
import { chainHash, GENESIS_HASH } from "./codec.js"
import type { ExportedEvent } from "./export-line.js"

/** Where the check has got to: the sequence number expected next, and the hash it chains on. */
export interface ExportChainPosition {
  readonly next: number
  readonly previous: string
}

export class ExportChain {
  private next = 1
  private previous = GENESIS_HASH
  /** Ids taken, in order, so that a rewind can give them back. */
  private readonly ids: string[] = []
  private readonly seen = new Set<string>()
  /** `position`, kept until the next change: an import asks for it before every line it reads. */
  private at: ExportChainPosition | undefined

  /** Why `event` cannot be the next line of a whole, unedited export; undefined when it is, and it is taken. */
  take(event: ExportedEvent): string | undefined {
    const { seq, id } = event
    const expected = this.next
    if (seq < expected) return `event #${seq} comes a second time (a repeated line); #${expected} was expected here`
    if (seq > expected) {
      const missing = seq === expected + 1 ? `event #${expected} is` : `events #${expected} to #${seq - 1} are`
      return `${missing} missing before this line (lines were deleted from the export, or moved)`
    }
    // Before the hash, which the id is part of: an id copied from another line reads better named.
    if (this.seen.has(id)) return `the event id ${id} is on an earlier line too (the file was edited)`
    const { type, version, recordedAt, origin, agent, author, payloadHash } = event
    const hash = chainHash(this.previous, { seq, id, type, version, recordedAt, origin, agent, author }, payloadHash)
    if (hash !== event.hash) return "the hash chain does not match the export (the file was edited or is incomplete)"
    this.next++
    this.previous = hash
    this.ids.push(id)
    this.seen.add(id)
    this.at = undefined
    return undefined
  }

  get position(): ExportChainPosition {
    return (this.at ??= { next: this.next, previous: this.previous })
  }

  /** Back to an earlier position, forgetting the lines taken since (an import reads them again). */
  rewind(to: ExportChainPosition): void {
    while (this.ids.length >= to.next) this.seen.delete(this.ids.pop()!)
    this.next = to.next
    this.previous = to.previous
    this.at = to
  }
}
