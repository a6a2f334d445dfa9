/**
 * The vectors projection on a real SQLite file with sqlite-vec: syncVectors embeds what is
 * missing or changed, reuses the embedding cache after the vector table is dropped, deletes
 * vectors of memories that are gone, and a new model gets its own table while the old one
 * stays. nearest / similarities / cosineBetween read cosine similarity back.
 */
import { Effect, Either } from "effect"
import { expect, test } from "vitest"
import type { MemoryId } from "../../src/domain/ids.js"
import type { DomainEvent } from "../../src/events/events.js"
import { makeHttpEmbedder } from "../../src/embeddings/http.js"
import { l2Normalize } from "../../src/embeddings/normalize.js"
import { cosineBetween, nearest, similarities, vectorOf } from "../../src/store/sqlite/projections/vector-search.js"
import { dropVectorModel, listVectorModels, vectorsProjection, vectorTableName } from "../../src/store/sqlite/projections/vectors.js"
import { pendingVectors, pruneErasedVectors, sqliteVectorStore, syncVectors } from "../../src/store/sqlite/projections/vector-sync.js"
import { ensureVectors } from "../../src/store/vector-sync.js"
import { rebuildProjections } from "../../src/store/sqlite/projections/rebuild.js"
import { DEFAULT_CONFIG } from "../../src/config.js"
import type { VectorStore } from "../../src/store/vector-store.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { added, conversationForgotten, outcome, recalled, revised } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"
import { bagOfWords, countingEmbedder, startFakeServer } from "./fake-embeddings.js"

let nextEvent = 1
const append = (store: LedgerStore, events: ReadonlyArray<DomainEvent>, origin = "cli") =>
  store.writeOrThrow((tx) =>
    tx.append(events.map((event) => ({ id: eventId(nextEvent++), recordedAt: "2025-01-01T00:00:00.000Z", origin, agent: "cli", event })))
  )

const keyOf = (store: LedgerStore, id: MemoryId): number => (store.db.prepare("SELECT key FROM memories WHERE id = ?").get(id) as { key: number }).key

const sync = (store: LedgerStore, embedder = countingEmbedder(), onProgress?: (done: number, total: number) => void) =>
  Effect.runSync(syncVectors(store.db, embedder, onProgress))

const A = memoryId(1)
const B = memoryId(2)
const C = memoryId(3)

const threeMemories = () => {
  const store = openTempStore()
  append(store, [
    added(A, "alpha beta gamma"),
    added(B, "alpha beta delta"),
    added(C, "epsilon zeta eta")
  ])
  return store
}

test("a first sync embeds every memory into the model's vec0 table, keyed by the memory's key", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  const progress: Array<[number, number]> = []

  const counts = sync(store, embedder, (done, total) => progress.push([done, total]))

  expect(counts).toEqual({ model: embedder.model, memories: 3, unchanged: 0, cues: 0, cuesUnchanged: 0, embedded: 3, cached: 0, removed: 0, skipped: 0 })
  expect(progress).toEqual([[0, 3], [3, 3]])
  expect(listVectorModels(store.db)).toEqual([{ model: embedder.model, table: vectorTableName(embedder.model), dimensions: 64, vectors: 3 }])
  expect([...vectorOf(store.db, embedder.model, keyOf(store, A))!]).toEqual([...l2Normalize(bagOfWords("alpha beta gamma", 64))])
  expect(pendingVectors(store.db, embedder.model)).toBe(0)
})

test("a second sync with nothing changed embeds nothing", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  const again = sync(store, embedder)
  expect(again).toMatchObject({ unchanged: 3, embedded: 0, cached: 0, removed: 0 })
  expect(embedder.calls).toBe(1)
})

