/**
 * Cue attribution, rule by rule: given a conversation's recalls and outcomes, which cues a
 * memory learns. Folded with `foldMemory`, the fold every projection path shares, and a window
 * read from the history exactly as the log reader reads it (the conversation's latest recalls
 * and outcomes before the outcome, newest first).
 */
import { describe, expect, it } from "vitest"
import { DEFAULT_CONFIG, type LedgerConfig } from "../../src/config.js"
import type { DomainEvent, StoredEvent } from "../../src/events/events.js"
import { CUE_LOOKBACK, cueWeightAt, recallWindow } from "../../src/projections/cue-state.js"
import { foldMemory } from "../../src/projections/projector.js"
import { memoryId } from "../support/ids.js"
import { BASE_TIME_MS, toStored, type Given } from "../support/stored.js"

const M = memoryId(1)
const OTHER = memoryId(2)
const SESSION = "claude-code:session/s1"
const APP = "github.com/acme/app"
const MINUTE = 60_000
const DAY = 86_400_000

const added = (project: string | null = APP): DomainEvent => ({
  _tag: "MemoryAdded",
  memoryId: M,
  content: "Handlers read the time from the Clock service, never Date.now()",
  category: "convention",
  scope: project === null ? "global" : "project",
  project,
  tags: [],
  source: "explicit",
  status: "confirmed",
  confidence: 0.9
})
const recall = (query: string, shown: ReturnType<typeof memoryId>[] = [], extra: { also?: string[]; project?: string | null } = {}): DomainEvent => ({
  _tag: "MemoriesRecalled",
  query,
  memoryIds: shown,
  project: APP,
  ...extra
})
const outcome = (o: "worked" | "failed" | "partial", ids = [M]): DomainEvent => ({ _tag: "OutcomeRecorded", memoryIds: [ids[0]!, ...ids.slice(1)], outcome: o })

/** Events at the given minutes after the base time, from `origin` unless the item says otherwise. */
type Step = readonly [minute: number, event: DomainEvent, origin?: string]
const history = (steps: ReadonlyArray<Step>): StoredEvent[] =>
  toStored(
    steps.map(([minute, event, origin]): Given => ({
      event,
      origin: origin ?? (event._tag === "MemoryAdded" ? "cli" : SESSION),
      recordedAt: new Date(BASE_TIME_MS + minute * MINUTE).toISOString()
    }))
  )

const cuesAfter = (steps: ReadonlyArray<Step>, config: LedgerConfig = DEFAULT_CONFIG) => {
  const events = history(steps)
  const windowOf = (o: StoredEvent) => {
    const earlier = events
      .filter((e) => e.origin === o.origin && e.seq < o.seq && (e.type === "MemoriesRecalled" || e.type === "OutcomeRecorded"))
      .reverse()
      .slice(0, CUE_LOOKBACK)
    return recallWindow(o, earlier, config)
  }
  const mine = events.filter((e) => e.event !== null && JSON.stringify(e.event).includes(M))
  return foldMemory(mine, M, new Set(), config, windowOf).cues?.cues ?? []
}
const texts = (steps: ReadonlyArray<Step>, config?: LedgerConfig) => cuesAfter(steps, config).map((c) => c.text).sort()

describe("a worked outcome teaches the recalls its conversation asked before it", () => {
  it("learns a missed query, with where it came from", () => {
    const cues = cuesAfter([[0, added()], [1, recall("where should handlers get the current time?")], [2, recall("clock service", [M])], [3, outcome("worked")]])
    expect(cues.map((c) => c.text)).toEqual(["where should handlers get the current time?"])
    expect(cues[0]).toMatchObject({ origin: SESSION, project: APP, weight: 1 })
  })

  it("does not learn a query that already showed the memory first", () => {
    expect(texts([[0, added()], [1, recall("clock service", [M, OTHER])], [2, outcome("worked")]])).toEqual([])
  })

  it("learns a query that showed the memory, but not first", () => {
    expect(texts([[0, added()], [1, recall("current time in handlers", [OTHER, M])], [2, outcome("worked")]])).toEqual(["current time in handlers"])
  })

  it("learns every phrasing of a recall", () => {
    expect(texts([[0, added()], [1, recall("what time is it", [], { also: ["now() in handlers"] })], [2, outcome("worked")]])).toEqual([
      "now() in handlers",
      "what time is it"
    ])
  })

  it("counts partial as a quarter", () => {
    expect(cuesAfter([[0, added()], [1, recall("time source")], [2, outcome("partial")]])[0]!.weight).toBe(0.25)
  })

  it("cuts a long prompt to its first 32 words", () => {
    const prompt = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ")
    expect(texts([[0, added()], [1, recall(prompt)], [2, outcome("worked")]])[0]!.split(" ")).toHaveLength(32)
  })
})

