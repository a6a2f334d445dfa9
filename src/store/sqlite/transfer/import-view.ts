/**
 * What a bulk import knows of the store beyond its batches in flight: the restatement filter
 * (restatement-filter.ts) and the conversations it has read or committed, so that each origin is
 * read from the store once per import rather than once per batch (reads through the importing
 * connection cost several µs each while a writer thread holds uncommitted pages). It holds while
 * the import is the store's only writer; the import loads it again when a batch comes back stale.
 */
import type { ConversationState } from "../../../projections/conversation-state.js"
import { loadConversation } from "../projections/conversations.js"
import type { Db } from "../database.js"
import { RestatementFilter } from "./restatement-filter.js"

export class ImportView {
  private restatements: RestatementFilter | undefined
  /** By origin; null for an origin the store has no conversation for. */
  private readonly conversations = new Map<string, ConversationState | null>()

  constructor(
    private readonly db: Db,
    private readonly lines: number
  ) {
    this.restatements = RestatementFilter.load(db, lines)
  }

  get filter(): RestatementFilter | undefined {
    return this.restatements
  }

  /** The origin's conversation as the store has it, counting the batches committed so far. */
  conversation(origin: string): ConversationState | undefined {
    let known = this.conversations.get(origin)
    if (known === undefined) {
      known = loadConversation(this.db, origin) ?? null
      this.conversations.set(origin, known)
    }
    return known ?? undefined
  }

  /** A batch with these conversations committed. */
  committed(conversations: Iterable<ConversationState>): void {
    for (const c of conversations) this.conversations.set(c.origin, c)
  }

  /** Another writer committed: forgets what it may have changed. */
  reload(): void {
    this.restatements = RestatementFilter.load(this.db, this.lines)
    this.conversations.clear()
  }
}
