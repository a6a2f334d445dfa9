/**
 * The vector contract: for a given log whose vectors an embedder has filed, what the vector
 * reads return and what a sync does, on every store that keeps vectors (stores.ts). The nearest
 * vectors are cut at `k` among every stored vector of the places searched, and only then
 * filtered for liveness, category and reader: so every store leaves out the same memories, and
 * its cosines are the embedder's vectors' (to float32 rounding).
 */
import { Either } from "effect"
import { describe, expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { cosine, l2Normalize } from "../../src/embeddings/normalize.js"
import type { NewEvent } from "../../src/events/log.js"
import type { LedgerReads } from "../../src/store/ledger-reads.js"
import { added, conversationForgotten, conversationRestored, forgotten, outcome, recalled, revised } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { bagOfWords, countingEmbedder } from "../embeddings/fake-embeddings.js"
import type { PortsUnderTest, StoreUnderTest } from "./stores.js"

const DIMENSIONS = 64
const MODEL = "test:bag-of-words"
const vectorOf = (text: string) => l2Normalize(bagOfWords(text, DIMENSIONS))
const query = (text: string) => ({ model: MODEL, vector: vectorOf(text) })

const DEPLOY = memoryId(1)
const PNPM = memoryId(2)
const OTHER = memoryId(3)
const OLD = memoryId(4)
const CHANGELOG = memoryId(5)
const VAULT = memoryId(6)
const PLANTED = memoryId(7)

const TEXT = {
  [DEPLOY]: "deploy with make release after the tests pass",
  [PNPM]: "use pnpm, never npm, in this repository",
  [OTHER]: "deploy the api with helm upgrade",
  [OLD]: "deploy by copying files over ssh",
  [CHANGELOG]: "release notes go in the changelog before a deploy",
  [VAULT]: "deploy keys live in the vault",
  [PLANTED]: "deploy notes from a thread later forgotten"
} as Record<string, string>

let n = 0
const event = (e: NewEvent["event"], origin = "cli", author?: string): NewEvent => ({
  id: eventId(++n),
  recordedAt: new Date(Date.UTC(2026, 0, 1 + (n % 9))).toISOString(),
  origin,
  agent: "test",
  ...(author === undefined ? {} : { author }),
  event: e
})

const web = { scope: "project", project: "web" } as const
const NOW = Date.UTC(2026, 0, 20)
/** A log of every kind of memory a vector read must leave out, beside the ones it finds. */
const log = (): NewEvent[] => [
  event(added(DEPLOY, TEXT[DEPLOY]!, { category: "command", ...web })),
  event(added(PNPM, TEXT[PNPM]!, { category: "convention", ...web })),
  event(added(OTHER, TEXT[OTHER]!, { category: "command", scope: "project", project: "api" })),
  event(added(OLD, TEXT[OLD]!, { category: "command" })),
  event(forgotten(OLD)),
  event(added(CHANGELOG, TEXT[CHANGELOG]!)),
  event(added(VAULT, TEXT[VAULT]!, { category: "gotcha", ...web, visibility: "private" }), "cli", "ana"),
  event(added(PLANTED, TEXT[PLANTED]!, web), "codex:thread/t9"),
  event(conversationForgotten("codex:thread/t9"))
]

/** A conversation that recalls by `query` in `project`, misses `id`, then says it worked: the query becomes a cue of `id` there. */
const teach = (query: string, id: string, project: string | null, origin: string): NewEvent[] => {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 15, 9, minute)).toISOString()
  return [
    { ...event({ ...recalled(query, []), ...(project === null ? {} : { project }) } as NewEvent["event"], origin), recordedAt: at(0) },
    { ...event(outcome([id as typeof DEPLOY], "worked"), origin), recordedAt: at(1) }
  ]
}

