/**
 * Properties of the whole scan (docs/privacy.md): no secret of any kind survives in ordinary prose,
 * ordinary prose survives untouched, nothing inside `<private>` survives, and scanning what a
 * scan returned changes nothing.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { scanContent } from "../../src/privacy/scan.js"
import { SECRET_KINDS } from "../../src/privacy/vocabulary.js"
import { body, DIGITS, FAKE_SECRETS, LOWER } from "./fake-secrets.js"

const WORDS = [
  "run", "the", "tests", "before", "pushing", "deploy", "with", "make", "staging", "database", "resets", "nightly",
  "use", "pnpm", "not", "npm", "cache", "lives", "in", "see", "config", "for", "details", "and", "fails", "when",
  "src/adapters/cli/main.ts", "/usr/local/bin/node", "~/.config/memledger", "C:\\Users\\me\\app",
  "https://github.com/acme/app/pull/123", "http://localhost:3000/api/v1/users?id=42", "git@github.com:acme/app.git",
  "ops@example.com", "v20.19.43", "02:00", "UTC", "ENOSPC", "HTTP2ServerPushConfigurationForCDNv3Edge", "x86_64-unknown-linux-gnu",
  "NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS", "makeProtocolWithHttpAppWebsocket", "README.md", "(see", "below)", "e.g.", "—"
]

/** Words, paths, URLs, UUIDs and git hashes: what memories are made of. */
const prose: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...WORDS) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: body(DIGITS + "abcdef", 40) },
      { weight: 1, arbitrary: body(DIGITS + "abcdef", 7) },
      { weight: 1, arbitrary: body(LOWER, 1, 12) }
    ),
    { minLength: 0, maxLength: 30 }
  )
  .chain((words) => fc.tuple(fc.constant(words), fc.array(fc.constantFrom(" ", " ", " ", "\n", ", ", ". "), { minLength: words.length, maxLength: words.length })))
  .map(([words, gaps]) => words.map((w, i) => w + (i < words.length - 1 ? gaps[i] : "")).join(""))

/** How a secret sits in a sentence: bare, in back-quotes, in parentheses, on its own line. */
const wrapping = fc.constantFrom(["", ""], ["`", "`"], ["(", ")"], ["\n", "\n"], ["'", "'"])

const embedded = <A>(secret: fc.Arbitrary<A & { text: string }>) =>
  fc.tuple(prose, secret, wrapping, prose).map(([before, s, [open, close], after]) => ({
    secret: s,
    text: `${before} ${open}${s.text}${close} ${after}`
  }))

/** No 16-character stretch of the secret is left (a shorter one cannot be used on its own). */
const leftOf = (content: string, sensitive: string): string | undefined => {
  const window = Math.min(16, sensitive.length)
  for (let i = 0; i + window <= sensitive.length; i++) {
    const piece = sensitive.slice(i, i + window)
    if (content.includes(piece)) return piece
  }
  return undefined
}

describe("no secret survives a scan", () => {
  it.each(SECRET_KINDS.map((kind) => [kind]))("of kind %s, in any prose", (kind) => {
    fc.assert(
      fc.property(embedded(FAKE_SECRETS[kind]), ({ secret, text }) => {
        const scanned = scanContent(text)
        expect(leftOf(scanned.content, secret.sensitive)).toBeUndefined()
        expect(scanned.redactions.map((r) => r.kind)).toContain(kind)
      }),
      { numRuns: 150 }
    )
  })
})

describe("what is not secret", () => {
  it("ordinary prose, paths, URLs, UUIDs and hashes pass through unchanged", () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(scanContent(text)).toEqual({ content: text, redactions: [], droppedPrivate: 0, instructionLike: [] })
      }),
      { numRuns: 300 }
    )
  })
})

describe("<private> spans", () => {
  it("leave nothing of what they held", () => {
    const hidden = body(LOWER, 12, 30).map((s) => `zq${s}`)
    fc.assert(
      fc.property(prose, hidden, prose, fc.boolean(), (before, secret, after, closed) => {
        const scanned = scanContent(`${before} <private>${secret}${closed ? "</private>" : ""} ${after}`)
        expect(scanned.content).not.toContain(secret)
        expect(scanned.droppedPrivate).toBe(1)
      }),
      { numRuns: 200 }
    )
  })
})

describe("scanning is idempotent", () => {
  const anyText = fc.oneof(
    embedded(fc.oneof(...SECRET_KINDS.map((k) => FAKE_SECRETS[k]))).map((e) => e.text),
    fc.tuple(prose, fc.constantFrom("<private>", "</private>", "<PRIVATE>", "<priv", "ate>"), prose).map((parts) => parts.join("")),
    fc.string({ unit: "grapheme-ascii", maxLength: 200 }),
    fc.string({ maxLength: 200 })
  )

  it("a second scan changes nothing and reports nothing more", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = scanContent(text)
        const twice = scanContent(once.content)
        expect(twice).toEqual({ content: once.content, redactions: [], droppedPrivate: 0, instructionLike: once.instructionLike })
      }),
      { numRuns: 500 }
    )
  })
})
