/**
 * The part of a session a model is sent: what was said since the last part it read (the person,
 * the agent, the shell commands and how each went), never more than a cap of tokens, keeping
 * the newest. Nothing leaves the machine before the privacy scan `add` uses (privacy/scan.ts):
 * `<private>` spans dropped, a span opened in an earlier part still hiding what follows it, and
 * secrets redacted. The part's key is the hash of exactly the text sent.
 */
import { sha256Hex } from "../../domain/sha256.js"
import { openPrivateSpans } from "../../privacy/private-spans.js"
import { scanContent } from "../../privacy/scan.js"
import { countTokens } from "../../retrieval/tokens.js"
import { errorLine } from "../session-lessons.js"
import type { SessionTranscript } from "../transcripts/session-transcript.js"

export interface TranscriptPart {
  /** What is sent: scanned, at most the cap of tokens. */
  readonly text: string
  /** sha256 of `text`: the part's capture key, with the session. */
  readonly key: string
  readonly tokens: number
  /** The transcript lines the text was read from. */
  readonly firstLine: number
  readonly lastLine: number
}

/** Enough for a long stretch of a session, and within any local model's context with room for the answer. */
export const PART_TOKENS = 6_000

/** The part after `afterLine`; undefined when nothing was said since, or all of it was private. */
export const transcriptPart = (session: SessionTranscript, afterLine: number, maxTokens = PART_TOKENS): TranscriptPart | undefined => {
  const said = dialogueOf(session)
  const fresh = said.filter((s) => s.line > afterLine)
  if (fresh.length === 0) return undefined
  const kept = newestEntries(fresh, maxTokens)
  const before = said.slice(0, said.length - kept.length)
  const open = openPrivateSpans(before.map((s) => s.text).join("\n\n"))
  const scanned = scanContent("<private>".repeat(open) + kept.map((s) => s.text).join("\n\n")).content
  const text = newestTokens(scanned, maxTokens)
  if (text.trim().length === 0) return undefined
  return { text, key: sha256Hex(`transcript-part\n${text}`), tokens: countTokens(text), firstLine: kept[0]!.line, lastLine: fresh.at(-1)!.line }
}

interface Said {
  readonly text: string
  readonly line: number
}

/** Everything said, in the order of the file; on one line, the agent's words before the command it ran. */
const dialogueOf = (session: SessionTranscript): Said[] =>
  [
    ...session.prompts.map((p) => ({ text: `user: ${p.text}`, line: p.line })),
    ...session.replies.map((r) => ({ text: `agent: ${r.text}`, line: r.line })),
    ...session.runs.map((r) => ({ text: `shell: $ ${r.command}${r.failed ? `\n(failed) ${errorLine(r.error ?? "")}` : ""}`, line: r.line }))
  ]
    .map((s) => ({ ...s, text: withoutSpecialTokens(s.text) }))
    .sort((a, b) => a.line - b.line)

/**
 * `<|endoftext|>` and its kind are control tokens to a model and its tokenizer, not text: one in
 * a transcript (a session about tokenizers) must not end or steer the prompt.
 */
const withoutSpecialTokens = (text: string): string => text.replace(/<\|([^|<>\s]{1,40})\|>/g, "<$1>")

/** The newest entries whose tokens fit in `max` (the newest one always: the cap then cuts it). */
const newestEntries = (entries: ReadonlyArray<Said>, max: number): ReadonlyArray<Said> => {
  let total = 0
  let first = entries.length
  while (first > 0) {
    total += countTokens(entries[first - 1]!.text) + 1
    if (total > max && first < entries.length) break
    first--
  }
  return entries.slice(first)
}

/**
 * The end of `text` within `max` tokens. The scan may leave a part longer than its entries were
 * (a redaction marker outweighs a short secret), and one entry alone may be over the cap.
 */
const newestTokens = (text: string, max: number): string => {
  if (countTokens(text) <= max) return text
  let low = 0
  let high = text.length
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    if (countTokens(text.slice(middle)) <= max) high = middle
    else low = middle + 1
  }
  return text.slice(low)
}
