/**
 * Cues for a generated corpus: two written with each memory, and three learned ones, as
 * questions made of another memory's words (what an agent asked before it found this one).
 * The learned cues are written through the cue projection's own writer (`writeCueState`), not
 * taught by a million recall and outcome events: the search bench measures reading them.
 */
import type { MemoryId } from "../../src/domain/ids.js"
import type { CueState } from "../../src/projections/cue-state.js"
import { writeCueState } from "../../src/store/sqlite/projections/cues.js"
import type { Db } from "../../src/store/sqlite/database.js"
import type { MemoryLine, Random } from "./corpus.js"

const OPENERS = ["how do I", "why does", "where is", "what should I use for", "which command", "is it ok to"]

const question = (r: Random, corpus: ReadonlyArray<MemoryLine>): string => {
  const words = r.pick(corpus).content.split(/\s+/)
  const start = r.int(0, Math.max(0, words.length - 5))
  return `${r.pick(OPENERS)} ${words.slice(start, start + r.int(3, 6)).join(" ")}`.replace(/[.`]/g, "")
}

export const withWrittenCues = (corpus: ReadonlyArray<MemoryLine>, r: Random): Array<MemoryLine & { cues: string[] }> =>
  corpus.map((m) => ({ ...m, cues: [question(r, corpus), question(r, corpus)] }))

export const addLearnedCues = (db: Db, rows: ReadonlyArray<{ id: string; project: string | null }>, corpus: ReadonlyArray<MemoryLine>, r: Random, nowMs: number): void => {
  db.transaction(() => {
    for (const m of rows) {
      const cues = Array.from({ length: 3 }, (_, i) => {
        const text = question(r, corpus)
        return {
          text,
          norm: text.toLowerCase(),
          project: m.project,
          weight: 1 + i,
          anchorMs: nowMs,
          origin: "claude-code:session/bench",
          outcomeEventId: "bench",
          recallEventId: "bench",
          learnedAt: new Date(nowMs).toISOString()
        }
      })
      const state: CueState = { memoryId: m.id as MemoryId, cues, dropped: [] }
      writeCueState(db, m.id as MemoryId, state)
    }
  })()
}
