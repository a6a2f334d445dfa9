/**
 * The inputs and outputs of the operations the console page calls beyond the others: the
 * store's overview, a memory's record over time and the tasks the log names. Effect Schemas,
 * like inputs.ts and outputs.ts, so REST, the OpenAPI document and the SDK share them.
 */
import { Schema } from "effect"
import { RANGES, InputStruct } from "./inputs.js"
import { Memory, SearchMode } from "./memory-wire.js"
import { Conversation, LogEvent } from "./outputs.js"

const described = <A, I>(schema: Schema.Schema<A, I>, description: string): Schema.Schema<A, I> => schema.annotations({ description })

const NamedCount = Schema.Struct({ name: Schema.NullOr(Schema.String), memories: Schema.Number })

export const OverviewOutput = Schema.Struct({
  at: described(Schema.String, "when this was read (ISO-8601)"),
  events: Schema.Number,
  memories: Schema.Struct({
    live: Schema.Number,
    confirmed: Schema.Number,
    tentative: Schema.Number,
    forgotten: Schema.Number,
    superseded: Schema.Number
  }),
  byCategory: described(Schema.Array(NamedCount), "live memories per category, most first"),
  byProject: described(Schema.Array(NamedCount), "live memories per project (null: global), most first, the 12 largest"),
  outcomesByDay: described(
    Schema.Array(Schema.Struct({ day: Schema.String, worked: Schema.Number, failed: Schema.Number, partial: Schema.Number })),
    "outcome reports per UTC day over the last 30 days (days without one are left out), forgotten conversations' left out"
  ),
  gated: described(
    Schema.Struct({
      count: Schema.Number,
      memories: Schema.Array(
        Schema.Struct({ id: Schema.String, shortId: Schema.String, content: Schema.String, worked: Schema.Number, failed: Schema.Number, score: Schema.Number })
      )
    }),
    "live memories the failure gate holds back now, and the 10 lowest scored"
  ),
  conversations: described(Schema.Array(Conversation), "the 8 conversations heard from last"),
  search: Schema.Struct({ mode: SearchMode, embedder: Schema.String, vectorsCurrent: Schema.NullOr(Schema.Boolean) }),
  chain: described(
    Schema.Struct({
      head: Schema.NullOr(Schema.Struct({ seq: Schema.Number, hash: Schema.String })),
      broken: Schema.NullOr(Schema.Struct({ brokenAt: Schema.Number, reason: Schema.String, foundAt: Schema.String }))
    }),
    "the log's last event, and the break the last `verify` found (null: none found; writes are refused while there is one)"
  )
})
export type OverviewOutput = typeof OverviewOutput.Type

export const RecordPoint = Schema.Struct({
  at: Schema.String,
  worked: Schema.Number,
  failed: Schema.Number,
  score: Schema.Number,
  gated: Schema.Boolean
})

export const RecordOutput = Schema.Struct({
  memory: Memory,
  halfLifeDays: Schema.Number,
  failureWeight: Schema.Number,
  failureGate: described(Schema.Number, "an outcome score at or below this keeps the memory out of recall"),
  outcomes: described(
    Schema.Array(Schema.Struct({ event: LogEvent, counted: Schema.Boolean })),
    "the memory's outcome events, oldest first; `counted` is false for those of a forgotten conversation"
  ),
  points: described(Schema.Array(RecordPoint), "the decayed record at each outcome and at moments between, up to now")
})
export type RecordOutput = typeof RecordOutput.Type

export const TasksInput = InputStruct({
  before: Schema.optional(described(Schema.Int.pipe(Schema.positive()), "tasks named before this sequence number: the `next` of the page before")),
  limit: Schema.optional(described(Schema.Int.pipe(Schema.between(...RANGES.recallLimit)), "how many tasks, 1 to 100 (default 20)"))
})
export type TasksInput = typeof TasksInput.Type

export const LoggedTask = Schema.Struct({
  task: Schema.String,
  lastAt: Schema.String,
  recalls: Schema.Number,
  recalled: described(
    Schema.Array(Schema.Struct({ id: Schema.String, content: Schema.NullOr(Schema.String) })),
    "the memories recalls showed under it, each once (null content: no longer in the store's projection)"
  ),
  outcomes: Schema.Array(LogEvent)
})

/** A Beads issue or Claude Code todo found where the server runs, as `mem tasks` lists it. */
export const FoundTask = Schema.Struct({
  ref: Schema.String,
  title: Schema.String,
  status: Schema.String,
  source: Schema.String,
  updatedAt: Schema.String,
  linked: described(Schema.Number, "live memories recalled under it"),
  recorded: described(Schema.NullOr(Schema.String), "the outcome recorded for it, if any")
})

export const TasksOutput = Schema.Struct({
  tasks: described(Schema.Array(LoggedTask), "the tasks recalls and outcomes named, most recently named first"),
  next: described(Schema.NullOr(Schema.Number), "the `before` of the next page; null at the log's start"),
  found: Schema.optional(
    described(Schema.Array(FoundTask), "under `mem ui`: the Beads issues and Claude Code todos found in the folder it runs in, as `mem tasks` lists them")
  )
})
export type TasksOutput = typeof TasksOutput.Type

export const PurgeInput = InputStruct({
  yes: Schema.optional(described(Schema.Boolean, "really erase; without it, only say what would go (the CLI's `mem purge` without --yes)")),
  memories: Schema.optional(described(Schema.Boolean, "also erase the text of forgotten memories"))
})
export type PurgeInput = typeof PurgeInput.Type

export const PurgeOutput = Schema.Struct({
  done: described(Schema.Boolean, "false: nothing was erased, this is what would go"),
  conversations: described(Schema.Array(Schema.String), "the forgotten conversations whose events are (or would be) erased"),
  memories: described(Schema.Number, "forgotten memories whose text is (or would be) erased"),
  erasedEvents: Schema.optional(Schema.Number),
  heldBy: Schema.optional(
    described(
      Schema.Array(Schema.String),
      "PostgreSQL: sessions that could still see the erased text when the tables were vacuumed; it stays on disk until they end and a purge runs again"
    )
  ),
  copies: Schema.optional(
    described(
      Schema.Array(
        Schema.Struct({
          file: Schema.String,
          erasedEvents: Schema.optional(described(Schema.Number, "payloads erased in this copy (absent before --yes)")),
          problem: Schema.optional(described(Schema.String, "why the copy was left as it was: it may still hold forgotten text"))
        })
      ),
      "the backup copies the store manages (docs/backups.md), each purged of what the store erased"
    )
  )
})
export type PurgeOutput = typeof PurgeOutput.Type
