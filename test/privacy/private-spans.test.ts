/** Protects the `<private>` promise: what is inside never reaches the store, whatever the markup. */
import { describe, expect, it } from "vitest"
import { dropPrivateSpans } from "../../src/privacy/private-spans.js"

describe("dropPrivateSpans", () => {
  it.each([
    ["a span in a sentence", "Call Ann <private>on 555-0100</private> about it", "Call Ann about it", 1],
    ["any letter case", "a <PRIVATE>x</Private> b", "a b", 1],
    ["spans across lines", "keep\n<private>\nline one\nline two\n</private>\nend", "keep\n\nend", 1],
    ["several spans", "a <private>1</private> b <private>2</private> c", "a b c", 2],
    ["nested spans, counted once", "a <private>x <private>y</private> z</private> b", "a b", 1],
    ["an unclosed tag, to the end", "public part <private>everything after", "public part", 1],
    ["a stray closing tag, which is markup", "a </private> b", "a b", 0],
    // The first pass leaves "a <private>secret b" (the last tag was stray); that tag is unclosed.
    ["a tag split around a span, to the end", "a <priv<private>x</private>ate>secret</private> b", "a", 2],
    ["no tag", "nothing private here", "nothing private here", 0],
    ["a tag with spaces before >", "a <private >x</private > b", "a b", 1]
  ])("drops %s", (_label, input, text, dropped) => {
    expect(dropPrivateSpans(input)).toEqual({ text, dropped })
  })

  it("leaves text that only mentions the word alone", () => {
    expect(dropPrivateSpans("the private key and <privacy> tags stay")).toEqual({ text: "the private key and <privacy> tags stay", dropped: 0 })
  })
})
