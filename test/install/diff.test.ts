/** Protects what --dry-run shows: a unified diff with the changed lines and three lines of context. */
import { expect, test } from "vitest"
import { unifiedDiff } from "../../src/install/diff.js"

const names = { before: "a", after: "b" }
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`)

test("shows one hunk per change, three lines of context around it", () => {
  const before = lines(20)
  const after = [...before.slice(0, 2), "new 2.5", ...before.slice(2, 15), ...before.slice(16)]
  expect(unifiedDiff(names, `${before.join("\n")}\n`, `${after.join("\n")}\n`)).toBe(
    [
      "--- a",
      "+++ b",
      "@@ -1,5 +1,6 @@",
      " line 1",
      " line 2",
      "+new 2.5",
      " line 3",
      " line 4",
      " line 5",
      "@@ -13,7 +14,6 @@",
      " line 13",
      " line 14",
      " line 15",
      "-line 16",
      " line 17",
      " line 18",
      " line 19"
    ].join("\n")
  )
})

test("a new file is all additions, from line 0 of nothing", () => {
  expect(unifiedDiff({ before: "/dev/null", after: "x" }, "", "a\nb\n")).toBe("--- /dev/null\n+++ x\n@@ -0,0 +1,2 @@\n+a\n+b")
})