test("after the vec table is dropped, a sync rebuilds it from the embedding cache without calling the embedder", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  store.db.exec(`DROP TABLE ${vectorTableName(embedder.model)}`)
  expect(nearest(store.db, embedder.model, l2Normalize(bagOfWords("alpha", 64)), 3)).toEqual([])

  const rebuilt = sync(store, embedder)

  expect(rebuilt).toMatchObject({ memories: 3, embedded: 0, cached: 3 })
  expect(embedder.calls).toBe(1)
  expect(nearest(store.db, embedder.model, l2Normalize(bagOfWords("alpha beta gamma", 64)), 3).map((n) => n.key)).toEqual(
    [A, B, C].map((id) => keyOf(store, id))
  )
})

test("dropping and re-creating the whole projection (a rebuild) costs no embedding call either", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  vectorsProjection.drop(store.db)
  vectorsProjection.create(store.db)
  expect(pendingVectors(store.db, embedder.model)).toBe(3)
  expect(sync(store, embedder)).toMatchObject({ embedded: 0, cached: 3 })
  expect(embedder.calls).toBe(1)
})

test("a revised memory is embedded again, from its new text", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  append(store, [revised(C, { content: "alpha beta gamma delta" })])
  expect(pendingVectors(store.db, embedder.model)).toBe(1)

  expect(sync(store, embedder)).toMatchObject({ unchanged: 2, embedded: 1, cached: 0 })
  expect(embedder.texts.at(-1)).toBe("alpha beta gamma delta")
  expect([...vectorOf(store.db, embedder.model, keyOf(store, C))!]).toEqual([...l2Normalize(bagOfWords("alpha beta gamma delta", 64))])
})

/** A and B embedded, then B's conversation forgotten: B leaves the memories projection. */
const bothEmbeddedThenBForgotten = () => {
  const store = openTempStore()
  append(store, [added(A, "alpha beta gamma")])
  append(store, [added(B, "alpha beta delta")], "codex:thread/1")
  const embedder = countingEmbedder()
  sync(store, embedder)
  const keyB = keyOf(store, B)
  append(store, [conversationForgotten("codex:thread/1")])
  return { store, embedder, keyB }
}

test("a memory that leaves the memories projection loses its vector", () => {
  const { store, embedder, keyB } = bothEmbeddedThenBForgotten()

  expect(sync(store, embedder)).toMatchObject({ memories: 1, unchanged: 1, removed: 1 })
  expect(vectorOf(store.db, embedder.model, keyB)).toBeUndefined()
  expect(nearest(store.db, embedder.model, l2Normalize(bagOfWords("alpha beta delta", 64)), 10).map((n) => n.key)).toEqual([keyOf(store, A)])
})

test("nearest returns neighbours best first with cosine = 1 - cosine distance; similarities and cosineBetween agree", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  const [a, b, c] = [A, B, C].map((id) => keyOf(store, id)) as [number, number, number]
  const query = l2Normalize(bagOfWords("alpha beta gamma", 64))

  const found = nearest(store.db, embedder.model, query, 2)

  expect(found.map((n) => n.key)).toEqual([a, b])
  expect(found[0]!.cosine).toBeCloseTo(1, 5)
  expect(found[1]!.cosine).toBeCloseTo(2 / 3, 5)
  expect(similarities(store.db, embedder.model, query, [c, b, 999])).toEqual(
    new Map([
      [c, expect.closeTo(nearest(store.db, embedder.model, query, 3)[2]!.cosine, 6)],
      [b, expect.closeTo(2 / 3, 5)]
    ])
  )
  expect(cosineBetween(store.db, embedder.model, a, b)).toBeCloseTo(2 / 3, 5)
  expect(cosineBetween(store.db, embedder.model, a, 999)).toBeUndefined()
  expect(nearest(store.db, embedder.model, query, 0)).toEqual([])
  expect(nearest(store.db, embedder.model, new Float32Array(8), 3)).toEqual([])
  expect(nearest(store.db, "never:synced", query, 3)).toEqual([])
})

