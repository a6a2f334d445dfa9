/**
 * Every event of the log (docs/architecture.md, "The log") as an Effect Schema. The `_tag` is the
 * event type; the rest is the payload. Schemas only ever gain optional fields, so old rows still
 * decode; anything older than that goes through `upcast.ts`.
 */
import { Schema } from "effect"
import { MemoryId } from "../domain/ids.js"
import {
  Agent,
  Category,
  Confidence,
  Content,
  Origin,
  Outcome,
  PersonName,
  ProjectName,
  Scope,
  Source,
  Status,
  Tag
} from "../domain/vocabulary.js"
import { ContentFlag, SecretKind } from "../privacy/vocabulary.js"
import { Capture } from "./capture.js"

const Tags = Schema.Array(Tag)
/**
 * A cue: a short question or phrasing a memory answers, written with it (`cues` of an add or a
 * revision) or learned from the log (cue-state.ts). At most 32 words; the decider checks that.
 */
export const Cue = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(400))
export const MAX_WRITTEN_CUES = 5
const Cues = Schema.Array(Cue).pipe(Schema.maxItems(MAX_WRITTEN_CUES))
const IsoTime = Schema.String.pipe(Schema.pattern(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/))

/**
 * What the privacy scan did to the text of this event (src/privacy): the kind of each secret
 * it replaced, how many `<private>` spans it dropped, and its flags. Absent when it did
 * nothing, and in every event written before the scan existed.
 */
const scanFields = {
  redacted: Schema.optional(Schema.Array(SecretKind)),
  privateDropped: Schema.optional(Schema.Int.pipe(Schema.positive())),
  flags: Schema.optional(Schema.Array(ContentFlag))
}

export const MemoryAdded = Schema.TaggedStruct("MemoryAdded", {
  memoryId: MemoryId,
  content: Content,
  category: Category,
  scope: Scope,
  project: Schema.NullOr(ProjectName),
  tags: Tags,
  source: Source,
  status: Status,
  confidence: Confidence,
  /** When the knowledge was first written down, if earlier than this event (imports). */
  createdAt: Schema.optional(IsoTime),
  /** Questions or phrasings the memory answers, written with it; scanned like the content. */
  cues: Schema.optional(Cues),
  ...scanFields,
  /** Set when capture wrote it (docs/capture.md): the span it came from. */
  capture: Schema.optional(Capture),
  /**
   * `private`: seen only through tokens of the event's author (its envelope's `author`), until
   * the author shares it. Absent: shared, as every memory written before visibility existed.
   */
  visibility: Schema.optional(Schema.Literal("private"))
})

export const MemoryRevised = Schema.TaggedStruct("MemoryRevised", {
  memoryId: MemoryId,
  content: Schema.optional(Content),
  category: Schema.optional(Category),
  tags: Schema.optional(Tags),
  scope: Schema.optional(Scope),
  project: Schema.optional(Schema.NullOr(ProjectName)),
  /** The written cues, replaced as a whole. */
  cues: Schema.optional(Cues),
  // The scan fields come only with `content`: they describe the new text.
  ...scanFields,
  /** `shared`: a private memory is seen by everyone from now on; `private`: only by this event's author. */
  visibility: Schema.optional(Schema.Literal("private", "shared"))
})

/** `capture`: set when a captured restatement confirmed the memory, so the same span never confirms it twice. */
export const MemoryConfirmed = Schema.TaggedStruct("MemoryConfirmed", { memoryId: MemoryId, capture: Schema.optional(Capture) })

export const MemorySuperseded = Schema.TaggedStruct("MemorySuperseded", { memoryId: MemoryId, by: MemoryId })

export const MemoriesMarkedDistinct = Schema.TaggedStruct("MemoriesMarkedDistinct", {
  memoryId: MemoryId,
  from: MemoryId
})

export const OutcomeRecorded = Schema.TaggedStruct("OutcomeRecorded", {
  memoryIds: Schema.NonEmptyArray(MemoryId),
  outcome: Outcome,
  task: Schema.optional(Schema.String),
  note: Schema.optional(Schema.String)
})

