/**
 * Parses a JSONL import file: each line is a memory or an exported event, and a bad line stops
 * the import with its line number. `parseImport` reads a whole file before anything is written;
 * `ImportLines` reads one line at a time, for an import that checks each batch before writing it.
 * Across lines, the exported events must be a whole, unedited export (export-chain.ts), and a
 * memory's `createdAt` may not be more than a day after the import.
 */
import { DateTime, Either, ParseResult, Schema } from "effect"
import { ImportLineInvalid, type DomainError } from "../domain/errors.js"
import { CATEGORIES, Category, contentTooLong, Source, SOURCES } from "../domain/vocabulary.js"
import { decodePayload, sha256 } from "../events/codec.js"
import { ExportChain, type ExportChainPosition } from "../events/export-chain.js"
import { ExportedEvent, isExportedEventLine } from "../events/export-line.js"
import { agentProblem, originProblem } from "./actor.js"
import { secretInName } from "../privacy/secret-in-name.js"
import { isCanonicalTime } from "./canonical-time.js"
import type { AddInput } from "./add-input.js"
import { MEMORY_LINE_FIELD_SET, memoryLineProblem, NOT_A_MEMORY_LINE } from "./memory-line-problem.js"
import type { Mutable } from "../domain/mutable.js"

const MemoryLine = Schema.Struct({
  content: Schema.String,
  category: Schema.optional(Schema.NullOr(Schema.String)),
  project: Schema.optional(Schema.NullOr(Schema.String)),
  tags: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  origin: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.minLength(1)))),
  agent: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.minLength(1)))),
  source: Schema.optional(Schema.NullOr(Source)),
  createdAt: Schema.optional(Schema.NullOr(Schema.DateTimeUtc)),
  cues: Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
})

export type ImportItem =
  | { readonly kind: "memory"; readonly line: number; readonly input: AddInput; readonly origin?: string; readonly agent?: string }
  | { readonly kind: "event"; readonly line: number; readonly event: ExportedEvent }

const decodeMemory = Schema.decodeUnknownEither(MemoryLine)
const decodeEvent = Schema.decodeUnknownEither(ExportedEvent)
const isCategory = Schema.is(Category)

export interface ImportLinesOptions {
  /** The import's time (ms): a memory line dated more than a day after it is refused. */
  readonly now?: number
}

/**
 * How far ahead of the import a memory's `createdAt` may be: a day, for a clock or a time zone
 * set wrong by hours. A date beyond is a mistake, and kept it would age the memory backwards.
 */
export const CREATED_AT_AHEAD_MS = 24 * 60 * 60 * 1000

export const parseImport = (text: string, options: ImportLinesOptions = {}): Either.Either<ImportItem[], DomainError> => {
  const items: ImportItem[] = []
  const lines = new ImportLines(text, options)
  for (let item = lines.next(); item !== undefined; item = lines.next()) {
    if (Either.isLeft(item)) return Either.left(item.left)
    items.push(item.right)
  }
  return Either.right(items)
}

/**
 * The non-empty lines of a JSONL text (blank ones are skipped, as `split` and `trim` would),
 * parsed one at a time, numbered as in the file. Nothing of a line is kept once it is read.
 */
export class ImportLines {
  private offset = 0
  private lineNumber = 0
  private readonly chain = new ExportChain()
  private readonly latestCreatedAt: number

  constructor(
    private readonly text: string,
    { now }: ImportLinesOptions = {}
  ) {
    this.latestCreatedAt = now === undefined ? Number.POSITIVE_INFINITY : now + CREATED_AT_AHEAD_MS
  }

  /** The next line, parsed and checked; undefined after the last. */
  next(): Either.Either<ImportItem, ImportLineInvalid> | undefined {
    const text = this.text
    while (this.offset < text.length) {
      const newline = text.indexOf("\n", this.offset)
      const end = newline < 0 ? text.length : newline
      const raw = text.slice(this.offset, end).trim()
      this.offset = end + 1
      this.lineNumber++
      if (raw.length > 0) return this.inContext(parseLine(raw, this.lineNumber))
    }
    return undefined
  }

  /** Where the next line starts, to come back to it with `rewind`. */
  get position(): ImportPosition {
    return { offset: this.offset, lineNumber: this.lineNumber, chain: this.chain.position }
  }

  rewind(to: ImportPosition): void {
    this.offset = to.offset
    this.lineNumber = to.lineNumber
    this.chain.rewind(to.chain)
  }

  /** A parsed line checked against the lines before it and the import's time. */
  private inContext(parsed: Either.Either<ImportItem, ImportLineInvalid>): Either.Either<ImportItem, ImportLineInvalid> {
    if (Either.isLeft(parsed)) return parsed
    const item = parsed.right
    if (item.kind === "event") {
      const broken = this.chain.take(item.event)
      return broken === undefined ? parsed : Either.left(new ImportLineInvalid({ line: item.line, reason: broken }))
    }
    const createdAt = item.input.createdAt
    if (createdAt !== undefined && Date.parse(createdAt) > this.latestCreatedAt) {
      return Either.left(new ImportLineInvalid({ line: item.line, reason: `createdAt: ${createdAt} is more than a day ahead of now; a memory cannot be written later than it is imported` }))
    }
    return parsed
  }
}

export interface ImportPosition {
  readonly offset: number
  readonly lineNumber: number
  readonly chain: ExportChainPosition
}