test("similarities and cosineBetween give exactly the vec0 table's values, through the embedding cache or, when a cache row is gone or of another length, from the table", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  const [a, b, c] = [A, B, C].map((id) => keyOf(store, id)) as [number, number, number]
  const table = vectorTableName(embedder.model)
  const query = l2Normalize(bagOfWords("alpha gamma zeta", 64))
  const fromTable = (key: number) =>
    1 - (store.db.prepare(`SELECT vec_distance_cosine(embedding, ?) AS d FROM ${table} WHERE rowid = ?`).get(query, BigInt(key)) as { d: number }).d
  const betweenInTable = (x: number, y: number) =>
    1 - (store.db.prepare(`SELECT vec_distance_cosine(p.embedding, q.embedding) AS d FROM ${table} p, ${table} q WHERE p.rowid = ? AND q.rowid = ?`).get(BigInt(x), BigInt(y)) as { d: number }).d
  const expected = new Map([a, b, c].map((k) => [k, fromTable(k)]))
  const check = () => {
    expect(similarities(store.db, embedder.model, query, [a, b, c, 999])).toEqual(expected)
    expect(cosineBetween(store.db, embedder.model, a, b)).toBe(betweenInTable(a, b))
    expect(cosineBetween(store.db, embedder.model, c, a)).toBe(betweenInTable(c, a))
    expect(cosineBetween(store.db, embedder.model, a, 999)).toBeUndefined()
  }

  check()
  store.db.prepare("UPDATE embedding_cache SET vector = x'00000000' WHERE content_hash = (SELECT content_hash FROM vector_state WHERE key = ?)").run(b)
  check()
  store.db.exec("DELETE FROM embedding_cache")
  check()
})

test("another model is another table; the first model's vectors stay, and dropping one leaves the other", () => {
  const store = threeMemories()
  const first = countingEmbedder("test:first", 64)
  const second = countingEmbedder("test:second", 16)
  sync(store, first)
  const progress: number[] = []
  expect(sync(store, second, (done) => progress.push(done))).toMatchObject({ embedded: 3, cached: 0 })
  expect(progress).toEqual([0, 3])
  expect(listVectorModels(store.db).map((m) => [m.model, m.dimensions, m.vectors])).toEqual([
    ["test:first", 64, 3],
    ["test:second", 16, 3]
  ])
  dropVectorModel(store.db, "test:second")
  expect(listVectorModels(store.db).map((m) => m.model)).toEqual(["test:first"])
  expect(nearest(store.db, "test:first", l2Normalize(bagOfWords("epsilon", 64)), 1)[0]!.key).toBe(keyOf(store, C))
})

test("an embedder failure fails the sync with EmbedderUnavailable and keeps what was written", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  embedder.failWith = "server down"
  const result = Effect.runSync(Effect.either(syncVectors(store.db, embedder)))
  expect(Either.isLeft(result) && result.left).toMatchObject({ _tag: "EmbedderUnavailable", reason: "server down" })
  embedder.failWith = undefined
  expect(sync(store, embedder)).toMatchObject({ embedded: 3 })
})

test("a model that changes its vector length under the same id gets its table rebuilt at the new length", () => {
  const store = threeMemories()
  sync(store, countingEmbedder("test:same", 64))
  append(store, [added(memoryId(4), "theta iota")])
  const resized = countingEmbedder("test:same", 32)
  // The cached 64-long vectors no longer fit: every memory is embedded again at 32, in one sync.
  expect(sync(store, resized)).toMatchObject({ embedded: 4, cached: 0, unchanged: 0 })
  expect(listVectorModels(store.db)).toMatchObject([{ model: "test:same", dimensions: 32, vectors: 4 }])
  expect(sync(store, resized)).toMatchObject({ embedded: 0, unchanged: 4 })
})

