/**
 * Which memories an agent cited: id-like words (our ids are Crockford base32, and every id
 * starts with digits of its timestamp) in the assistant's messages of the session transcript.
 * Reading resumes where the last hook stopped, so a long session is never re-read.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs"

/** 8 to 26 characters of the id alphabet, holding at least one digit: ordinary words never do. */
const ID_LIKE = /\b(?=[0-9a-hjkmnp-tv-z]*[0-9])[0-9a-hjkmnp-tv-z]{8,26}\b/gi

/** The id-like words of a text, lower-cased, each once. */
export const idCandidates = (text: string): string[] => [...new Set((text.match(ID_LIKE) ?? []).map((w) => w.toLowerCase()))]

/** At most this much new transcript is read per hook: the 2-second budget matters more. */
const MAX_READ = 4 * 1024 * 1024

/**
 * The text of the assistant's messages added to a Claude Code transcript (JSONL) since
 * `offset`, and the offset to resume from. A missing or unreadable transcript gives nothing.
 */
export const readAssistantText = (path: string | undefined, offset: number): { text: string; offset: number } => {
  if (path === undefined) return { text: "", offset }
  let fd: number | undefined
  try {
    const size = statSync(path).size
    const from = size < offset ? 0 : offset // a shorter file is a new transcript
    const length = Math.min(size - from, MAX_READ)
    if (length <= 0) return { text: "", offset: from }
    fd = openSync(path, "r")
    const buffer = Buffer.alloc(length)
    readSync(fd, buffer, 0, length, from)
    const chunk = buffer.toString("utf8")
    // Only whole lines: a line still being written is read next time.
    const end = chunk.lastIndexOf("\n")
    if (end < 0) return { text: "", offset: from }
    const texts = chunk.slice(0, end).split("\n").flatMap(assistantTexts)
    return { text: texts.join("\n"), offset: from + Buffer.byteLength(chunk.slice(0, end + 1)) }
  } catch {
    return { text: "", offset }
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

const assistantTexts = (line: string): string[] => {
  let entry: unknown
  try {
    entry = JSON.parse(line)
  } catch {
    return []
  }
  if (!isRecord(entry) || entry.type !== "assistant" || !isRecord(entry.message)) return []
  const content = entry.message.content
  if (typeof content === "string") return [content]
  if (!Array.isArray(content)) return []
  return content.flatMap((part: unknown) => (isRecord(part) && part.type === "text" && typeof part.text === "string" ? [part.text] : []))
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null
