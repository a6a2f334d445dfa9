/**
 * Which restatement keys a store's memories may have, for a bulk import: most lines of an
 * import are new, and asking this first spares them the lookup on `memories_restatement`. That
 * lookup is the import's only read per line, and while a writer thread holds uncommitted pages it
 * cost the importing thread about 9 µs a line, a quarter of its time (bench/ingest, profiled).
 *
 * It keeps the first 28 bits of each key (always a small integer, so the set stays compact): a
 * key it does not hold belongs to no memory; one it holds may, and is looked up. It must hold
 * every memory the store has and every memory the import adds; another writer's memories get in
 * only by loading it again, which the import does whenever another writer has committed (the
 * batch that finds it stale).
 */
import type { Db } from "../database.js"
import { statement } from "../statements.js"

export class RestatementFilter {
  private readonly prefixes = new Set<number>()

  private constructor() {}

  /**
   * The keys of `db`'s memories, or undefined when the store holds so many more memories than
   * the import has lines that reading every key would cost more than the lookups it spares
   * (a key read is about a tenth of a lookup).
   */
  static load(db: Db, lines: number): RestatementFilter | undefined {
    const largest = (statement(db, "SELECT max(key) AS n FROM memories").get() as { n: number | null }).n ?? 0
    if (largest > lines * 10) return undefined
    const filter = new RestatementFilter()
    for (const [key] of statement(db, "SELECT content_key FROM memories").raw().iterate() as Iterable<[string]>) filter.add(key)
    return filter
  }

  add(contentKey: string): void {
    this.prefixes.add(prefixOf(contentKey))
  }

  mayHold(contentKey: string): boolean {
    return this.prefixes.has(prefixOf(contentKey))
  }
}

const prefixOf = (contentKey: string): number => parseInt(contentKey.slice(0, 7), 16)