test("an http model whose length changes is only found out mid-sync, and the same sync still finishes the index", async () => {
  const server = await startFakeServer()
  try {
    const store = threeMemories()
    await Effect.runPromise(syncVectors(store.db, makeHttpEmbedder({ url: server.url, model: "bow" })))
    append(store, [added(memoryId(4), "theta iota")])
    server.dimensions = 16
    const counts = await Effect.runPromise(syncVectors(store.db, makeHttpEmbedder({ url: server.url, model: "bow" })))
    expect(counts).toMatchObject({ memories: 4, embedded: 4, cached: 0 })
    expect(listVectorModels(store.db)).toMatchObject([{ model: "http:bow", dimensions: 16, vectors: 4 }])
  } finally {
    await server.close()
  }
})

test("pruneErasedVectors deletes cached vectors of texts no memory holds", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  append(store, [revised(A, { content: "something else entirely" })])
  sync(store, embedder)
  expect(pruneErasedVectors(store.db)).toBe(1)
  expect(pruneErasedVectors(store.db)).toBe(0)
})

test("pruneErasedVectors deletes the stored vectors of memories that are gone before any sync drops them", () => {
  const { store, embedder, keyB } = bothEmbeddedThenBForgotten()

  expect(pruneErasedVectors(store.db)).toBe(1)
  expect(vectorOf(store.db, embedder.model, keyB)).toBeUndefined()
  expect(vectorOf(store.db, embedder.model, keyOf(store, A))).toBeDefined()
  expect(sync(store, embedder)).toMatchObject({ memories: 1, unchanged: 1, removed: 0, embedded: 0 })
})

test("learned cues' vectors and cached embeddings last as long as the cues: pruneErasedVectors takes them once their conversations are forgotten", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  // A global memory's cue learned outside any project joins its vector; one learned in a project has its own.
  append(store, [recalled("where are the greek letters kept", []), outcome([A], "worked")], "claude-code:session/p1")
  append(store, [{ ...recalled("which letters come after epsilon", []), project: "web" } as DomainEvent, outcome([C], "worked")], "claude-code:session/p2")
  expect(sync(store, embedder)).toMatchObject({ cues: 1, cuesUnchanged: 0, embedded: 2, unchanged: 2 })
  expect(embedder.texts.slice(-2).sort()).toEqual(["where are the greek letters kept", "which letters come after epsilon"])
  expect(pruneErasedVectors(store.db)).toBe(0)
  const filedCues = () => (store.db.prepare("SELECT count(*) AS n FROM cue_vector_state").get() as { n: number }).n
  expect(filedCues()).toBe(1)

  append(store, [conversationForgotten("claude-code:session/p1"), conversationForgotten("claude-code:session/p2")])
  // Each cue's text, and A's pool of its content and cue.
  expect(pruneErasedVectors(store.db)).toBe(3)
  expect(filedCues()).toBe(0)
  expect(sync(store, embedder)).toMatchObject({ cues: 0, embedded: 0, unchanged: 2, cached: 1 })
})

test("after changes to some memories (revised, added, their cues rewritten by outcomes), the next sync reads those and their cues, not every one; after a rebuild, every one", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  Effect.runSync(ensureVectors(sqliteVectorStore(store.db), embedder))
  // The real tables, with the reads of every memory and every cue refused.
  const real = sqliteVectorStore(store.db)
  const refuse = (): never => {
    throw new Error("read every memory")
  }
  const narrow: VectorStore = {
    read: (f) => real.read((t) => f({ ...t, memories: refuse, learnedCues: refuse })),
    write: (f) => real.write((t) => f({ ...t, memories: refuse, learnedCues: refuse }))
  }
  append(store, [{ ...recalled("which letters open the alphabet", []), project: "web" } as DomainEvent, outcome([A], "worked")], "claude-code:session/n1")
  append(store, [recalled("what follows epsilon", []), outcome([C], "worked")], "claude-code:session/n2")
  Effect.runSync(ensureVectors(narrow, embedder))
  expect(embedder.texts.slice(-2).sort()).toEqual(["what follows epsilon", "which letters open the alphabet"])
  expect(store.db.prepare("SELECT count(*) AS n FROM cue_vector_state").get()).toEqual({ n: 1 })
  expect(Effect.runSync(syncVectors(store.db, embedder))).toMatchObject({ unchanged: 3, cuesUnchanged: 1, embedded: 0 })

  append(store, [revised(B, { content: "alpha beta delta epsilon" }), added(memoryId(4), "theta iota kappa")])
  Effect.runSync(ensureVectors(narrow, embedder))
  expect(embedder.texts.slice(-2)).toEqual(["alpha beta delta epsilon", "theta iota kappa"])
  expect(Effect.runSync(syncVectors(store.db, embedder))).toMatchObject({ memories: 4, unchanged: 4, cuesUnchanged: 1, embedded: 0 })

  rebuildProjections(store.db, DEFAULT_CONFIG)
  expect(() => Effect.runSync(ensureVectors(narrow, embedder))).toThrow(/read every memory/)
  Effect.runSync(ensureVectors(real, embedder))
  expect(Effect.runSync(syncVectors(store.db, embedder))).toMatchObject({ memories: 4, unchanged: 4, embedded: 0 })
})

