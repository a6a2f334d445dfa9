/** Human-readable renderings; --json output never passes through here. */
import type { PrivacyNotice } from "../../commands/scanned-content.js"
import type { StoredEvent } from "../../events/events.js"
import type { ConversationState } from "../../projections/conversation-state.js"
import type { MemoryView } from "../../services/queries.js"

export const memoryLine = (v: MemoryView): string => {
  const m = v.memory
  const flags = [m.forgotten ? "forgotten" : "", m.supersededBy ? `superseded by ${m.supersededBy.slice(0, 8)}` : "", m.status === "tentative" ? "tentative" : "", m.instructionLike ? "instruction-like" : ""]
    .filter(Boolean)
    .join(", ")
  return `${v.shortId}  [${m.category}] ${oneLine(m.content, 100)}${flags ? `  (${flags})` : ""}`
}

export const memoryDetail = (v: MemoryView): string => {
  const m = v.memory
  const e = v.evidence
  return [
    `id:            ${m.id}`,
    `content:       ${m.content}`,
    `category:      ${m.category}`,
    `scope:         ${m.scope}${m.project ? ` (${m.project})` : ""}`,
    `tags:          ${m.tags.join(", ") || "-"}`,
    `status:        ${m.status}, ${m.confirmations} confirmation${m.confirmations === 1 ? "" : "s"}, confidence ${m.confidence}`,
    `source:        ${m.source} from ${m.origin} (${m.agent})`,
    `created:       ${m.createdAt}`,
    `updated:       ${m.updatedAt}`,
    `outcomes:      ${e ? `${e.workedCount} worked, ${e.failedCount} failed, ${e.partialCount} partial` : "none"}`,
    ...(m.supersededBy ? [`superseded by: ${m.supersededBy}`] : []),
    ...(m.forgotten ? [`forgotten:     yes${m.forgottenReason ? ` (${m.forgottenReason})` : ""}`] : []),
    ...(m.distinctFrom.length ? [`distinct from: ${m.distinctFrom.join(", ")}`] : []),
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

export const eventLine = (e: StoredEvent): string => {
  const summary = e.event === null ? "(payload purged)" : summarise(e)
  return `#${e.seq}  ${e.recordedAt}  ${e.type.padEnd(22)} ${e.origin}  ${summary}`
}

const summarise = (e: StoredEvent): string => {
  const ev = e.event!
  switch (ev._tag) {
    case "MemoryAdded":
      return `${ev.memoryId.slice(0, 8)} [${ev.category}] ${oneLine(ev.content, 60)}`
    case "MemoryRevised":
      return `${ev.memoryId.slice(0, 8)} ${Object.keys(ev).filter((k) => k !== "_tag" && k !== "memoryId").join(", ")}`
    case "MemorySuperseded":
      return `${ev.memoryId.slice(0, 8)} by ${ev.by.slice(0, 8)}`
    case "MemoriesMarkedDistinct":
      return `${ev.memoryId.slice(0, 8)} from ${ev.from.slice(0, 8)}`
    case "OutcomeRecorded":
      return `${ev.outcome} for ${ev.memoryIds.map((id) => id.slice(0, 8)).join(", ")}${ev.task ? ` (task ${ev.task})` : ""}`
    case "MemoriesRecalled":
      return `"${oneLine(ev.query, 40)}" showed ${ev.memoryIds.length}`
    case "MemoryForgotten":
    case "MemoryRestored":
      return `${ev.memoryId.slice(0, 8)}${ev.reason ? ` (${ev.reason})` : ""}`
    case "MemoryConfirmed":
      return ev.memoryId.slice(0, 8)
    case "ConversationForgotten":
    case "ConversationRestored":
      return ev.origin
  }
}

export const conversationLine = (c: ConversationState): string =>
  `${c.origin}  ${c.events} events, ${c.memoriesAdded} memories, ${c.outcomes} outcomes, last ${c.lastAt}${c.forgotten ? "  (forgotten)" : ""}${c.purgedEvents ? ` (${c.purgedEvents} purged)` : ""}`

export const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
