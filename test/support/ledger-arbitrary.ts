/**
 * fast-check arbitraries for what agents do to a store: valid command sequences over a few
 * memory ids and several conversations, turned into NewEvents and appended in batches of
 * random size through LedgerStore.write, as several processes and imports would.
 *
 * Valid means: every event passes its schema, and every event about a memory comes after
 * that memory's MemoryAdded (a step about a memory not yet added adds it instead). Timestamps
 * mostly move forward but sometimes jump back, as imports and skewed clocks make them.
 */
import { Either } from "effect"
import * as fc from "fast-check"
import type { MemoryId } from "../../src/domain/ids.js"
import { CATEGORIES, OUTCOMES, SOURCES, type Category } from "../../src/domain/vocabulary.js"
import type { DomainEvent } from "../../src/events/events.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { eventId, memoryId } from "./ids.js"
import { BASE_TIME_MS } from "./stored.js"
import { type NewEvent } from "../../src/events/log.js"

export const ORIGINS = ["cli", "claude-code:session/a", "codex:thread/b", "mcp:cursor"] as const
export const SLOTS = 4
const WORDS = ["run", "running", "tests", "vitest", "use", "pnpm", "deploy", "tabs", "spaces", "node", "cache", "Cache"]
const TAGS = ["js", "go", "ci", "db"]

const slotId = (slot: number): MemoryId => memoryId(slot + 1)

const slot = fc.nat({ max: SLOTS - 1 })
const origin = fc.constantFrom(...ORIGINS)
const content = fc
  .tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }), fc.constantFrom("", ".", "!", " "))
  .map(([words, end]) => words.join(" ") + end)
const tags = fc.subarray(TAGS)
/** Recall phrasings: few enough that the same cue is taught, weakened and dropped again. */
const phrasing = fc.constantFrom("how to deploy", "Run the tests?", "which cache", "tabs or spaces", "node version")
const PROJECT = "github.com/acme/app"
const OTHER_PROJECT = "github.com/acme/other"
const category = fc.constantFrom<Category>(...CATEGORIES.slice(0, 3))

type AddStep = {
  readonly kind: "add"
  readonly slot: number
  readonly content: string
  readonly category: Category
  readonly project: boolean
  readonly tags: string[]
  readonly source: (typeof SOURCES)[number]
  readonly confidence: number
  readonly cues?: string[]
  /** The privacy scan found the text instruction-like. */
  readonly flagged: boolean
  /** Added as private through a person's token. */
  readonly private?: boolean
}

export type Step =
  | AddStep
  | {
      readonly kind: "revise"
      readonly slot: number
      readonly content?: string
      readonly category?: Category
      readonly tags?: string[]
      readonly flagged?: boolean
      /** Made private to, or shared by, the person whose token edits it. */
      readonly visibility?: "private" | "shared"
    }
  | { readonly kind: "confirm" | "forget" | "restore"; readonly slot: number }
  | { readonly kind: "supersede" | "distinct"; readonly slot: number; readonly other: number }
  | { readonly kind: "outcome"; readonly slots: number[]; readonly outcome: (typeof OUTCOMES)[number] }
  | { readonly kind: "recall"; readonly slots: number[]; readonly query: string; readonly also?: string[]; readonly project?: string | null }
  | { readonly kind: "dropCue"; readonly slot: number; readonly cue: string }
  /** A conversation asks, then reports an outcome a minute later: what teaches cues. */
  | { readonly kind: "askThenReport"; readonly slot: number; readonly query: string; readonly shownFirst: boolean; readonly outcome: (typeof OUTCOMES)[number]; readonly project: string | null }
  | { readonly kind: "forgetConversation" | "restoreConversation"; readonly target: (typeof ORIGINS)[number] }

const kind = <K extends Step["kind"]>(...kinds: K[]) => fc.constantFrom(...kinds)
const slots = (minLength: number) => fc.uniqueArray(slot, { minLength, maxLength: 3 })

const addStep: fc.Arbitrary<AddStep> = fc.record({
  kind: kind("add"),
  slot,
  content,
  category,
  project: fc.boolean(),
  tags,
  source: fc.constantFrom(...SOURCES),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  cues: fc.array(phrasing, { maxLength: 2 }),
  flagged: fc.boolean()
}, { requiredKeys: ["kind", "slot", "content", "category", "project", "tags", "source", "confidence", "flagged"] })

/** Adds and edits through people's tokens that make a memory private, or share it again. */
const privacySteps: fc.Arbitrary<Step> = fc.oneof(
  addStep.map((step): Step => ({ ...step, private: true })),
  fc.record({ kind: kind("revise"), slot, visibility: fc.constantFrom("private" as const, "shared" as const) })
)

