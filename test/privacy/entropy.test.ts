/**
 * Pins the measures behind the high-entropy rule to the figures docs/privacy.md gives: random
 * keys clear the entropy floor and score low on words; identifiers of the same length score high.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { shannonEntropy, wordShare } from "../../src/privacy/entropy.js"
import { looksGenerated, MAX_WORD_SHARE, MIN_ENTROPY_BITS } from "../../src/privacy/high-entropy.js"
import { BASE62, body } from "./fake-secrets.js"

describe("shannonEntropy", () => {
  it("measures bits per character", () => {
    expect(shannonEntropy("aaaa")).toBe(0)
    expect(shannonEntropy("abab")).toBe(1)
    expect(shannonEntropy("abcdefgh")).toBe(3)
  })

  it("puts every random 32-character base62 key above the floor", () => {
    fc.assert(
      fc.property(body(BASE62, 32), (key) => {
        expect(shannonEntropy(key)).toBeGreaterThanOrEqual(MIN_ENTROPY_BITS)
      }),
      { numRuns: 2000 }
    )
  })
})

describe("wordShare", () => {
  it.each([
    "createTemporaryDatabaseConnectionPool",
    "HTTP2ServerPushConfigurationForCDNv3Edge",
    "base64EncodedSha256DigestForVersion2Builds",
    "NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS",
    "getServerSidePropsForDashboard2FAEnrollment"
  ])("scores the identifier %s as words, so it is not a secret", (identifier) => {
    expect(wordShare(identifier)).toBeGreaterThanOrEqual(MAX_WORD_SHARE)
    expect(looksGenerated(identifier)).toBe(false)
  })

  it("scores random keys low", () => {
    const shares = fc.sample(body(BASE62, 40), { numRuns: 2000, seed: 7 }).map(wordShare)
    expect(shares.reduce((a, b) => a + b, 0) / shares.length).toBeLessThan(0.2)
  })
})
