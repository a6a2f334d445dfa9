/**
 * The examples table in docs/privacy.md is run through the real scan, so what the page says is
 * stored is what is stored.
 */
import { readFileSync } from "node:fs"
import { expect, test } from "vitest"
import { scanContent } from "../../src/privacy/scan.js"

const examples = (): Array<[string, string]> => {
  const doc = readFileSync("docs/privacy.md", "utf8")
  const table = /<!-- examples:start -->([\s\S]*?)<!-- examples:end -->/.exec(doc)?.[1]
  if (table === undefined) throw new Error("docs/privacy.md has no examples block")
  return [...table.matchAll(/^\| `(.+)` \| `(.+)` \|$/gm)].map((m) => [m[1]!, m[2]!])
}

test("the page has examples", () => {
  expect(examples().length).toBeGreaterThanOrEqual(8)
})

test.each(examples())("%j is stored as documented", (written, stored) => {
  expect(scanContent(written).content).toBe(stored)
})