describe("the window", () => {
  it("starts after the conversation's previous outcome", () => {
    const steps: Step[] = [[0, added()], [1, recall("old question")], [2, outcome("worked", [OTHER])], [3, recall("new question")], [4, outcome("worked")]]
    expect(texts(steps)).toEqual(["new question"])
  })

  it("is shared by outcomes reported one after another", () => {
    const steps: Step[] = [[0, added()], [1, recall("the question")], [2, outcome("worked", [OTHER])], [3, outcome("worked")]]
    expect(texts(steps)).toEqual(["the question"])
  })

  it("holds at most the last 10 recalls", () => {
    const steps: Step[] = [[0, added()], ...Array.from({ length: 12 }, (_, i): Step => [1 + i, recall(`question number ${i}`)]), [20, outcome("worked")]]
    const learned = texts(steps, { ...DEFAULT_CONFIG, maxLearnedCues: 20 })
    expect(learned).toHaveLength(10)
    expect(learned).not.toContain("question number 0")
    expect(learned).not.toContain("question number 1")
  })

  it("leaves out recalls more than 2 hours before the outcome", () => {
    expect(texts([[0, added()], [1, recall("too early")], [100, recall("in time")], [130, outcome("worked")]])).toEqual(["in time"])
  })

  it("takes only the outcome's own conversation", () => {
    expect(texts([[0, added()], [1, recall("someone else asked", [], {}), "codex:thread/t9"], [2, recall("we asked")], [3, outcome("worked")]])).toEqual(["we asked"])
  })
})

describe("who teaches", () => {
  it.each(["cli", "mcp:cursor", "bench"])("an origin that is not a conversation (%s) teaches nothing", (origin) => {
    expect(texts([[0, added()], [1, recall("a question"), origin], [2, outcome("worked"), origin]])).toEqual([])
  })
})

describe("a failed outcome", () => {
  it("makes no cue", () => {
    expect(texts([[0, added()], [1, recall("a question")], [2, outcome("failed")]])).toEqual([])
  })

  it("weakens, and at 0 removes, the cue its window would have made", () => {
    const worked: Step[] = [[0, added()], [1, recall("a question")], [2, outcome("worked")]]
    const twice: Step[] = [...worked, [3, recall("a question")], [4, outcome("worked")], [5, recall("a question")], [6, outcome("failed")]]
    expect(cuesAfter(twice)[0]!.weight).toBeCloseTo(0.5, 3)
    expect(texts([...worked, [3, recall("a question")], [4, outcome("failed")]])).toEqual([])
  })
})

describe("decay and the cap", () => {
  it("halves a cue's weight every outcome half-life", () => {
    const [cue] = cuesAfter([[0, added()], [1, recall("a question")], [2, outcome("worked")]])
    expect(cueWeightAt(cue!, cue!.anchorMs + 90 * DAY, 90)).toBeCloseTo(0.5, 9)
  })

  it("keeps the 8 strongest, the newer on a tie", () => {
    const steps: Step[] = [[0, added()]]
    // The first question is taught three times, so it outlives ten newer ones taught once.
    for (let i = 0; i < 3; i++) steps.push([1 + 2 * i, recall("strong question")], [2 + 2 * i, outcome("worked")])
    for (let i = 0; i < 10; i++) steps.push([10 + 2 * i, recall(`weak question ${i}`)], [11 + 2 * i, outcome("worked")])
    const learned = texts(steps)
    expect(learned).toHaveLength(8)
    expect(learned).toContain("strong question")
    expect(learned).toContain("weak question 9")
    expect(learned).not.toContain("weak question 0")
  })

  it("weighs an old outcome decayed to the newest", () => {
    const cues = cuesAfter([[0, added()], [1, recall("q")], [2, outcome("worked")], [2 + 90 * 24 * 60, recall("q")], [3 + 90 * 24 * 60, outcome("worked")]])
    expect(cues[0]!.weight).toBeCloseTo(1.5, 4)
  })
})

describe("projects", () => {
  it("a global memory's cue applies in the project it was asked from", () => {
    expect(cuesAfter([[0, added(null)], [1, recall("a question", [], { project: "github.com/acme/other" })], [2, outcome("worked")]])[0]!.project).toBe(
      "github.com/acme/other"
    )
  })

  it("a project memory learns nothing from a recall asked in another project", () => {
    expect(texts([[0, added(APP)], [1, recall("a question", [], { project: "github.com/acme/other" })], [2, outcome("worked")]])).toEqual([])
  })
})

describe("a dropped cue", () => {
  it("is removed and never learned again", () => {
    const steps: Step[] = [
      [0, added()],
      [1, recall("wrong need")],
      [2, outcome("worked")],
      [3, { _tag: "CueDropped", memoryId: M, cue: "wrong need" }, "cli"],
      [4, recall("wrong need")],
      [5, outcome("worked")]
    ]
    expect(texts(steps)).toEqual([])
  })
})
