/**
 * Reads a shell command's output for a test run's verdict, so a PostToolUse hook can score the
 * memories an agent was shown by whether the tests then passed. Pure: text in, verdict out.
 *
 * Only a runner's own summary counts (vitest, jest, pytest, cargo test, go test, mocha,
 * node --test, or a plain "N passed, N failed" line). A run that printed no summary (a compile
 * error, a failing build, an `ls`) is not a test run and gets no verdict; neither does a run in
 * which nothing passed or failed ("no tests ran"), nor the output of a command that only shows
 * text (`cat`, `grep`, `git log`...), which may quote an old summary.
 */

export type TestRunner = "vitest" | "jest" | "pytest" | "cargo" | "go" | "mocha" | "node" | "plain"

export interface TestVerdict {
  readonly runner: TestRunner
  readonly passed: number
  readonly failed: number
  /** `failed` when anything failed, `worked` when tests passed and none failed. */
  readonly verdict: "worked" | "failed"
}

export const recognizeTestRun = (command: string | undefined, output: string): TestVerdict | undefined => {
  if (command !== undefined && onlyShowsText(command)) return undefined
  const lines = plainLines(output)
  for (const [runner, read] of RECOGNIZERS) {
    const counts = read(lines)
    // A summary of nothing ("no tests ran") is no verdict; a later, plainer reading may still be.
    if (counts === undefined || counts.passed + counts.failed === 0) continue
    return { runner, ...counts, verdict: counts.failed > 0 ? "failed" : "worked" }
  }
  return undefined
}

interface Counts {
  readonly passed: number
  readonly failed: number
}

type Recognizer = (lines: ReadonlyArray<string>) => Counts | undefined

/** `test result: FAILED. 1 passed; 1 failed; ...`, once per test binary: the counts add up. */
const cargo: Recognizer = (lines) => {
  const results = lines.map((l) => /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed;/.exec(l)).filter((m) => m !== null)
  if (results.length === 0) return undefined
  return { passed: sum(results.map((m) => Number(m[1]))), failed: sum(results.map((m) => Number(m[2]))) }
}

/**
 * go test prints no counts. With -v it lists each top-level test (`--- PASS: TestX`); without,
 * only the failing ones, and a line per package (`ok  <pkg> 0.01s`, `FAIL <pkg> 0.01s`). So tests
 * are counted where they are listed, packages otherwise. A package that did not build
 * (`FAIL <pkg> [build failed]`) ran no test: a build alone is no verdict.
 */
const goTest: Recognizer = (lines) => {
  const passedTests = count(lines, /^--- PASS: \S/)
  const failedTests = count(lines, /^--- FAIL: \S/)
  const okPackages = count(lines, /^ok\s+\S+\s+(?:\(cached\)|[\d.]+s)/)
  const failedPackages = count(lines, /^FAIL\s+\S+\s+[\d.]+s\s*$/)
  if (passedTests + failedTests + okPackages + failedPackages === 0) return undefined
  return { passed: passedTests > 0 ? passedTests : okPackages, failed: Math.max(failedTests, failedPackages) }
}

/** `Tests: 1 failed, 5 passed, 6 total`; a suite that failed to run shows only in `Test Suites:`. */
const jest: Recognizer = (lines) => {
  const tests = last(lines, /^Tests:\s+(.*\d+ total)/)
  if (tests === undefined) return undefined
  const suites = last(lines, /^Test Suites:\s+(.*\d+ total)/)
  return withFailedFiles(counted(tests[1]!), suites === undefined ? 0 : counted(suites[1]!).failed)
}

/** `Tests  1 failed | 3 passed | 1 skipped (5)`, or `Tests  no tests` when a file failed to load. */
const vitest: Recognizer = (lines) => {
  const tests = last(lines, /^\s*Tests\s{2,}(.+)$/)
  const files = last(lines, /^\s*Test Files\s{2,}(.+)$/)
  if (tests === undefined || files === undefined) return undefined
  return withFailedFiles(counted(tests[1]!), counted(files[1]!).failed)
}

/** pytest's closing line: `==== 1 failed, 3 passed, 1 skipped in 0.92s ====`, or without the rules under -q. */
const pytest: Recognizer = (lines) => {
  const summary = last(lines, /^=*\s*((?:\d+ \w+|no tests ran)(?:, \d+ \w+)*) in [\d.]+s(?: \([\d:]+\))?\s*=*$/)
  if (summary === undefined) return undefined
  const c = counted(summary[1]!)
  // A collection error stops the run before its tests: it is a failure of the run.
  return { passed: c.passed, failed: c.failed + (c.words.get("error") ?? 0) + (c.words.get("errors") ?? 0) }
}

