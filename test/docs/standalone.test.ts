/**
 * The repository stands on its own: no file points a reader at a document, an issue or a session
 * that is not in it, and the benchmark reference stays a reference rather than a run log (the
 * history of every run is in git).
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const SELF = "test/docs/standalone.test.ts"

/** "brief 4.5", "the brief", "issue 3", "issues #2", "Session 8", "sessions 6". */
const CITATION = /brief|[Ii]ssues? #?[0-9]|[Ss]essions? [0-9]/

/** Words that contain "brief" without citing anything; removed from a line before it is checked. */
const ALLOWED = [/debrief\w*/gi, /\bbriefly\b/gi]

const tracked = (): ReadonlyArray<string> =>
  execFileSync("git", ["ls-files", "-z", "--", "src", "docs", "bench", "test", "scripts", "bin", "README.md"], {
    encoding: "utf8"
  })
    .split("\0")
    .filter((path) => path !== "" && path !== SELF && !path.startsWith("bench/.out/"))

const citations = (path: string): ReadonlyArray<string> =>
  readFileSync(path, "utf8")
    .split("\n")
    .flatMap((line, i) => {
      const checked = ALLOWED.reduce((rest, word) => rest.replace(word, ""), line)
      return CITATION.test(checked) ? [`${path}:${i + 1}: ${line.trim().slice(0, 120)}`] : []
    })

describe("the repository stands on its own", () => {
  it("checks the files it means to check", () => {
    const paths = tracked()
    expect(paths).toContain("README.md")
    expect(paths).toContain("docs/benchmarks.md")
    expect(paths.some((path) => path.startsWith("src/"))).toBe(true)
    expect(paths).not.toContain(SELF)
  })

  it("cites no brief, issue number or session number", () => {
    expect(tracked().flatMap(citations)).toEqual([])
  })

  it("the allow-list lets through only the words it names", () => {
    const stripped = (line: string) => ALLOWED.reduce((rest, word) => rest.replace(word, ""), line)
    expect(CITATION.test(stripped("the debriefing, done briefly"))).toBe(false)
    expect(CITATION.test(stripped("briefly, as the brief 4.5 says"))).toBe(true)
    expect(CITATION.test(stripped("measured in Session 8"))).toBe(true)
    expect(CITATION.test(stripped("the goal of issue #3"))).toBe(true)
  })

  it("keeps docs/benchmarks.md a reference of at most 300 lines", () => {
    const lines = readFileSync("docs/benchmarks.md", "utf8").trimEnd().split("\n").length
    expect(lines).toBeLessThanOrEqual(300)
  })
})
