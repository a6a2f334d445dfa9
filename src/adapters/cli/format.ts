/** Human-readable renderings of the wire types; --json output never passes through here. */
import type { Coverage, Memory, MemoryRecord, VectorCue } from "../../api/memory-wire.js"
import type { Conversation, Cue as CueSchema, LearnedCue as LearnedCueSchema, LogEvent, PrivacyNotice } from "../../api/outputs.js"

type LogEventJson = typeof LogEvent.Type
type ConversationJson = typeof Conversation.Type
type Cue = typeof CueSchema.Type
type LearnedCue = typeof LearnedCueSchema.Type

export const memoryLine = (m: Memory): string => {
  const flags = [m.forgotten ? "forgotten" : "", m.supersededBy ? `superseded by ${m.supersededBy.slice(0, 8)}` : "", m.status === "tentative" ? "tentative" : "", m.instructionLike ? "instruction-like" : ""]
    .filter(Boolean)
    .join(", ")
  return `${m.shortId}  [${m.category}] ${oneLine(m.content, 100)}${flags ? `  (${flags})` : ""}`
}

/**
 * `short`: the short form of an id this memory links to (short-ids.ts); the memory's own id is
 * shown in full. `cues`: its written and learned cues, when the caller read them.
 */
export const memoryDetail = (m: Memory, short: (id: string) => string = (id) => id, cues: ReadonlyArray<Cue> = []): string => {
  const r = m.record
  const learned = cues.filter((c): c is LearnedCue => c.source === "learned")
  return [
    `id:            ${m.id}`,
    `content:       ${m.content}`,
    `category:      ${m.category}`,
    `scope:         ${m.scope}${m.project ? ` (${m.project})` : ""}`,
    `tags:          ${m.tags.join(", ") || "-"}`,
    `cues:          ${m.cues.map(quote).join(", ") || "-"}`,
    ...learned.map((c, i) => `${i === 0 ? "learned cues: " : "              "} ${quote(c.text)} (${learnedFrom(c)})`),
    `status:        ${m.status}, ${m.confirmations} confirmation${m.confirmations === 1 ? "" : "s"}, confidence ${m.confidence}`,
    `source:        ${m.source} from ${m.origin} (${m.agent})`,
    `created:       ${m.createdAt}`,
    `updated:       ${m.updatedAt}`,
    `outcomes:      ${hasOutcomes(r) ? `${r.workedCount} worked, ${r.failedCount} failed, ${r.partialCount} partial (score ${r.score.toFixed(3)}${r.gated ? ", held back by the failure gate" : ""})` : "none"}`,
    ...(m.supersededBy ? [`superseded by: ${short(m.supersededBy)}`] : []),
    ...(m.forgotten ? [`forgotten:     yes${m.forgottenReason ? ` (${m.forgottenReason})` : ""}`] : []),
    ...(m.distinctFrom.length ? [`distinct from: ${m.distinctFrom.map(short).join(", ")}`] : []),
    ...(m.instructionLike ? ["flagged:       reads like instructions to an agent; never used as a rule"] : [])
  ].join("\n")
}

/** What the privacy scan did to the text just written, for stderr; undefined when nothing. */
export const privacyNotice = (notice: PrivacyNotice | undefined): string | undefined => {
  if (notice === undefined) return undefined
  const parts = [
    ...(notice.redacted.length > 0 ? [`redacted ${notice.redacted.length} secret${notice.redacted.length === 1 ? "" : "s"} (${[...new Set(notice.redacted)].join(", ")})`] : []),
    ...(notice.privateDropped > 0 ? [`dropped ${notice.privateDropped} <private> span${notice.privateDropped === 1 ? "" : "s"}`] : []),
    ...(notice.instructionLike.length > 0 ? [`flagged as instructions to an agent (${notice.instructionLike.join("; ")}): never used as a rule`] : [])
  ]
  return parts.length > 0 ? parts.join("; ") : undefined
}

/** A memory's cues, one a line: where each came from, and for a learned one what taught it. */
export const cueLines = (cues: ReadonlyArray<Cue>): string[] =>
  cues.map((c) => (c.source === "written" ? `written  ${quote(c.text)}` : `learned  ${quote(c.text)}\n         ${learnedFrom(c)}`))

/** Where a learned cue applies, its weight now, and the conversation and events that taught it. */
const learnedFrom = (c: LearnedCue): string =>
  `weight ${c.weight.toFixed(2)} now, in ${c.project ?? "global"}; learned ${c.learnedAt} from conversation ${c.origin}, outcome event ${c.outcomeEventId}`