export const MemoriesRecalled = Schema.TaggedStruct("MemoriesRecalled", {
  query: Schema.String,
  memoryIds: Schema.Array(MemoryId),
  task: Schema.optional(Schema.String),
  /** Further phrasings of the same need, searched together with `query`. */
  also: Schema.optional(Schema.Array(Schema.String)),
  /** The project searched from (null: global only); a cue learned from this recall applies there. */
  project: Schema.optional(Schema.NullOr(ProjectName))
})

/** A person says a learned cue is wrong for this memory: it is dropped and not learned again. */
export const CueDropped = Schema.TaggedStruct("CueDropped", { memoryId: MemoryId, cue: Cue })

export const MemoryForgotten = Schema.TaggedStruct("MemoryForgotten", { memoryId: MemoryId, reason: Schema.String })
export const MemoryRestored = Schema.TaggedStruct("MemoryRestored", { memoryId: MemoryId, reason: Schema.String })

export const ConversationForgotten = Schema.TaggedStruct("ConversationForgotten", { origin: Origin })
export const ConversationRestored = Schema.TaggedStruct("ConversationRestored", { origin: Origin })

export const DomainEvent = Schema.Union(
  MemoryAdded,
  MemoryRevised,
  MemoryConfirmed,
  MemorySuperseded,
  MemoriesMarkedDistinct,
  OutcomeRecorded,
  MemoriesRecalled,
  MemoryForgotten,
  MemoryRestored,
  CueDropped,
  ConversationForgotten,
  ConversationRestored
)
export type DomainEvent = typeof DomainEvent.Type
export type EventType = DomainEvent["_tag"]
export type EventOf<T extends EventType> = Extract<DomainEvent, { _tag: T }>

export const EVENT_SCHEMAS = {
  MemoryAdded,
  MemoryRevised,
  MemoryConfirmed,
  MemorySuperseded,
  MemoriesMarkedDistinct,
  OutcomeRecorded,
  MemoriesRecalled,
  MemoryForgotten,
  MemoryRestored,
  CueDropped,
  ConversationForgotten,
  ConversationRestored
} as const satisfies { [T in EventType]: Schema.Schema<EventOf<T>, any> }

export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as ReadonlyArray<EventType>

/** The current schema version of each payload; older rows are upcast on read. */
export const CURRENT_VERSION = 1

/**
 * The envelope every stored event carries beside its payload. `author` is the person whose
 * token wrote it (a `mem serve` token's name); absent for every event written without one,
 * which is every event of a log older than tokens, so their hashes stay what they were
 * (codec.ts `chainHash` hashes it only when present).
 */
export const Envelope = Schema.Struct({
  seq: Schema.Number,
  id: Schema.String,
  type: Schema.String,
  version: Schema.Number,
  recordedAt: IsoTime,
  origin: Origin,
  agent: Agent,
  author: Schema.optional(PersonName)
})

export interface StoredEvent<E extends DomainEvent = DomainEvent> {
  readonly seq: number
  readonly id: string
  readonly version: number
  readonly recordedAt: string
  readonly origin: string
  readonly agent: string
  /** The person whose token wrote it; absent when none did (envelope above). */
  readonly author?: string
  /** `null` once purged: the envelope and payload hash stay, the content is gone. */
  readonly event: E | null
  readonly type: E["_tag"]
  readonly payloadHash: string
  readonly hash: string
}

/** The memory ids an event concerns: what `read by memory` and per-memory refolds use. */
export const memoryIdsOf = (event: DomainEvent): ReadonlyArray<MemoryId> => {
  switch (event._tag) {
    case "OutcomeRecorded":
    case "MemoriesRecalled":
      return event.memoryIds
    case "MemorySuperseded":
      return [event.memoryId, event.by]
    case "MemoriesMarkedDistinct":
      return [event.memoryId, event.from]
    case "ConversationForgotten":
    case "ConversationRestored":
      return []
    default:
      return [event.memoryId]
  }
}

/** Conversation events steer which origins count; they are never hidden themselves. */
export const isConversationControl = (event: DomainEvent): event is EventOf<"ConversationForgotten" | "ConversationRestored"> =>
  event._tag === "ConversationForgotten" || event._tag === "ConversationRestored"
