/**
 * Scope, liveness and category are tokens of the keyword index (place-tokens.ts): search finds
 * only live memories of the asked project and global ones, why lists the rest with the right
 * stage, the tokens follow every change of place and liveness, and a query cannot name them.
 * On every store.
 */
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import type { Category } from "../../src/domain/vocabulary.js"
import { placeToken } from "../../src/retrieval/place-tokens.js"
import { actor, Commands, DAY, describeEachStore, Retrieval, runAt, T0 } from "../support/services.js"

const app = "github.com/acme/app"
const api = "github.com/acme/api"
const ids: Record<string, string> = {}

const add = (name: string, content: string, project: string | null, category: Category = "gotcha") =>
  Effect.flatMap(Commands, (c) =>
    c.add({ content, category, scope: project === null ? "global" : "project", project }, actor)
  ).pipe(Effect.map((r) => void (ids[name] = r.id)))

describeEachStore((store) => {
  let db: string

  beforeAll(async () => {
    db = await store.fresh()
    await runAt(
      db,
      T0,
      Effect.gen(function* () {
        yield* add("appLive", "The kafka consumer lags when the batch size is left at its default", app)
        yield* add("appCommand", "Reset the kafka consumer offsets with make reset-offsets", app, "command")
        yield* add("global", "Kafka topics are created by terraform, never by hand", null)
        yield* add("apiLive", "The kafka producer in the api retries forever without a deadline", api)
        yield* add("forgotten", "Kafka consumer restarts lose the in-memory dedupe cache", app)
        yield* add("old", "Kafka runs on port 9092 in the dev compose file", app)
        yield* add("new", "Kafka runs on port 29092 in the dev compose file since the upgrade", app)
        const c = yield* Commands
        yield* c.forget(ids.forgotten!, "wrong", actor)
        yield* c.supersede(ids.old!, ids.new!, actor)
      })
    )
  })

  const search = (query: string, project: string | null, category?: string) =>
    runAt(db, T0 + DAY, Effect.flatMap(Retrieval, (r) => r.search({ query, project, limit: 50, ...(category ? { category } : {}) }, actor)))
  const why = (query: string, project: string | null, category?: string) =>
    runAt(db, T0 + DAY, Effect.flatMap(Retrieval, (r) => r.why({ query, project, limit: 50, ...(category ? { category } : {}) })))
  const named = (found: ReadonlyArray<{ readonly memory: { readonly id: string } }>) =>
    found.map((r) => Object.keys(ids).find((k) => ids[k] === r.memory.id)).sort()

  describe("scope in the index", () => {
    it("finds the live memories of the project and the global ones, nothing else", async () => {
      expect(named((await search("kafka", app)).results)).toEqual(["appCommand", "appLive", "global", "new"])
      expect(named((await search("kafka", api)).results)).toEqual(["apiLive", "global"])
      expect(named((await search("kafka", null)).results)).toEqual(["global"])
      expect(named((await search("kafka", app, "command")).results)).toEqual(["appCommand"])
    })

    it("has why list every other match with its stage", async () => {
      const stages = (await why("kafka", app, "gotcha")).leftOut.map((l) => [Object.keys(ids).find((k) => ids[k] === l.id), l.stage])
      expect(stages).toEqual(expect.arrayContaining([["forgotten", "forgotten"], ["old", "superseded"], ["apiLive", "scope"], ["appCommand", "category"]]))
      expect(stages).toHaveLength(4)
    })

    it("moves a memory's tokens when it is restored, given another category, or forgotten", async () => {
      await runAt(
        db,
        T0 + DAY,
        Effect.gen(function* () {
          const c = yield* Commands
          yield* c.restore(ids.forgotten!, "right after all", actor)
          yield* c.revise(ids.apiLive!, { category: "command" }, actor)
          yield* c.forget(ids.global!, "outdated", actor)
        })
      )
      expect(named((await search("kafka", app)).results)).toEqual(["appCommand", "appLive", "forgotten", "new"])
      expect(named((await search("kafka", api, "command")).results)).toEqual(["apiLive"])
      expect(named((await search("kafka", api, "gotcha")).results)).toEqual([])
    })

    it("never lets a query's words match a scope token", async () => {
      for (const project of [app, api, null]) {
        for (const live of [true, false]) {
          expect((await search(placeToken({ project, live }), project)).results).toEqual([])
        }
      }
    })
  })
})
