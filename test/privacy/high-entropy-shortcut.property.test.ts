/**
 * Protects the shortcut of the generated-token pass (src/privacy/high-entropy.ts): a text with
 * no run long enough to judge is returned as it is, so the pass with the shortcut gives exactly
 * what the full pass gives, on texts of words, paths, base64 with padding and generated tokens
 * around the length where judging starts.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { hasLongEnoughRun, MIN_TOKEN_LENGTH, replaceEveryGeneratedToken, replaceGeneratedTokens } from "../../src/privacy/high-entropy.js"
import { BASE62, BASE64URL, body } from "./fake-secrets.js"

const around = (alphabet: string) => body(alphabet, MIN_TOKEN_LENGTH - 3, MIN_TOKEN_LENGTH + 3)
const piece = fc.oneof(
  fc.constantFrom(" ", "  ", "\n", "/", "=", "==", "=".repeat(MIN_TOKEN_LENGTH), ".", "-", "_", "+", "run the build", "src/app/main.ts", "https://example.com/a/b"),
  around(BASE62),
  around(BASE64URL + "+/"),
  around(BASE62).map((t) => `${t.slice(0, MIN_TOKEN_LENGTH - 2)}==`),
  body("abcdef0123456789", 30, 40),
  fc.string({ maxLength: 40 })
)

test("replaceGeneratedTokens equals the full pass on any text", () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const text = pieces.join("")
      expect(replaceGeneratedTokens(text, "[x]")).toEqual(replaceEveryGeneratedToken(text, "[x]"))
    }),
    { numRuns: 3_000 }
  )
})

/** The regular expression the loop in hasLongEnoughRun replaced. */
const LONG_ENOUGH = new RegExp(`[A-Za-z0-9+/_-][A-Za-z0-9+/_=-]{${MIN_TOKEN_LENGTH - 1}}`)

test("hasLongEnoughRun answers as the regular expression it replaced", () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const text = pieces.join("")
      expect(hasLongEnoughRun(text)).toBe(LONG_ENOUGH.test(text))
    }),
    { numRuns: 3_000 }
  )
})