/** How many lines `ImportLines` yields, without parsing them. */
export const countLines = (text: string): number => {
  let count = 0
  for (let offset = 0; offset < text.length; ) {
    const newline = text.indexOf("\n", offset)
    const end = newline < 0 ? text.length : newline
    if (text.slice(offset, end).trim().length > 0) count++
    offset = end + 1
  }
  return count
}

export const parseLine = (raw: string, line: number): Either.Either<ImportItem, ImportLineInvalid> => {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return Either.left(new ImportLineInvalid({ line, reason: "not valid JSON" }))
  }
  const memory = memoryItemOf(value, line)
  return memory === undefined ? decodeLine(value, line) : Either.right(memory)
}

/**
 * The schema's reading of a parsed line. `memoryItemOf` answers first for the common line, and
 * this reports anything else: a memory line's problem in words (memory-line-problem.ts), an
 * exported event's from the schema.
 */
export const decodeLine = (value: unknown, line: number): Either.Either<ImportItem, ImportLineInvalid> => {
  const fail = (reason: string) => Either.left(new ImportLineInvalid({ line, reason }))
  if (isExportedEventLine(value)) {
    const event = decodeEvent(value)
    if (Either.isLeft(event)) return fail(describe(event.left))
    const { type, version, payload, payloadHash } = event.right
    if (payload !== null) {
      const text = JSON.stringify(payload)
      // Import and replay append the payload as carried; without this an edited payload would
      // simply get a fresh hash and enter the log as if it had always read so.
      if (sha256(text) !== payloadHash) return fail("the payload does not match its payloadHash (the line was edited)")
      try {
        decodePayload(type, version, text)
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error))
      }
    }
    return Either.right({ kind: "event", line, event: event.right })
  }
  const problem = memoryLineProblem(value)
  if (problem !== undefined) return fail(problem)
  const decoded = decodeMemory(value)
  if (Either.isLeft(decoded)) return fail(NOT_A_MEMORY_LINE)
  const m = decoded.right
  const project = m.project ?? null
  const input: AddInput = {
    content: m.content,
    scope: project === null ? "global" : "project",
    project,
    source: m.source ?? "imported",
    ...(m.category != null && isCategory(m.category) ? { category: m.category } : {}),
    ...(m.tags != null ? { tags: m.tags } : {}),
    ...(m.createdAt != null ? { createdAt: DateTime.formatIso(m.createdAt) } : {}),
    ...(m.cues != null ? { cues: m.cues } : {})
  }
  return Either.right({
    kind: "memory",
    line,
    input,
    ...(m.origin != null ? { origin: m.origin } : {}),
    ...(m.agent != null ? { agent: m.agent } : {})
  })
}

type MemoryItem = Extract<ImportItem, { kind: "memory" }>

/**
 * The same item as `decodeLine` for a plain memory line (every field of the expected type,
 * `createdAt` in the canonical form `toISOString` writes), built without the schema's
 * interpreter; undefined for anything else, which `decodeLine` then reads. The two are compared
 * on generated lines by test/core/import-lines.property.test.ts.
 */
export const memoryItemOf = (value: unknown, line: number): MemoryItem | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value) || isExportedEventLine(value)) return undefined
  for (const key in value) if (!MEMORY_LINE_FIELD_SET.has(key)) return undefined
  const { content, category, project, tags, origin, agent, source, createdAt, cues } = value as Record<string, unknown>
  if (typeof content !== "string" || contentTooLong(content) !== undefined || content.trim().length === 0) return undefined
  if (category != null && !CATEGORY_SET.has(category)) return undefined
  if (project != null && !(typeof project === "string" && project.length > 0 && project.length <= 1000)) return undefined
  if (tags != null && !(Array.isArray(tags) && tags.every((t) => typeof t === "string"))) return undefined
  if (origin != null && !(typeof origin === "string" && originProblem(origin) === undefined && secretInName(origin) === undefined)) return undefined
  if (agent != null && !(typeof agent === "string" && agentProblem(agent) === undefined && secretInName(agent) === undefined)) return undefined
  if (source != null && !SOURCE_SET.has(source)) return undefined
  if (createdAt != null && !(typeof createdAt === "string" && isCanonicalTime(createdAt))) return undefined
  if (cues != null && !(Array.isArray(cues) && cues.every((c) => typeof c === "string"))) return undefined
  // Fields set one by one, in decodeLine's order, rather than spread from a temporary object each.
  const input: Mutable<AddInput> = {
    content,
    scope: project == null ? "global" : "project",
    project: (project as string | null | undefined) ?? null,
    source: (source as Source | null | undefined) ?? "imported"
  }
  if (category != null) input.category = category as Category
  if (tags != null) input.tags = tags as string[]
  if (createdAt != null) input.createdAt = createdAt as string
  if (cues != null) input.cues = cues as string[]
  const item: Mutable<MemoryItem> = { kind: "memory", line, input }
  if (origin != null) item.origin = origin as string
  if (agent != null) item.agent = agent as string
  return item
}

const CATEGORY_SET = new Set<unknown>(CATEGORIES)
const SOURCE_SET = new Set<unknown>(SOURCES)

const describe = (error: ParseResult.ParseError): string => ParseResult.TreeFormatter.formatErrorSync(error).replace(/\s+/g, " ")
