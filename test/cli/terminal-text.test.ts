/** Protects the one rule for text bound for a terminal: controls shown as escapes, layout kept. */
import { describe, expect, it } from "vitest"
import { forTerminal } from "../../src/adapters/cli/terminal-text.js"

describe("forTerminal", () => {
  it.each([
    ["\u001b[2J", "\\x1b[2J"],
    ["\u001b]0;t\u0007", "\\x1b]0;t\\x07"],
    ["a\rb\bc", "a\\x0db\\x08c"],
    ["\u009b31m\u007f", "\\x9b31m\\x7f"],
    ["abc\u202egnp.exe", "abc\\u202egnp.exe"],
    ["line one\nline two\tcolumn", "line one\nline two\tcolumn"],
    ["é ü ñ 日本 ✓", "é ü ñ 日本 ✓"]
  ])("%j is shown as %j", (text, shown) => {
    expect(forTerminal(text)).toBe(shown)
  })
})
