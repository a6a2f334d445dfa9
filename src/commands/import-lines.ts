/**
 * Parses a JSONL import file before anything is written: each line is a memory or an exported
 * event, and the first bad line stops the import with its line number, so a half-read file
 * never leaves half its memories behind.
 */
import { DateTime, Either, ParseResult, Schema } from "effect"
import { ImportLineInvalid, type DomainError } from "../domain/errors.js"
import { CATEGORIES, Category, MAX_CONTENT_LENGTH, Source } from "../domain/vocabulary.js"
import { decodePayload } from "../events/codec.js"
import { ExportedEvent, isExportedEventLine } from "../events/export-line.js"
import type { AddInput } from "./add-input.js"

const MemoryLine = Schema.Struct({
  content: Schema.String,
  category: Schema.optional(Schema.NullOr(Schema.String)),
  project: Schema.optional(Schema.NullOr(Schema.String)),
  tags: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  origin: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.minLength(1)))),
  agent: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.minLength(1)))),
  source: Schema.optional(Schema.NullOr(Source)),
  createdAt: Schema.optional(Schema.NullOr(Schema.DateTimeUtc))
})

export type ImportItem =
  | { readonly kind: "memory"; readonly line: number; readonly input: AddInput; readonly origin?: string; readonly agent?: string }
  | { readonly kind: "event"; readonly line: number; readonly event: ExportedEvent }

const decodeMemory = Schema.decodeUnknownEither(MemoryLine)
const decodeEvent = Schema.decodeUnknownEither(ExportedEvent)
const isCategory = Schema.is(Category)

export const parseImport = (text: string): Either.Either<ImportItem[], DomainError> => {
  const items: ImportItem[] = []
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim()
    if (raw.length === 0) continue
    const item = parseLine(raw, i + 1)
    if (Either.isLeft(item)) return Either.left(item.left)
    items.push(item.right)
  }
  return Either.right(items)
}

const parseLine = (raw: string, line: number): Either.Either<ImportItem, ImportLineInvalid> => {
  const fail = (reason: string) => Either.left(new ImportLineInvalid({ line, reason }))
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return fail("not valid JSON")
  }
  if (isExportedEventLine(value)) {
    const event = decodeEvent(value)
    if (Either.isLeft(event)) return fail(describe(event.left))
    const { type, version, payload } = event.right
    if (payload !== null) {
      try {
        decodePayload(type, version, JSON.stringify(payload))
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error))
      }
    }
    return Either.right({ kind: "event", line, event: event.right })
  }
  const decoded = decodeMemory(value)
  if (Either.isLeft(decoded)) return fail(describe(decoded.left))
  const m = decoded.right
  if (m.content.trim().length === 0) return fail("the content is empty")
  if (m.content.length > MAX_CONTENT_LENGTH) {
    return fail(`the content is ${m.content.length} characters; the limit is ${MAX_CONTENT_LENGTH}`)
  }
  if (m.category != null && !isCategory(m.category)) {
    return fail(`unknown category '${m.category}'; use one of: ${CATEGORIES.join(", ")}`)
  }
  const project = m.project ?? null
  const input: AddInput = {
    content: m.content,
    scope: project === null ? "global" : "project",
    project,
    source: m.source ?? "imported",
    ...(m.category != null && isCategory(m.category) ? { category: m.category } : {}),
    ...(m.tags != null ? { tags: m.tags } : {}),
    ...(m.createdAt != null ? { createdAt: DateTime.formatIso(m.createdAt) } : {})
  }
  return Either.right({
    kind: "memory",
    line,
    input,
    ...(m.origin != null ? { origin: m.origin } : {}),
    ...(m.agent != null ? { agent: m.agent } : {})
  })
}

const describe = (error: ParseResult.ParseError): string => ParseResult.TreeFormatter.formatErrorSync(error).replace(/\s+/g, " ")