/** mocha's epilogue: `  2 passing (12ms)`, then `  1 failing` if any failed. */
const mocha: Recognizer = (lines) => {
  const passing = last(lines, /^\s*(\d+) passing \(\d+(?:ms|s|m)\)/)
  if (passing === undefined) return undefined
  const failing = last(lines, /^\s*(\d+) failing\s*$/)
  return { passed: Number(passing[1]), failed: failing === undefined ? 0 : Number(failing[1]) }
}

/** node --test, TAP (`# pass 3`) or spec (`ℹ pass 3`) reporter; a cancelled test did not pass. */
const nodeTest: Recognizer = (lines) => {
  const total = last(lines, /^(?:#|ℹ) tests (\d+)\s*$/)
  const pass = last(lines, /^(?:#|ℹ) pass (\d+)\s*$/)
  const fail = last(lines, /^(?:#|ℹ) fail (\d+)\s*$/)
  if (total === undefined || pass === undefined || fail === undefined) return undefined
  const cancelled = last(lines, /^(?:#|ℹ) cancelled (\d+)\s*$/)
  return { passed: Number(pass[1]), failed: Number(fail[1]) + (cancelled === undefined ? 0 : Number(cancelled[1])) }
}

/** Any other runner or script that ends with a line saying both: `12 passed, 1 failed`. */
const plain: Recognizer = (lines) => {
  const line = last(lines, /\b\d+ passed\b.*\b\d+ failed\b|\b\d+ failed\b.*\b\d+ passed\b/)
  if (line === undefined) return undefined
  const { passed, failed } = counted(line[0])
  return { passed, failed }
}

/** Most specific first: a pytest or jest summary would also pass for a plain line. */
const RECOGNIZERS: ReadonlyArray<readonly [TestRunner, Recognizer]> = [
  ["cargo", cargo],
  ["go", goTest],
  ["jest", jest],
  ["vitest", vitest],
  ["pytest", pytest],
  ["mocha", mocha],
  ["node", nodeTest],
  ["plain", plain]
]

/** Programs whose output is text they were shown, not a run: `cat log | grep passed` is no verdict. */
const TEXT_SHOWING = new Set([
  "cat", "bat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "ack", "echo", "printf",
  "ls", "find", "fd", "git", "sed", "awk", "jq", "diff", "wc", "sort", "uniq", "cut", "tr", "cd", "pwd", "tee"
])

/** True when every program the command line runs only shows text (env assignments skipped). */
const onlyShowsText = (command: string): boolean => {
  const programs = command
    .split(/&&|\|\||[;|\n]/)
    .map((segment) => segment.trim().split(/\s+/).find((word) => !/^\w+=/.test(word)))
    .filter((p): p is string => p !== undefined && p.length > 0)
  return programs.length > 0 && programs.every((p) => TEXT_SHOWING.has(p.split("/").pop()!))
}

/** Lines as a terminal would show them: colours removed, and a line redrawn after `\r` shown last. */
const plainLines = (output: string): string[] =>
  output
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .split(/\r?\n/)
    .map((line) => line.slice(line.lastIndexOf("\r") + 1))

/** `1 failed | 3 passed | 1 skipped (5)` or `1 failed, 5 passed, 6 total`: every `N word`. */
const counted = (text: string): Counts & { readonly words: ReadonlyMap<string, number> } => {
  const words = new Map<string, number>()
  for (const m of text.matchAll(/(\d+) ([a-z]+)/g)) words.set(m[2]!, (words.get(m[2]!) ?? 0) + Number(m[1]))
  return { passed: words.get("passed") ?? 0, failed: words.get("failed") ?? 0, words }
}

/** Never fewer failures than failed test files: a file that could not load ran no test, yet the run failed. */
const withFailedFiles = (tests: Counts, failedFiles: number): Counts => ({ passed: tests.passed, failed: Math.max(tests.failed, failedFiles) })

const last = (lines: ReadonlyArray<string>, pattern: RegExp): RegExpExecArray | undefined => {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = pattern.exec(lines[i]!)
    if (m !== null) return m
  }
  return undefined
}

const count = (lines: ReadonlyArray<string>, pattern: RegExp): number => lines.filter((l) => pattern.test(l)).length

const sum = (values: ReadonlyArray<number>): number => values.reduce((a, b) => a + b, 0)
