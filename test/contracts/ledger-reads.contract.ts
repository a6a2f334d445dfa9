/**
 * The read contract: for a given log, what each of the port's reads returns. Written once and
 * run against every store (stores.ts): a store whose projections, candidate queries or log
 * reads answer differently from these fails here, whatever its SQL.
 */
import { Either } from "effect"
import { describe, expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import type { NewEvent } from "../../src/events/log.js"
import { porterStem } from "../../src/retrieval/porter.js"
import { seenBy } from "../../src/services/seen-by.js"
import type { LedgerReads } from "../../src/store/ledger-reads.js"
import { added, conversationForgotten, conversationRestored, forgotten, outcome, recalled, restored, revised, superseded } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import type { StoreUnderTest } from "./stores.js"

const NOW = Date.UTC(2026, 0, 10)
const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString()

const DEPLOY = memoryId(1)
const PNPM = memoryId(2)
const OTHER = memoryId(3)
const OLD = memoryId(4)
const PLANTED = memoryId(5)
const NAMED = [DEPLOY, PNPM, OTHER, OLD, PLANTED] as const

const SESSION = "claude-code:session/s1"
const FORGOTTEN_SESSION = "codex:thread/t9"

let n = 0
const event = (e: NewEvent["event"], day: number, origin = "cli"): NewEvent => ({ id: eventId(++n), recordedAt: at(day), origin, agent: "test", event: e })

/** One log that every read below is asked about. */
const LOG: ReadonlyArray<NewEvent> = [
  event(added(DEPLOY, "deploy with make release after the tests pass", { category: "command", scope: "project", project: "web" }), 1),
  event(added(PNPM, "use pnpm, never npm, in this repository", { category: "convention", scope: "project", project: "web" }), 2),
  event(added(OTHER, "deploy the api with helm upgrade", { category: "command", scope: "project", project: "api" }), 2),
  event(added(OLD, "deploy by copying files over ssh", { category: "command" }), 3),
  event(forgotten(OLD), 4),
  event(recalled("how do I ship the site", [PNPM]), 5, SESSION),
  event(outcome([DEPLOY], "worked"), 5, SESSION),
  event(outcome([PNPM], "failed"), 6),
  event(added(PLANTED, "deploy notes from a thread later forgotten", { project: "web", scope: "project" }), 6, FORGOTTEN_SESSION),
  event(conversationForgotten(FORGOTTEN_SESSION), 7)
]

const PRIVATE = memoryId(6)
const PRIVATE_GONE = memoryId(7)
const ALICE_SESSION = "claude-code:session/alice"
const ALICE_GONE = "claude-code:session/alice-gone"

/** Alice's private memories, written through her token: one with an outcome, one whose conversation she then forgot. */
const ALICES_PRIVATE: ReadonlyArray<NewEvent> = [
  { ...event(added(PRIVATE, "deploy previews through the blue cluster", { category: "convention", visibility: "private" }), 7, ALICE_SESSION), author: "alice" },
  { ...event(outcome([PRIVATE], "worked"), 8, ALICE_SESSION), author: "alice" },
  { ...event(added(PRIVATE_GONE, "the preview password rotates weekly", { visibility: "private" }), 8, ALICE_GONE), author: "alice" },
  { ...event(conversationForgotten(ALICE_GONE), 9), author: "alice" }
]

export const readContract = (store: StoreUnderTest): void => {
  describe(`read contract: ${store.name}`, () => {
    /** Opens an empty store, appends `log` (LOG unless given) in one write, and asks `f` of one snapshot. */
    const given = async <A>(f: (reads: LedgerReads) => A, log: ReadonlyArray<NewEvent> = LOG): Promise<A> => {
      const ports = await store.open()
      try {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(log))))
        return await ports.run(ports.reader.read(f))
      } finally {
        await ports.close()
      }
    }

    test("memory and memoriesByKey return the folded memory; an unknown id returns nothing", async () => {
      const [deploy, unknown, byKey] = await given((r) => {
        const deploy = r.memory(DEPLOY)
        return [deploy, r.memory(memoryId(99)), deploy && r.memoriesByKey([deploy.key])] as const
      })
      expect(deploy).toMatchObject({ id: DEPLOY, content: "deploy with make release after the tests pass", category: "command", project: "web", forgotten: false })
      expect(unknown).toBeUndefined()
      expect(byKey?.get(deploy!.key)?.id).toBe(DEPLOY)
    })

    test("resolveId takes a full id or a unique prefix and names what is wrong otherwise", async () => {
      const answers = await given((r) => [r.resolveId(DEPLOY), r.resolveId(DEPLOY.slice(0, 6)), r.resolveId("0m00"), r.resolveId("zzzzzzzz")])
      expect(answers[0]).toEqual(Either.right(DEPLOY))
      expect(Either.isLeft(answers[1]!) && answers[1].left._tag).toBe("AmbiguousId")
      expect(Either.isLeft(answers[2]!) && answers[2].left._tag).toBe("InvalidId")
      expect(Either.isLeft(answers[3]!) && answers[3].left._tag).toBe("MemoryNotFound")
    })

    test("shortId is the shortest prefix no other memory shares, never under 8 characters", async () => {
      const [ids, many] = await given((r) => [NAMED.map((id) => r.shortId(id)), r.shortIds(NAMED)] as const)
      for (const [i, short] of ids.entries()) {
        expect(short.length).toBeGreaterThanOrEqual(8)
        expect(NAMED[i]!.startsWith(short)).toBe(true)
        expect(NAMED.filter((id) => id.startsWith(short))).toEqual([NAMED[i]])
      }
      expect(many).toEqual(new Map(NAMED.map((id, i) => [id, ids[i]])))
    })

    test("memoryPage keeps the live memories of the project and global ones, newest first, by filter and cursor", async () => {
      const lists = await given((r) => {
        const ids = (filter: Parameters<LedgerReads["memoryPage"]>[0]) => r.memoryPage(filter).map((m) => m.id)
        const first = r.memoryPage({ limit: 1 })
        return {
          web: ids({ project: "web", limit: 10 }),
          all: ids({ all: true, limit: 10 }),
          commands: ids({ category: "command", limit: 10 }),
          limited: first.map((m) => m.id),
          next: ids({ limit: 10, beforeKey: first[0]!.key }),
          tagged: ids({ tags: ["nope"], limit: 10 })
        }
      })
      expect(lists.web).toEqual([PNPM, DEPLOY])
      expect(lists.all).toEqual([OLD, OTHER, PNPM, DEPLOY])
      expect(lists.commands).toEqual([OTHER, DEPLOY])
      expect(lists.limited).toEqual([OTHER])
      expect(lists.next).toEqual([PNPM, DEPLOY])
      expect(lists.tagged).toEqual([])
    })

    test("a forgotten conversation's memories are in no projection, and its origin is listed as forgotten", async () => {
      const seen = await given((r) => ({
        planted: r.memory(PLANTED),
        forgotten: [...r.forgottenOrigins()],
        conversations: r.conversations().map((c) => [c.origin, c.forgotten])
      }))
      expect(seen.planted).toBeUndefined()
      expect(seen.forgotten).toEqual([FORGOTTEN_SESSION])
      expect(Object.fromEntries(seen.conversations)).toMatchObject({ [SESSION]: false, [FORGOTTEN_SESSION]: true, cli: false })
    })

    test("evidence holds each memory's outcomes; a memory without outcomes has none", async () => {
      const evidence = await given((r) => ({ deploy: r.evidence(DEPLOY), pnpm: r.evidence(PNPM), other: r.evidence(OTHER), both: r.evidenceOf([DEPLOY, OTHER]) }))
      expect(evidence.deploy).toMatchObject({ workedCount: 1, failedCount: 0 })
      expect(evidence.pnpm).toMatchObject({ workedCount: 0, failedCount: 1 })
      expect(evidence.other).toBeUndefined()
      expect([...evidence.both.keys()]).toEqual([DEPLOY])
    })

    test("restatementOf finds the live memory with the same normalised text in its scope only", async () => {
      const { restatementKey } = await import("../../src/domain/text.js")
      const key = restatementKey("Use pnpm, never npm, in this repository.")
      const found = await given((r) => [r.restatementOf(key, "project", "web")?.id, r.restatementOf(key, "project", "api"), r.restatementOf(key, "global", null)])
      expect(found).toEqual([PNPM, undefined, undefined])
    })

    test("events and head read the log as appended", async () => {
      const read = await given((r) => ({
        head: r.head(),
        deploy: [...r.events({ memoryId: DEPLOY })].map((e) => e.type),
        session: [...r.events({ origin: SESSION })].map((e) => e.seq),
        newest: [...r.events({ newestFirst: true, limit: 2 })].map((e) => e.seq)
      }))
      expect(read.head.seq).toBe(LOG.length)
      expect(read.deploy).toEqual(["MemoryAdded", "OutcomeRecorded"])
      expect(read.session).toEqual([6, 7])
      expect(read.newest).toEqual([10, 9])
    })

    test("events by task: the recalls and outcomes that name one task, or any of several, in sequence order", async () => {
      const tasked: ReadonlyArray<NewEvent> = [
        event(outcome([DEPLOY], "worked", { task: "bd-1" }), 8),
        event({ ...recalled("deploy", [DEPLOY, PNPM]), task: "bd-2" }, 8, SESSION),
        event(outcome([PNPM], "failed", { task: "bd-3" }), 9),
        event(outcome([PNPM], "partial", { task: "bd-1" }), 9)
      ]
      const read = await given(
        (r) => ({
          one: [...r.events({ task: "bd-1" })].map((e) => e.seq),
          some: [...r.events({ tasks: ["bd-1", "bd-2", "bd-9"] })].map((e) => e.seq),
          none: [...r.events({ tasks: [] })].length
        }),
        [...LOG, ...tasked]
      )
      expect(read.one).toEqual([LOG.length + 1, LOG.length + 4])
      expect(read.some).toEqual([LOG.length + 1, LOG.length + 2, LOG.length + 4])
      expect(read.none).toBe(0)
    })

    test("counts are what stats reports", async () => {
      const counts = await given((r) => r.counts(NOW, DEFAULT_CONFIG))
      expect(counts).toMatchObject({
        events: LOG.length,
        memories: { live: 3, forgotten: 1, superseded: 0 },
        byCategory: { command: 2, convention: 1 },
        projects: 2,
        outcomes: { worked: 1, failed: 1, partial: 0 },
        records: { memories: 2 }
      })
      expect(counts.conversations).toEqual({ total: 3, forgotten: 1 })
    })

    test("counts are of what the reader sees: another person's private memories, their events and conversations count nowhere", async () => {
      const counted = await given(
        (r) =>
          Object.fromEntries(
            (["alice", "bob", null] as const).map((viewer) => {
              const seen = seenBy(r, viewer)
              return [String(viewer), { counts: r.counts(NOW, DEFAULT_CONFIG, viewer), log: [...seen.events({})].length, conversations: seen.conversations().length }]
            })
          ),
        [...LOG, ...ALICES_PRIVATE]
      )
      const alice = counted.alice!
      expect(alice.counts).toMatchObject({
        events: LOG.length + ALICES_PRIVATE.length,
        memories: { live: 4, forgotten: 1, superseded: 0 },
        byCategory: { command: 2, convention: 2 },
        projects: 2,
        outcomes: { worked: 2, failed: 1, partial: 0 },
        records: { memories: 3 }
      })
      expect(alice.counts.conversations).toEqual({ total: 5, forgotten: 2 })
      // Bob, and a reader without a name, count what the log without alice's private memories holds.
      for (const other of [counted.bob!, counted.null!]) {
        expect(other.counts).toMatchObject({
          // Her two memories' three events are not in their log; the forgetting of her conversation is.
          events: LOG.length + 1,
          memories: { live: 3, forgotten: 1, superseded: 0 },
          byCategory: { command: 2, convention: 1 },
          projects: 2,
          outcomes: { worked: 1, failed: 1, partial: 0 },
          records: { memories: 2 }
        })
        expect(other.counts.conversations).toEqual({ total: 3, forgotten: 1 })
      }
      // The same numbers as the reader's own log and conversations list.
      for (const { counts, log, conversations } of Object.values(counted)) {
        expect(counts.events).toBe(log)
        expect(counts.conversations.total).toBe(conversations)
      }
    })

    test("the overview's reads: memories per group and the memories the gate holds back, as each reader sees them", async () => {
      const later: ReadonlyArray<NewEvent> = [
        event(outcome([PNPM], "failed"), 8),
        event(outcome([PNPM], "failed"), 9),
        event(outcome([DEPLOY], "partial"), 9, SESSION),
        ...[1, 2, 3, 4].map(() => ({ ...event(outcome([PRIVATE], "failed"), 9, ALICE_SESSION), author: "alice" }))
      ]
      const seen = await given(
        (r) => {
          const asSeenBy = (viewer: string | null) => {
            const reads = seenBy(r, viewer)
            const gated = reads.gatedMemories(NOW, DEFAULT_CONFIG, 10)
            return {
              counts: reads.memoryCounts(12),
              gated: { count: gated.count, ids: gated.memories.map((g) => g.id) },
              days: reads.outcomesByDay("2026-01-01")
            }
          }
          return { alice: asSeenBy("alice"), null: asSeenBy(null), pnpm: r.gatedMemories(NOW, DEFAULT_CONFIG, 1).memories[0] }
        },
        [...LOG, ...ALICES_PRIVATE, ...later]
      )
      expect(seen.null).toEqual({
        counts: {
          status: { live: 3, confirmed: 3, tentative: 0, forgotten: 1, superseded: 0 },
          byCategory: [{ name: "command", memories: 2 }, { name: "convention", memories: 1 }],
          byProject: [{ name: "web", memories: 2 }, { name: "api", memories: 1 }]
        },
        gated: { count: 1, ids: [PNPM] },
        // Alice's outcomes on her private memory, on day 8 and day 9, are not counted.
        days: [
          { day: "2026-01-05", worked: 1, failed: 0, partial: 0 },
          { day: "2026-01-06", worked: 0, failed: 1, partial: 0 },
          { day: "2026-01-08", worked: 0, failed: 1, partial: 0 },
          { day: "2026-01-09", worked: 0, failed: 1, partial: 1 }
        ]
      })
      expect(seen.alice).toEqual({
        counts: {
          status: { live: 4, confirmed: 4, tentative: 0, forgotten: 1, superseded: 0 },
          byCategory: [{ name: "command", memories: 2 }, { name: "convention", memories: 2 }],
          byProject: [{ name: "web", memories: 2 }, { name: null, memories: 1 }, { name: "api", memories: 1 }]
        },
        // Lowest score first: four failures, which discount the success before them, against three.
        gated: { count: 2, ids: [PRIVATE, PNPM] },
        days: [
          { day: "2026-01-05", worked: 1, failed: 0, partial: 0 },
          { day: "2026-01-06", worked: 0, failed: 1, partial: 0 },
          { day: "2026-01-08", worked: 1, failed: 1, partial: 0 },
          { day: "2026-01-09", worked: 0, failed: 5, partial: 1 }
        ]
      })
      // Three failures, decayed to now from 4, 2 and 1 days back, and the score the gate compares.
      expect(seen.pnpm).toMatchObject({ id: PNPM, worked: 0 })
      expect(seen.pnpm!.failed).toBeCloseTo(0.5 ** (4 / 90) + 0.5 ** (2 / 90) + 0.5 ** (1 / 90), 9)
      expect(seen.pnpm!.score).toBeCloseTo((-1.5 * seen.pnpm!.failed) / (1.5 * seen.pnpm!.failed + 2), 9)
    })

    test("the overview's counts follow each write: a memory forgotten and restored, superseded, moved to another category, a conversation forgotten and restored", async () => {
      const ports = await store.open()
      const countsAfter = async (events: ReadonlyArray<NewEvent>) => {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(events))))
        return ports.run(ports.reader.read((r) => ({ counts: r.memoryCounts(12), days: r.outcomesByDay("2026-01-01") })))
      }
      try {
        const first = await countsAfter(LOG)
        expect(first.counts.status).toEqual({ live: 3, confirmed: 3, tentative: 0, forgotten: 1, superseded: 0 })
        const steps = [
          [event(restored(OLD), 8)],
          [event(superseded(DEPLOY, OTHER), 8), event(revised(PNPM, { category: "command" }), 8)],
          [event(conversationRestored(FORGOTTEN_SESSION), 9)],
          [event(conversationForgotten(SESSION), 9), event(outcome([OTHER], "worked"), 9, SESSION), event(outcome([PNPM], "partial"), 9)]
        ]
        const after = []
        for (const step of steps) after.push(await countsAfter(step))
        expect(after.map((a) => a.counts.status)).toEqual([
          { live: 4, confirmed: 4, tentative: 0, forgotten: 0, superseded: 0 },
          { live: 3, confirmed: 3, tentative: 0, forgotten: 0, superseded: 1 },
          { live: 4, confirmed: 4, tentative: 0, forgotten: 0, superseded: 1 },
          { live: 4, confirmed: 4, tentative: 0, forgotten: 0, superseded: 1 }
        ])
        expect(after[1]!.counts.byCategory).toEqual([{ name: "command", memories: 3 }])
        expect(after[2]!.counts.byCategory).toEqual([{ name: "command", memories: 3 }, { name: "general", memories: 1 }])
        // The forgotten session's outcomes, on day 5 and day 9, are left out; the others stay.
        expect(after[3]!.days).toEqual([
          { day: "2026-01-06", worked: 0, failed: 1, partial: 0 },
          { day: "2026-01-09", worked: 0, failed: 0, partial: 1 }
        ])
        expect(after[2]!.days).toEqual([
          { day: "2026-01-05", worked: 1, failed: 0, partial: 0 },
          { day: "2026-01-06", worked: 0, failed: 1, partial: 0 }
        ])
      } finally {
        await ports.close()
      }
    })

    test("word frequencies follow every change of the indexed text on one open store: an add, a revision, a conversation forgotten", async () => {
      const ports = await store.open()
      const words = ["deploy", "helm", "kubectl"]
      const frequenciesAfter = async (events: ReadonlyArray<NewEvent>) => {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(events))))
        return ports.run(
          ports.reader.read((r) => {
            const { total, df } = r.documentFrequency()(words.map(porterStem))
            return { total, df: words.map((w) => df.get(porterStem(w))) }
          })
        )
      }
      const KUBE = memoryId(20)
      try {
        // A forgotten memory is still a document of the index; a forgotten conversation's is not.
        expect(await frequenciesAfter(LOG)).toEqual({ total: 4, df: [3, 1, 0] })
        expect(await frequenciesAfter([event(added(KUBE, "deploy the jobs with kubectl apply", { project: "api", scope: "project" }), 8, SESSION)])).toEqual({
          total: 5,
          df: [4, 1, 1]
        })
        expect(await frequenciesAfter([event(revised(OTHER, { content: "ship the api with a chart upgrade" }), 8)])).toEqual({ total: 5, df: [3, 0, 1] })
        expect(await frequenciesAfter([event(conversationForgotten(SESSION), 9)])).toEqual({ total: 4, df: [2, 0, 0] })
        expect(await frequenciesAfter([event(conversationRestored(SESSION), 9)])).toEqual({ total: 5, df: [3, 0, 1] })
      } finally {
        await ports.close()
      }
    })

    test("outcomes per day count what each reader sees: a memory made private after its outcomes takes them along, and brings them back when shared", async () => {
      const ports = await store.open()
      const bob = (e: NewEvent["event"], day: number): NewEvent => ({ ...event(e, day, "claude-code:session/bob"), author: "bob" })
      const daysAfter = async (events: ReadonlyArray<NewEvent>) => {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(events))))
        return ports.run(
          ports.reader.read((r) => ({ null: seenBy(r, null).outcomesByDay("2026-01-08"), bob: seenBy(r, "bob").outcomesByDay("2026-01-08") }))
        )
      }
      try {
        await daysAfter(LOG)
        // An outcome on OTHER, one naming OTHER with PNPM, and one on PNPM alone; then bob makes OTHER his.
        const shared = await daysAfter([event(outcome([OTHER], "worked"), 8), event(outcome([OTHER, PNPM], "partial"), 8), event(outcome([PNPM], "failed"), 8)])
        const madePrivate = await daysAfter([bob(revised(OTHER, { visibility: "private" }), 9)])
        const privateOutcome = await daysAfter([bob(outcome([OTHER], "failed"), 9)])
        const madeShared = await daysAfter([bob(revised(OTHER, { visibility: "shared" }), 10)])
        const all = [{ day: "2026-01-08", worked: 1, failed: 1, partial: 1 }]
        expect(shared).toEqual({ null: all, bob: all })
        expect(madePrivate).toEqual({ null: [{ day: "2026-01-08", worked: 0, failed: 1, partial: 0 }], bob: all })
        expect(privateOutcome).toEqual({ null: madePrivate.null, bob: [...all, { day: "2026-01-09", worked: 0, failed: 1, partial: 0 }] })
        expect(madeShared).toEqual({ null: privateOutcome.bob, bob: privateOutcome.bob })
        // The counts each write moved are those a fold of the whole log makes.
        const verified = await ports.run(ports.maintenance.verify(new Date(NOW).toISOString()))
        expect(verified.projections).toEqual({ ok: true, differences: [] })
      } finally {
        await ports.close()
      }
    })

    test("keyword candidates match in scope only: the project's and global live memories", async () => {
      const found = await given((r) => ({
        web: [...r.keywordCandidates(["deploy"], { project: "web" }, 10, DEFAULT_CONFIG, NOW).values()].map((c) => c.memory.id),
        api: [...r.keywordCandidates(["deploy"], { project: "api" }, 10, DEFAULT_CONFIG, NOW).values()].map((c) => c.memory.id),
        outside: r.keywordMatchesOutside("deploy", { project: "web" }).map((m) => m.id),
        neighbours: r.keywordNeighbours("deploy with make release", "web", 20).map((m) => m.id)
      }))
      expect(found.web).toEqual([DEPLOY])
      expect(found.api).toEqual([OTHER])
      expect(found.outside.sort()).toEqual([OTHER, OLD].sort())
      expect(found.neighbours).toEqual([DEPLOY])
    })

    test("the best keyword match holds every word of the query, though each word alone has hundreds of better matches", async () => {
      // 250 memories say one word three times, 250 the other; one says both once. Alone, each
      // of its words ranks it below all of the first ones; together it is the best match.
      const BOTH = memoryId(900)
      const events = [
        ...Array.from({ length: 250 }, (_, i) => event(added(memoryId(1000 + i), "kestrel kestrel kestrel"), 1)),
        ...Array.from({ length: 250 }, (_, i) => event(added(memoryId(2000 + i), "marmot marmot marmot"), 1)),
        event(added(BOTH, "kestrel marmot"), 2)
      ]
      const ports = await store.open()
      try {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(events))))
        const found = await ports.run(ports.reader.read((r) => [...r.keywordCandidates(["kestrel marmot"], { project: null }, 10, DEFAULT_CONFIG, NOW).values()]))
        const best = found.reduce((a, b) => (b.keyword > a.keyword ? b : a))
        expect(best.memory.id).toBe(BOTH)
      } finally {
        await ports.close()
      }
    })

    test("widened keyword candidates are those a search without a count finds, by text and by learned cue", async () => {
      // 30 memories match by their text, and 12 of them, in two projects, by a cue learned there.
      const id = (i: number) => memoryId(3000 + i)
      const project = (i: number) => (i % 3 === 0 ? null : i % 3 === 1 ? "web" : "api")
      const events = [
        ...Array.from({ length: 30 }, (_, i) =>
          event(added(id(i), `kestrel ${"nest ".repeat(1 + (i % 4))}note ${i}`, project(i) === null ? {} : { scope: "project", project: project(i)! }), 1)
        ),
        ...Array.from({ length: 12 }, (_, i) => [
          event({ ...recalled(`where does the kestrel ${i % 2 === 0 ? "nest" : "roost"} in spring`, [id(29)]), project: project(i) as never }, 2, `claude-code:session/k${i}`),
          event(outcome([id(i)], "worked"), 2, `claude-code:session/k${i}`)
        ]).flat()
      ]
      const ports = await store.open()
      try {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(events))))
        const signals = (c: Map<number, { memory: { id: string }; keyword: number }> & { floor: number }) => ({
          floor: c.floor,
          found: [...c.values()].map((x) => [x.memory.id, x.keyword])
        })
        const config = DEFAULT_CONFIG
        const compared = await ports.run(
          ports.reader.read((r) => {
            const phrasings = ["kestrel nest spring", "roost"]
            const few = r.keywordCandidates(phrasings, { project: "web" }, 10, config, NOW, 4)
            return { few: signals(few), widened: signals(few.widen()), whole: signals(r.keywordCandidates(phrasings, { project: "web" }, 10, config, NOW)) }
          })
        )
        expect(compared.few.found.length).toBeLessThan(compared.whole.found.length)
        expect(compared.few.floor).toBeGreaterThan(0)
        expect(compared.widened).toEqual(compared.whole)
        expect(compared.whole.floor).toBe(0)
      } finally {
        await ports.close()
      }
    })

    test("a worked outcome teaches the conversation's earlier recall as a learned cue of that memory", async () => {
      const cues = await given((r) => r.learnedCues([DEPLOY, PNPM]))
      expect(cues.get(DEPLOY)?.map((c) => [c.text, c.origin, c.project])).toEqual([["how do I ship the site", SESSION, "web"]])
      expect(cues.get(PNPM)).toBeUndefined()
    })

    test("what a context offers unasked: live memories of the project and global ones", async () => {
      const offered = await given((r) => [r.offeredUnasked("web").map((m) => m.id), r.offeredUnasked(null).map((m) => m.id)])
      expect(offered[0]!.sort()).toEqual([DEPLOY, PNPM].sort())
      expect(offered[1]).toEqual([])
    })

    test("readAt answers as the store was: later events are not there", async () => {
      const ports = await store.open()
      try {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(LOG))))
        const past = await ports.run(ports.reader.readAt(at(3), (r) => ({ old: r.memory(OLD)?.forgotten, head: r.head().seq, evidence: r.evidence(DEPLOY) })))
        expect(past).toEqual({ old: false, head: 4, evidence: undefined })
      } finally {
        await ports.close()
      }
    })

    test("readAt after the same reads of today: what a store keeps of a read it repeats does not leak today into the past", async () => {
      const ports = await store.open()
      try {
        await ports.run(ports.log.write((unit) => Either.right(unit.append(LOG))))
        const read = (r: LedgerReads) => ({ old: r.memory(OLD)?.forgotten, head: r.head().seq, evidence: r.evidence(DEPLOY) !== undefined })
        const today = await ports.run(ports.reader.read((r) => [read(r), read(r), read(r)]))
        const past = await ports.run(ports.reader.readAt(at(3), (r) => [read(r), read(r)]))
        const again = await ports.run(ports.reader.read(read))
        expect(today[2]).toEqual({ old: true, head: LOG.length, evidence: true })
        expect(past).toEqual([{ old: false, head: 4, evidence: false }, { old: false, head: 4, evidence: false }])
        expect(again).toEqual(today[2])
      } finally {
        await ports.close()
      }
    })
  })
}