const stepBody: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: addStep },
  { weight: 2, arbitrary: fc.record({ kind: kind("revise"), slot, content, category, tags, flagged: fc.boolean() }, { requiredKeys: ["kind", "slot"] }) },
  { weight: 2, arbitrary: fc.record({ kind: kind("confirm", "forget", "restore"), slot }) },
  { weight: 1, arbitrary: fc.record({ kind: kind("supersede", "distinct"), slot, other: slot }) },
  { weight: 4, arbitrary: fc.record({ kind: kind("outcome"), slots: slots(1), outcome: fc.constantFrom(...OUTCOMES) }) },
  {
    weight: 3,
    arbitrary: fc.record(
      { kind: kind("recall"), slots: slots(0), query: phrasing, also: fc.array(phrasing, { maxLength: 2 }), project: fc.constantFrom(null, PROJECT, OTHER_PROJECT) },
      { requiredKeys: ["kind", "slots", "query"] }
    )
  },
  { weight: 1, arbitrary: fc.record({ kind: kind("dropCue"), slot, cue: phrasing }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: kind("askThenReport"),
      slot,
      query: phrasing,
      shownFirst: fc.boolean(),
      outcome: fc.constantFrom(...OUTCOMES),
      project: fc.constantFrom(null, PROJECT, OTHER_PROJECT)
    })
  },
  { weight: 2, arbitrary: fc.record({ kind: kind("forgetConversation", "restoreConversation"), target: origin }) }
)

/** Minutes since the previous event: mostly forward, sometimes weeks, sometimes back in time. */
const minutes = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 600 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 60 * 24 * 120 }) },
  { weight: 1, arbitrary: fc.integer({ min: -60 * 24 * 60, max: -1 }) }
)

export interface TimedStep {
  readonly step: Step
  readonly origin: (typeof ORIGINS)[number]
  readonly minutes: number
}

export interface Scenario {
  readonly steps: ReadonlyArray<TimedStep>
  /** Batch sizes, used in turn: how many events each `append` call carries. */
  readonly batches: ReadonlyArray<number>
  /** Used in turn: how many `append` calls each write transaction makes (a bulk import makes many). */
  readonly appendsPerWrite: ReadonlyArray<number>
}

/** `privacy`: some steps make memories private to a person, or share them again (a team server's log). */
export const scenarioArb = (maxSteps = 30, options: { readonly privacy?: boolean } = {}): fc.Arbitrary<Scenario> =>
  fc.record({
    steps: fc.array(
      fc.record({ step: options.privacy === true ? fc.oneof({ weight: 8, arbitrary: stepBody }, { weight: 1, arbitrary: privacySteps }) : stepBody, origin, minutes }),
      { maxLength: maxSteps }
    ),
    batches: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }),
    appendsPerWrite: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 })
  })

/** The events a scenario's steps record, in order. */
export const eventsOf = (steps: ReadonlyArray<TimedStep>): NewEvent[] => {
  const addedSlots = new Set<number>()
  const events: NewEvent[] = []
  let time = BASE_TIME_MS
  const emit = (s: TimedStep, event: DomainEvent, author?: string) => {
    time += s.minutes * 60_000
    events.push({
      id: eventId(events.length + 1),
      recordedAt: new Date(time).toISOString(),
      origin: s.origin,
      agent: "test",
      event,
      ...(author === undefined ? {} : { author })
    })
  }
  const ensure = (s: TimedStep, slots: ReadonlyArray<number>) => {
    for (const n of slots) {
      if (addedSlots.has(n)) continue
      addedSlots.add(n)
      emit(s, addEvent({ kind: "add", slot: n, content: `memory ${n}`, category: "general", project: false, tags: [], source: "explicit", confidence: 0.9, flagged: false }))
    }
  }
  for (const s of steps) {
    const step = s.step
    switch (step.kind) {
      case "add":
        if (addedSlots.has(step.slot)) {
          emit(s, { _tag: "MemoryConfirmed", memoryId: slotId(step.slot) })
        } else {
          addedSlots.add(step.slot)
          emit(s, addEvent(step), step.private === true ? "bob" : undefined)
        }
        break
      case "revise":
        ensure(s, [step.slot])
        emit(s, {
          _tag: "MemoryRevised",
          memoryId: slotId(step.slot),
          ...(step.content === undefined ? {} : { content: step.content, ...(step.flagged ? { flags: ["instruction-like" as const] } : {}) }),
          ...(step.category === undefined ? {} : { category: step.category }),
          ...(step.tags === undefined ? {} : { tags: step.tags }),
          ...(step.visibility === undefined ? {} : { visibility: step.visibility })
        }, step.visibility === undefined ? undefined : "alice")
        break
      case "confirm":
        ensure(s, [step.slot])
        emit(s, { _tag: "MemoryConfirmed", memoryId: slotId(step.slot) })
        break
      case "forget":
      case "restore":
        ensure(s, [step.slot])
        emit(s, { _tag: step.kind === "forget" ? "MemoryForgotten" : "MemoryRestored", memoryId: slotId(step.slot), reason: step.kind })
        break
      case "supersede":
      case "distinct":
        if (step.slot === step.other) break
        ensure(s, [step.slot, step.other])
        emit(
          s,
          step.kind === "supersede"
            ? { _tag: "MemorySuperseded", memoryId: slotId(step.slot), by: slotId(step.other) }
            : { _tag: "MemoriesMarkedDistinct", memoryId: slotId(step.slot), from: slotId(step.other) }
        )
        break
      case "outcome": {
        ensure(s, step.slots)
        const [first, ...rest] = step.slots.map(slotId)
        emit(s, { _tag: "OutcomeRecorded", memoryIds: [first!, ...rest], outcome: step.outcome })
        break
      }
      case "recall":
        ensure(s, step.slots)
        emit(s, {
          _tag: "MemoriesRecalled",
          query: step.query,
          memoryIds: step.slots.map(slotId),
          ...(step.also === undefined ? {} : { also: step.also }),
          ...(step.project === undefined ? {} : { project: step.project })
        })
        break
      case "askThenReport":
        ensure(s, [step.slot])
        emit(s, { _tag: "MemoriesRecalled", query: step.query, memoryIds: step.shownFirst ? [slotId(step.slot)] : [], project: step.project })
        emit({ ...s, minutes: 1 }, { _tag: "OutcomeRecorded", memoryIds: [slotId(step.slot)], outcome: step.outcome })
        break
      case "dropCue":
        ensure(s, [step.slot])
        emit(s, { _tag: "CueDropped", memoryId: slotId(step.slot), cue: step.cue })
        break
      case "forgetConversation":
      case "restoreConversation":
        emit(s, { _tag: step.kind === "forgetConversation" ? "ConversationForgotten" : "ConversationRestored", origin: step.target })
        break
    }
  }
  return events
}