test("syncVectors through the http provider against a real OpenAI-compatible server", async () => {
  const server = await startFakeServer()
  try {
    const store = threeMemories()
    const embedder = makeHttpEmbedder({ url: server.url, model: "bow" })
    const counts = await Effect.runPromise(syncVectors(store.db, embedder))
    expect(counts).toMatchObject({ model: "http:bow", embedded: 3 })
    expect(listVectorModels(store.db)).toMatchObject([{ model: "http:bow", dimensions: 32, vectors: 3 }])
    expect(server.requests).toHaveLength(1)
  } finally {
    await server.close()
  }
})

test("nearest among places reads only those places' vectors, in the order the whole table would give them", () => {
  const store = openTempStore()
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
  const places = [null, "github.com/acme/app", "github.com/acme/api"] as const
  const events = Array.from({ length: 24 }, (_, i) => {
    const project = places[i % 3]!
    return added(memoryId(100 + i), `${words[i % 8]} ${words[(i * 3) % 8]} ${words[(i * 5 + 1) % 8]} note ${i}`, project === null ? { scope: "global", project: null } : { scope: "project", project })
  })
  append(store, events)
  const embedder = countingEmbedder()
  sync(store, embedder)
  const projectOf = new Map((store.db.prepare("SELECT key, project FROM memories").all() as { key: number; project: string | null }[]).map((r) => [r.key, r.project]))
  const query = l2Normalize(bagOfWords("alpha gamma zeta", 64))

  const all = nearest(store.db, embedder.model, query, 24)
  const fromApp = nearest(store.db, embedder.model, query, 24, ["", "github.com/acme/app"])
  expect(fromApp.map((n) => projectOf.get(n.key)).every((p) => p === null || p === "github.com/acme/app")).toBe(true)
  expect(fromApp).toEqual(all.filter((n) => projectOf.get(n.key) !== "github.com/acme/api"))
  // Cut at k, ties at the cut may fall either way: the cosines and the place are what is fixed.
  const globalTop = nearest(store.db, embedder.model, query, 3, [""])
  expect(globalTop.every((n) => projectOf.get(n.key) === null)).toBe(true)
  expect(globalTop.map((n) => n.cosine)).toEqual(all.filter((n) => projectOf.get(n.key) === null).slice(0, 3).map((n) => n.cosine))
})

test("vectors filed before tables were partitioned by place are filed again from the cache, with no embedding call", () => {
  const store = threeMemories()
  const embedder = countingEmbedder()
  sync(store, embedder)
  // The layout of an older store: vector_state without its place column.
  store.db.exec("ALTER TABLE vector_state DROP COLUMN place")
  const again = sync(store, embedder)
  expect(again).toMatchObject({ memories: 3, embedded: 0, cached: 3 })
  expect(embedder.calls).toBe(1)
  expect(nearest(store.db, embedder.model, l2Normalize(bagOfWords("epsilon", 64)), 1, [""])[0]!.key).toBe(keyOf(store, C))
})
