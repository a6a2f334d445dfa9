/**
 * Properties of learned cues over generated logs (ledger-arbitrary: conversations that ask and
 * report in several projects):
 * - a cue never crosses projects: a search from a project returns the same memories in the same
 *   order, and leaves out the same ones at the same stages, as it would with every cue learned
 *   for another project deleted. Its scores may move far below the sixth decimal: BM25 reads the
 *   cue index's row count and average length over the whole index, as it does for content;
 * - forgetting a conversation and undoing it leaves every ranking as it was, hybrid ones too
 *   once the vectors are synced (a cue's vector, pooled or apart, goes and comes back with it);
 * - search and why give the same ranking, phrasings and cues included.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { explainRun, runRanking, runSearch } from "../../src/retrieval/ranking-run.js"
import type { Db } from "../../src/store/sqlite/database.js"
import { appendAll, appendScenario, conversationSwitch, ORIGINS, scenarioArb } from "../support/ledger-arbitrary.js"
import { withTempStores } from "../support/temp-store.js"
import { sqliteReads } from "../../src/store/sqlite/sqlite-reads.js"
import { codeColumn } from "../../src/retrieval/code-words.js"
import { placeToken } from "../../src/store/sqlite/projections/fts-scope.js"
import { Effect } from "effect"
import { l2Normalize } from "../../src/embeddings/normalize.js"
import { sqliteVectorStore } from "../../src/store/sqlite/projections/vector-sync.js"
import { ensureVectors } from "../../src/store/vector-sync.js"
import { bagOfWords, countingEmbedder } from "../embeddings/fake-embeddings.js"

const PLACES = [null, "github.com/acme/app", "github.com/acme/other"] as const
const ASKED = [["how to deploy"], ["Run the tests?", "node version"], ["which cache"], ["tabs or spaces", "how to deploy"]] as const
const NOW = Date.parse("2031-01-01T00:00:00.000Z")

/**
 * Each ranking as ids in order, with the text that answered and the score. A forget then undo
 * removes and re-inserts index rows: the scores hold too, as removals subtract from the totals
 * BM25 reads.
 */
const rankings = (db: Db) =>
  PLACES.flatMap((project) =>
    ASKED.map(([query, ...also]) => {
      const run = runRanking(sqliteReads(db), { query, also, project, limit: 5 }, NOW, DEFAULT_CONFIG)
      return run.ranking.results.map((r) => `${r.memory.id} ${r.score} ${r.coverage?.source ?? ""} ${r.coverage?.cue ?? ""}`)
    })
  )

test("a cue learned in one project never changes a search from another", () => {
  fc.assert(
    fc.property(scenarioArb(), (scenario) =>
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario)
        const db = store.db
        for (const project of PLACES) {
          // Results and everything left out, with its stage: a cue that only made a candidate counts too.
          const search = () =>
            ASKED.map(([query, ...also]) => {
              const { results, leftOut } = runRanking(sqliteReads(db), { query, also, project, limit: 5 }, NOW, DEFAULT_CONFIG).ranking
              const found = [...results.map((r) => r.memory.id), ...leftOut.map((l) => `${l.memory.id} ${l.stage}`).sort()]
              return { found, scores: results.map((r) => r.score) }
            })
          const withAll = search()
          db.exec("SAVEPOINT other_places")
          const elsewhere = db.prepare("SELECT key, text, project FROM learned_cues WHERE project IS NOT NULL AND project IS NOT ?").all(project) as {
            key: number
            text: string
            project: string
          }[]
          for (const cue of elsewhere) {
            db.prepare("INSERT INTO cues_fts (cues_fts, rowid, text, code, scope) VALUES ('delete', ?, ?, ?, ?)").run(
              cue.key,
              cue.text,
              codeColumn(cue.text),
              placeToken({ project: cue.project, live: true })
            )
          }
          db.prepare("DELETE FROM learned_cues WHERE project IS NOT NULL AND project IS NOT ?").run(project)
          const withOwn = search()
          db.exec("ROLLBACK TO other_places; RELEASE other_places")
          expect(withOwn.map((s) => s.found)).toEqual(withAll.map((s) => s.found))
          withOwn.forEach((s, i) => s.scores.forEach((score, j) => expect(score).toBeCloseTo(withAll[i]!.scores[j]!, 6)))
        }
      })
    ),
    { numRuns: 60 }
  )
})

const control = conversationSwitch

/** Forgets `origin`'s conversation and undoes it (or the other way round, if it was forgotten), running `then` after each. */
const forgetThenUndo = (store: Parameters<typeof appendAll>[0], origin: string, then: () => void = () => undefined): void => {
  const hidden = (store.db.prepare("SELECT forgotten FROM conversations WHERE origin = ?").get(origin) as { forgotten: number } | undefined)?.forgotten === 1
  const [first, second] = hidden ? (["ConversationRestored", "ConversationForgotten"] as const) : (["ConversationForgotten", "ConversationRestored"] as const)
  appendAll(store, [[control(first, origin, 1)]])
  then()
  appendAll(store, [[control(second, origin, 2)]])
  then()
}

test("forgetting a conversation and undoing it leaves every ranking as it was", () => {
  fc.assert(
    fc.property(scenarioArb(), fc.constantFrom(...ORIGINS), (scenario, origin) =>
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario)
        const before = rankings(store.db)
        forgetThenUndo(store, origin)
        expect(rankings(store.db)).toEqual(before)
      })
    ),
    { numRuns: 60 }
  )
})

test("with vectors, forgetting a conversation and undoing it, each followed by a sync, leaves every hybrid ranking as it was", () => {
  fc.assert(
    fc.property(scenarioArb(), fc.constantFrom(...ORIGINS), (scenario, origin) =>
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario)
        const embedder = countingEmbedder()
        const sync = () => Effect.runSync(ensureVectors(sqliteVectorStore(store.db), embedder))
        const hybrid = () =>
          PLACES.flatMap((project) =>
            ASKED.map(([query, ...also]) => {
              const vector = { model: embedder.model, vector: l2Normalize(bagOfWords(query, embedder.dimensions)) }
              const run = runRanking(sqliteReads(store.db), { query, also, project, limit: 5 }, NOW, DEFAULT_CONFIG, vector)
              return run.ranking.results.map((r) => `${r.memory.id} ${r.score} ${r.terms.relevance.viaCue?.text ?? ""}`)
            })
          )
        sync()
        const before = hybrid()
        forgetThenUndo(store, origin, sync)
        expect(hybrid()).toEqual(before)
      })
    ),
    { numRuns: 40 }
  )
})

test("search and why rank alike, with phrasings and learned cues", () => {
  fc.assert(
    fc.property(scenarioArb(), fc.constantFrom(...PLACES), fc.integer({ min: 1, max: 5 }), (scenario, project, limit) =>
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario)
        for (const [query, ...also] of ASKED) {
          const request = { query, also, project, limit }
          const search = runSearch(sqliteReads(store.db), request, NOW, DEFAULT_CONFIG).results
          const why = explainRun(sqliteReads(store.db), request, runRanking(sqliteReads(store.db), request, NOW, DEFAULT_CONFIG), NOW, DEFAULT_CONFIG).results
          expect(why.map((r) => [r.memory.id, r.score, r.coverage])).toEqual(search.map((r) => [r.memory.id, r.score, r.coverage]))
        }
      })
    ),
    { numRuns: 60 }
  )
})