export const vectorContract = (store: StoreUnderTest): void => {
  describe(`vector contract: ${store.name}`, () => {
    /** Opens an empty store, appends the log, files its vectors, and runs `f`. */
    const given = async <A>(f: (ports: PortsUnderTest, embedder: ReturnType<typeof countingEmbedder>) => Promise<A>): Promise<A> => {
      const ports = await store.open()
      try {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(log()))))
        const embedder = countingEmbedder(MODEL, DIMENSIONS)
        expect(ports.maintenance.keepsVectors).toBe(true)
        await ports.run(ports.maintenance.syncVectors(embedder))
        return await f(ports, embedder)
      } finally {
        await ports.close()
      }
    }
    const read = <A>(ports: PortsUnderTest, f: (reads: LedgerReads) => A) => ports.run(ports.reader.read(f))
    /** The cosine the embedder's own vectors give. */
    const expected = (text: string, id: string) => expect.closeTo(cosine(vectorOf(text), vectorOf(TEXT[id]!)), 5)

    test("vectorNeighbours: the live memories of the project and global ones, with their vectors' cosines; a private one to its author only", async () => {
      const q = "deploy a release"
      const found = await given((ports) =>
        read(ports, (r) => ({
          anyone: r.vectorNeighbours(query(q), "web", 10),
          ana: r.vectorNeighbours(query(q), "web", 10, "ana"),
          global: r.vectorNeighbours(query(q), null, 10).map((n) => n.memory.id)
        }))
      )
      const byId = (list: ReadonlyArray<{ memory: { id: string }; cosine: number }>) => Object.fromEntries(list.map((n) => [n.memory.id, n.cosine]))
      expect(byId(found.anyone)).toEqual({ [DEPLOY]: expected(q, DEPLOY), [PNPM]: expected(q, PNPM), [CHANGELOG]: expected(q, CHANGELOG) })
      expect(byId(found.ana)).toEqual({ ...byId(found.anyone), [VAULT]: expected(q, VAULT) })
      expect(found.global).toEqual([CHANGELOG])
    })

    test("the nearest are cut at k before they are filtered: a forgotten memory nearest the query leaves nothing", async () => {
      const found = await given((ports) =>
        read(ports, (r) => ({
          cut: r.vectorNeighbours(query(TEXT[OLD]!), "web", 1),
          next: r.vectorNeighbours(query(TEXT[DEPLOY]!), "web", 1).map((n) => [n.memory.id, n.cosine])
        }))
      )
      expect(found.cut).toEqual([])
      expect(found.next).toEqual([[DEPLOY, expect.closeTo(1, 5)]])
    })

    test("addVectorCandidates: every keyword candidate's cosine, and the nearest live memories in scope, of the category asked", async () => {
      const q = "deploy release"
      const found = await given((ports) =>
        read(ports, (r) => {
          const keyword = r.keywordCandidates(["pnpm"], { project: "web" }, 10, DEFAULT_CONFIG, Date.UTC(2026, 0, 20))
          const shape = (m: ReturnType<LedgerReads["addVectorCandidates"]>) =>
            Object.fromEntries([...m.values()].map((c) => [c.memory.id, { keyword: c.keyword > 0, vector: c.vector }]))
          return {
            all: shape(r.addVectorCandidates(keyword, query(q), { project: "web" }, 10, DEFAULT_CONFIG, NOW)),
            commands: shape(r.addVectorCandidates(new Map(), query(q), { project: "web", category: "command" }, 10, DEFAULT_CONFIG, NOW)),
            ana: Object.keys(shape(r.addVectorCandidates(new Map(), query(q), { project: "web", viewer: "ana" }, 10, DEFAULT_CONFIG, NOW))).sort()
          }
        })
      )
      expect(found.all).toEqual({
        [PNPM]: { keyword: true, vector: expected(q, PNPM) },
        [DEPLOY]: { keyword: false, vector: expected(q, DEPLOY) },
        [CHANGELOG]: { keyword: false, vector: expected(q, CHANGELOG) }
      })
      expect(found.commands).toEqual({ [DEPLOY]: { keyword: false, vector: expected(q, DEPLOY) } })
      expect(found.ana).toEqual([DEPLOY, PNPM, CHANGELOG, VAULT].sort())
    })

    test("cosineBetween two memories' vectors; undefined for a memory without one or a model never synced", async () => {
      const found = await given((ports) =>
        read(ports, (r) => {
          const key = (id: string) => r.memory(id as typeof DEPLOY)!.key
          return [r.cosineBetween(MODEL, key(DEPLOY), key(CHANGELOG)), r.cosineBetween(MODEL, key(DEPLOY), 999_999), r.cosineBetween("test:never", key(DEPLOY), key(PNPM))]
        })
      )
      expect(found).toEqual([expect.closeTo(cosine(vectorOf(TEXT[DEPLOY]!), vectorOf(TEXT[CHANGELOG]!)), 5), undefined, undefined])
    })

    test("a query of another length than the model's vectors, or of another model, finds nothing", async () => {
      const found = await given((ports) =>
        read(ports, (r) => ({
          short: r.vectorNeighbours({ model: MODEL, vector: l2Normalize(bagOfWords("deploy", 8)) }, "web", 10),
          other: r.vectorNeighbours({ model: "test:never", vector: vectorOf("deploy") }, "web", 10),
          candidates: r.addVectorCandidates(new Map(), { model: MODEL, vector: l2Normalize(bagOfWords("deploy", 8)) }, { project: "web" }, 10, DEFAULT_CONFIG, NOW).size
        }))
      )
      expect(found).toEqual({ short: [], other: [], candidates: 0 })
    })

    test("the store as it was (readAt) has no vectors, as a past replayed anew has none", async () => {
      const found = await given((ports) => ports.run(ports.reader.readAt(new Date(Date.UTC(2026, 0, 20)).toISOString(), (r) => r.vectorNeighbours(query("deploy"), "web", 10))))
      expect(found).toEqual([])
    })

    test("a sync embeds each text once: a second embeds nothing, a revision only the new text, and a new memory makes vectors stale until the next", async () => {
      await given(async (ports, embedder) => {
        const texts = embedder.texts.length
        expect(texts).toBe(6)
        expect(await ports.run(ports.maintenance.vectorsCurrent(MODEL))).toBe(true)
        await ports.run(ports.maintenance.syncVectors(embedder))
        expect(embedder.texts).toHaveLength(texts)

        await ports.run(ports.log.write((unit) => Either.right(unit.append([event(revised(DEPLOY, { content: "deploy with make ship" }))]))))
        expect(await ports.run(ports.maintenance.vectorsCurrent(MODEL))).toBe(false)
        await ports.run(ports.maintenance.syncVectors(embedder))
        expect(embedder.texts.slice(texts)).toEqual(["deploy with make ship"])
        expect(await ports.run(ports.maintenance.vectorsCurrent(MODEL))).toBe(true)
        const near = await read(ports, (r) => r.vectorNeighbours(query("deploy with make ship"), "web", 1).map((n) => [n.memory.id, n.cosine]))
        expect(near).toEqual([[DEPLOY, expect.closeTo(1, 5)]])

        // Revised back: the old text's vector comes from the cache, with no embedding call.
        await ports.run(ports.log.write((unit) => Either.right(unit.append([event(revised(DEPLOY, { content: TEXT[DEPLOY]! }))]))))
        await ports.run(ports.maintenance.syncVectors(embedder))
        expect(embedder.texts).toHaveLength(texts + 1)
      })
    })

    test("a memory's vector pools its content and its written cues; a new cue costs one embedding, and taking the cues away none", async () => {
      await given(async (ports, embedder) => {
        const texts = embedder.texts.length
        const cues = ["how do I ship a build?", "what runs the release?"]
        await ports.run(ports.log.write((unit) => Either.right(unit.append([event(revised(DEPLOY, { cues }))]))))
        await ports.run(ports.maintenance.syncVectors(embedder))
        expect(embedder.texts.slice(texts)).toEqual(cues)

        const q = "ship a build"
        const mean = l2Normalize([TEXT[DEPLOY]!, ...cues].map(vectorOf).reduce((sum, v) => sum.map((x, i) => x + v[i]!), new Float32Array(DIMENSIONS)))
        const near = (k: number) => read(ports, (r) => r.vectorNeighbours(query(q), "web", k).map((n) => [n.memory.id, n.cosine]))
        expect(await near(1)).toEqual([[DEPLOY, expect.closeTo(cosine(vectorOf(q), mean), 5)]])
        expect(cosine(vectorOf(q), mean)).toBeGreaterThan(cosine(vectorOf(q), vectorOf(TEXT[DEPLOY]!)))

        // The cues taken away again: the content's own vector, from the cache.
        await ports.run(ports.log.write((unit) => Either.right(unit.append([event(revised(DEPLOY, { cues: [] }))]))))
        await ports.run(ports.maintenance.syncVectors(embedder))
        expect(embedder.texts).toHaveLength(texts + cues.length)
        expect(await near(5)).toContainEqual([DEPLOY, expect.closeTo(cosine(vectorOf(q), vectorOf(TEXT[DEPLOY]!)), 5)])
      })
    })

    test("a learned cue has a vector of its own, searched only from the project that taught it; why is told which cue gave the cosine", async () => {
      const cue = "where do we write down what changed for users"
      const found = await given(async (ports, embedder) => {
        const texts = embedder.texts.length
        await ports.run(ports.log.write((unit) => Either.right(unit.append(teach(cue, CHANGELOG, "web", "claude-code:session/c1")))))
        expect(await ports.run(ports.maintenance.vectorsCurrent(MODEL))).toBe(false)
        await ports.run(ports.maintenance.syncVectors(embedder))
        const embedded = embedder.texts.slice(texts)
        const viaCue = (project: string | null) =>
          read(ports, (r) => {
            const c = r.addVectorCandidates(new Map(), query(cue), { project }, 10, DEFAULT_CONFIG, NOW).get(r.memory(CHANGELOG)!.key)
            return c && { vector: c.vector, cue: c.vectorCue }
          })
        return { embedded, web: await viaCue("web"), api: await viaCue("api"), global: await viaCue(null) }
      })
      expect(found.embedded).toEqual([cue])
      expect(found.web?.cue).toMatchObject({ text: cue, origin: "claude-code:session/c1", cosine: expect.closeTo(1, 5) })
      expect(found.web!.vector).toBeCloseTo(found.web!.cue!.cosine * found.web!.cue!.weight, 6)
      expect(found.web!.vector).toBeGreaterThan(cosine(vectorOf(cue), vectorOf(TEXT[CHANGELOG]!)))
      // From elsewhere the memory is found by its own vector only.
      for (const elsewhere of [found.api, found.global]) expect(elsewhere).toEqual({ vector: expected(cue, CHANGELOG), cue: undefined })
    })

    test("a cue learned where its memory is found joins the memory's pooled vector: a project memory's, and a global one's learned outside any project", async () => {
      const taught: Record<string, string> = { [DEPLOY]: "how do I cut a build for production", [CHANGELOG]: "where do we write down what changed for users" }
      const found = await given(async (ports, embedder) => {
        const texts = embedder.texts.length
        await ports.run(
          ports.log.write((unit) =>
            Either.right(unit.append([...teach(taught[DEPLOY]!, DEPLOY, "web", "claude-code:session/c3"), ...teach(taught[CHANGELOG]!, CHANGELOG, null, "claude-code:session/c4")]))
          )
        )
        await ports.run(ports.maintenance.syncVectors(embedder))
        const near = (id: string, project: string | null) =>
          read(ports, (r) => {
            const c = r.addVectorCandidates(new Map(), query(taught[id]!), { project }, 10, DEFAULT_CONFIG, NOW).get(r.memory(id as typeof DEPLOY)!.key)
            return c && { vector: c.vector, cue: c.vectorCue }
          })
        return { embedded: embedder.texts.slice(texts).sort(), deploy: await near(DEPLOY, "web"), changelog: await near(CHANGELOG, "api") }
      })
      expect(found.embedded).toEqual(Object.values(taught).sort())
      const pooledWith = (id: string) => l2Normalize([TEXT[id]!, taught[id]!].map(vectorOf).reduce((sum, v) => sum.map((x, i) => x + v[i]!), new Float32Array(DIMENSIONS)))
      expect(found.deploy).toEqual({ vector: expect.closeTo(cosine(vectorOf(taught[DEPLOY]!), pooledWith(DEPLOY)), 5), cue: undefined })
      expect(found.changelog).toEqual({ vector: expect.closeTo(cosine(vectorOf(taught[CHANGELOG]!), pooledWith(CHANGELOG)), 5), cue: undefined })
    })

    test("a cue's conversation forgotten: its cue finds nothing at once; restored, the cue's vector comes back from the cache", async () => {
      const cue = "where do we write down what changed for users"
      const origin = "claude-code:session/c2"
      await given(async (ports, embedder) => {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(teach(cue, CHANGELOG, "web", origin)))))
        await ports.run(ports.maintenance.syncVectors(embedder))
        const texts = embedder.texts.length
        const viaCue = () =>
          read(ports, (r) => r.addVectorCandidates(new Map(), query(cue), { project: "web" }, 10, DEFAULT_CONFIG, NOW).get(r.memory(CHANGELOG)!.key)?.vectorCue?.text)
        expect(await viaCue()).toBe(cue)
        await ports.run(ports.log.write((unit) => Either.right(unit.append([event(conversationForgotten(origin))]))))
        expect(await viaCue()).toBeUndefined()
        await ports.run(ports.maintenance.syncVectors(embedder))
        expect(await viaCue()).toBeUndefined()
        await ports.run(ports.log.write((unit) => Either.right(unit.append([event(conversationRestored(origin))]))))
        await ports.run(ports.maintenance.syncVectors(embedder))
        expect(await viaCue()).toBe(cue)
        expect(embedder.texts).toHaveLength(texts)
      })
    })

    test("a memory forgotten after its vector was filed is left out at once, before any sync", async () => {
      const found = await given(async (ports) => {
        await ports.run(ports.log.write((unit) => Either.right(unit.append([event(forgotten(CHANGELOG))]))))
        return read(ports, (r) => r.vectorNeighbours(query(TEXT[CHANGELOG]!), null, 10).map((n) => n.memory.id))
      })
      expect(found).toEqual([])
    })
  })
}
