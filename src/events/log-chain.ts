/**
 * The log's rows checked in order, as `mem verify` and `mem export` read them: sequence numbers
 * run 1, 2, 3..., each payload (unless purged) hashes to its payload_hash, and each row's hash
 * chains its envelope and payload hash onto the row before. The first row that breaks this is
 * where the log stops verifying; the rows before it are sound.
 */
import { chainHash, decodePayload, GENESIS_HASH, sha256 } from "./codec.js"
import { type EventRow } from "./log.js"

export class LogChain {
  private expected = 1
  private previous = GENESIS_HASH

  /** How many rows have chained soundly so far. */
  get sound(): number {
    return this.expected - 1
  }

  /**
   * Why `row` breaks the chain, or undefined when it follows soundly (and is then taken). With
   * `decode`, a payload must also decode with its event's schema (verify); a damaged byte is
   * caught by the payload hash either way.
   */
  check(row: EventRow, { decode }: { readonly decode: boolean }): string | undefined {
    if (row.seq !== this.expected) return `sequence jumps from ${this.expected - 1} to ${row.seq}`
    if (row.payload !== null) {
      if (sha256(row.payload) !== row.payload_hash) return "the payload does not match its hash (edited or damaged)"
      if (decode) {
        try {
          decodePayload(row.type, row.version, row.payload)
        } catch (error) {
          return error instanceof Error ? error.message : String(error)
        }
      }
    }
    const { seq, id, type, version, recorded_at: recordedAt, origin, agent } = row
    const author = row.author ?? undefined
    const hash = chainHash(this.previous, { seq, id, type, version, recordedAt, origin, agent, author }, row.payload_hash)
    if (hash !== row.hash) return "the envelope or the chain was altered"
    this.previous = hash
    this.expected++
    return undefined
  }
}