const addEvent = (step: AddStep): DomainEvent => ({
  _tag: "MemoryAdded",
  memoryId: slotId(step.slot),
  content: step.content,
  category: step.category,
  scope: step.project ? "project" : "global",
  project: step.project ? PROJECT : null,
  tags: step.tags,
  ...(step.cues === undefined ? {} : { cues: step.cues }),
  source: step.source,
  status: step.source === "observed" || step.flagged ? "tentative" : "confirmed",
  confidence: step.confidence,
  ...(step.flagged ? { flags: ["instruction-like" as const] } : {}),
  ...(step.private === true ? { visibility: "private" as const } : {})
})

/** Splits events into write transactions of the given sizes, used in turn. */
export const inBatches = <A>(events: ReadonlyArray<A>, sizes: ReadonlyArray<number>): A[][] => {
  const batches: A[][] = []
  for (let i = 0, b = 0; i < events.length; b++) {
    const size = sizes[b % sizes.length] ?? 1
    batches.push(events.slice(i, i + size))
    i += size
  }
  return batches
}

/**
 * Appends the batches through LedgerStore.write: each in its own write transaction, as the
 * services do, or `appendsPerWrite` of them per transaction, as an import does.
 */
export const appendAll = (
  store: LedgerStore,
  batches: ReadonlyArray<ReadonlyArray<NewEvent>>,
  appendsPerWrite: ReadonlyArray<number> = [1]
): void => {
  for (const write of inBatches(batches, appendsPerWrite)) {
    const written = store.write((tx) => Either.right(write.map((batch) => tx.append(batch))))
    if (Either.isLeft(written)) throw new Error("append refused")
  }
}

/** Appends a scenario's events as it says: batch sizes and appends per write transaction. */
export const appendScenario = (store: LedgerStore, scenario: Scenario, events: ReadonlyArray<NewEvent> = eventsOf(scenario.steps)): void =>
  appendAll(store, inBatches(events, scenario.batches), scenario.appendsPerWrite)

/** Which conversations are forgotten once all these events are applied. */
export const forgottenAtEnd = (events: ReadonlyArray<NewEvent>): Set<string> => {
  const hidden = new Set<string>()
  for (const { event } of events) {
    if (event._tag === "ConversationForgotten") hidden.add(event.origin)
    if (event._tag === "ConversationRestored") hidden.delete(event.origin)
  }
  return hidden
}

/** A person's forget or restore of a conversation, with an id after any scenario's. */
export const conversationSwitch = (tag: "ConversationForgotten" | "ConversationRestored", origin: string, n: number): NewEvent => ({
  id: eventId(10_000 + n),
  recordedAt: "2030-01-01T00:00:00.000Z",
  origin: "cli",
  agent: "test",
  event: { _tag: tag, origin }
})