/** How much of the query a result answers and through what: `answers 82% via learned cue "..."`. */
export const coverageSummary = (c: Coverage, query: string): string => {
  const phrasing = c.phrasing === query ? "" : ` of ${quote(c.phrasing)}`
  const via = c.source === "content" || c.cue === undefined ? "" : ` via ${c.source} ${quote(c.cue)}`
  return `answers ${Math.round(c.value * 100)}%${phrasing}${via}`
}

/** `why`'s account of a coverage: the phrasing, the text that held its words, and for a learned cue what taught it. */
export const coverageDetail = (c: Coverage): string[] => {
  const text = c.source === "content" || c.cue === undefined ? "its content" : `${c.source} ${quote(c.cue)}`
  return [
    `   coverage   ${c.value.toFixed(3)} of ${quote(c.phrasing)}, in ${text}`,
    ...(c.learned === undefined
      ? []
      : [`      learned from conversation ${c.learned.origin}: outcome event ${c.learned.outcomeEventId}, after recall event ${c.learned.recallEventId}`])
  ]
}

/** `why`'s account of a cosine a learned cue gave: the cue, its cosine and weight, and what taught it. */
export const vectorCueLines = (c: typeof VectorCue.Type): string[] => [
  `      vector via learned cue ${quote(c.text)}: cosine ${c.cosine.toFixed(3)} x weight ${c.weight.toFixed(2)}`,
  `      learned from conversation ${c.origin}: outcome event ${c.outcomeEventId}, after recall event ${c.recallEventId}`
]

export const hasOutcomes = (r: MemoryRecord): boolean => r.workedCount + r.failedCount + r.partialCount > 0

export const eventLine = (e: LogEventJson): string => {
  const summary = e.payload === null ? "(payload purged)" : summarise(e.type, e.payload)
  return `#${e.seq}  ${e.recordedAt}  ${e.type.padEnd(22)} ${e.origin}  ${summary}`
}

/** One line about an event, from its payload as exported (the event's fields without `_tag`). */
const summarise = (type: string, payload: Readonly<Record<string, unknown>>): string => {
  const text = (key: string) => (typeof payload[key] === "string" ? (payload[key] as string) : "")
  const id = (key: string) => text(key).slice(0, 8)
  const ids = (key: string) => (Array.isArray(payload[key]) ? (payload[key] as unknown[]).map((x) => String(x).slice(0, 8)) : [])
  switch (type) {
    case "MemoryAdded":
      return `${id("memoryId")} [${text("category")}] ${oneLine(text("content"), 60)}`
    case "MemoryRevised":
      return `${id("memoryId")} ${Object.keys(payload).filter((k) => k !== "memoryId").join(", ")}`
    case "MemorySuperseded":
      return `${id("memoryId")} by ${id("by")}`
    case "MemoriesMarkedDistinct":
      return `${id("memoryId")} from ${id("from")}`
    case "OutcomeRecorded":
      return `${text("outcome")} for ${ids("memoryIds").join(", ")}${text("task") ? ` (task ${text("task")})` : ""}`
    case "MemoriesRecalled": {
      const also = Array.isArray(payload["also"]) ? payload["also"].length : 0
      return `"${oneLine(text("query"), 40)}"${also > 0 ? ` (and ${also} more phrasing${also === 1 ? "" : "s"})` : ""} showed ${ids("memoryIds").length}`
    }
    case "MemoryForgotten":
    case "MemoryRestored":
      return `${id("memoryId")}${text("reason") ? ` (${text("reason")})` : ""}`
    case "MemoryConfirmed":
      return id("memoryId")
    case "CueDropped":
      return `${id("memoryId")} learned cue "${oneLine(text("cue"), 60)}"`
    case "ConversationForgotten":
    case "ConversationRestored":
      return text("origin")
    default:
      return ""
  }
}

export const conversationLine = (c: ConversationJson): string =>
  `${c.origin}  ${count(c.events, "event")}, ${count(c.memoriesAdded, "memory", "memories")}, ${count(c.outcomes, "outcome")}, last ${c.lastAt}${c.forgotten ? "  (forgotten)" : ""}${c.purgedEvents ? ` (${c.purgedEvents} purged)` : ""}`

/** `n thing` or `n things`, as English reads a count. */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

export const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** JSON quoting: a cue or a phrasing reads as the text it is, spaces and quotes included. */
const quote = (text: string): string => JSON.stringify(text)
