/**
 * Protects the import parser's fast path (src/commands/import-lines.ts): whenever
 * `memoryItemOf` reads a line without the schema, the schema (`decodeLine`) reads the same item
 * from it; and reading a text a line at a time finds the lines, their numbers and the first bad
 * line as splitting it would.
 */
import * as fc from "fast-check"
import { Either } from "effect"
import { describe, expect, test } from "vitest"
import { countLines, decodeLine, ImportLines, memoryItemOf, parseImport } from "../../src/commands/import-lines.js"

/** Mostly a value of the field's kind, sometimes null or any JSON value. */
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: arb, weight: 6 }, { arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.jsonValue(), weight: 1 })

const text = fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("", " ", "  \t", "Use pnpm", "x".repeat(10_000), "x".repeat(10_001), " y ".repeat(3_334)))
const times = fc.oneof(
  fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom("2024-03-01T12:00:00Z", "2024-03-01T12:00:00.000Z", "2024-02-30T00:00:00.000Z", "2024-03-01 12:00:00", "2024-03-01", "yesterday", "+012024-03-01T12:00:00.000Z")
)

/** Lines shaped like memory lines, each field sometimes missing, null, or any JSON value. */
const memoryLike = fc
  .record(
    {
      content: maybe(text),
      category: maybe(fc.constantFrom("convention", "gotcha", "general", "nope", "")),
      project: maybe(fc.constantFrom("github.com/acme/app", "", "/home/me/app")),
      tags: maybe(fc.array(fc.oneof(fc.string(), fc.jsonValue()), { maxLength: 3 })),
      origin: maybe(fc.constantFrom("claude-code:session/1", "", "cli")),
      agent: maybe(fc.constantFrom("codex", "")),
      source: maybe(fc.constantFrom("explicit", "observed", "extracted", "imported", "told")),
      createdAt: maybe(times),
      extra: fc.jsonValue()
    },
    { requiredKeys: [] }
  )
  // Now and then shaped like an exported event, which only the schema path reads.
  .chain((line) => fc.constantFrom(line, line, line, { ...line, type: "MemoryAdded", payloadHash: "0".repeat(64) }))
  // As JSON.parse would give it.
  .map((line) => JSON.parse(JSON.stringify(line)) as unknown)

describe("memoryItemOf", () => {
  test("reads a line exactly as the schema does, whenever it reads it at all", () => {
    fc.assert(
      fc.property(fc.oneof(memoryLike, fc.jsonValue()), fc.integer({ min: 1, max: 1e6 }), (value, line) => {
        const fast = memoryItemOf(value, line)
        if (fast === undefined) return
        const slow = decodeLine(value, line)
        expect(Either.isRight(slow)).toBe(true)
        expect(Either.getOrUndefined(slow)).toStrictEqual(fast)
      }),
      { numRuns: 3_000 }
    )
  })

  test("reads the common line: every field set, or only the content", () => {
    const full = {
      content: "Use pnpm, not npm.",
      category: "convention",
      project: "github.com/acme/app",
      tags: ["tooling"],
      origin: "claude-code:session/1",
      agent: "claude-code",
      source: "observed",
      createdAt: "2024-07-24T04:43:02.996Z"
    }
    for (const value of [full, { content: "Use pnpm" }]) {
      expect(memoryItemOf(value, 3)).toBeDefined()
      expect(Either.getOrUndefined(decodeLine(value, 3))).toStrictEqual(memoryItemOf(value, 3))
    }
  })
})

describe("ImportLines", () => {
  const lineText = fc.oneof(
    fc.constantFrom("", " ", "\t", "\r", "\u00a0", '{"content":"a"}', ' {"content":"b"}\r', '{"content":', '{"content":"c","category":"nope"}'),
    fc.string()
  )

  test("finds the lines, their numbers and the first bad line as splitting the text would", () => {
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 12 }), (lines) => {
        const text = lines.join("\n")
        const expected: Array<{ line: number; raw: string }> = []
        text.split("\n").forEach((raw, i) => {
          if (raw.trim().length > 0) expected.push({ line: i + 1, raw: raw.trim() })
        })
        expect(countLines(text)).toBe(expected.length)
        const reader = new ImportLines(text)
        for (const { line, raw } of expected) {
          const item = reader.next()
          expect(item).toBeDefined()
          const lineOf = Either.isLeft(item!) ? item!.left.line : item!.right.line
          expect(lineOf).toBe(line)
          expect(raw.length).toBeGreaterThan(0)
        }
        expect(reader.next()).toBeUndefined()
        const firstBad = parseImport(text)
        if (Either.isLeft(firstBad)) expect(expected.map((e) => e.line)).toContain((firstBad.left as { line: number }).line)
      }),
      { numRuns: 500 }
    )
  })
})
