/**
 * Protects `recognizeTestRun` against real runner output (test/hooks/fixtures, see its README):
 * each runner's summary gives its counts and verdict; output that is not a test run (a listing,
 * a compile error, a build that failed, a run of nothing, a quoted summary) gives none.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { recognizeTestRun } from "../../src/hooks/test-verdict.js"

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, "fixtures", `${name}.txt`), "utf8")

describe("test runs", () => {
  it.each([
    ["vitest-failed", "npx vitest run", "vitest", 3, 1, "failed"],
    ["vitest-passed", "npx vitest run b.test.mjs", "vitest", 1, 0, "worked"],
    ["vitest-import-error", "npm test", "vitest", 0, 1, "failed"],
    ["jest-failed", "npx jest", "jest", 5, 1, "failed"],
    ["jest-passed", "npm test", "jest", 6, 0, "worked"],
    ["jest-suite-failed-to-run", "npx jest", "jest", 0, 1, "failed"],
    ["pytest-failed", "pytest", "pytest", 3, 1, "failed"],
    ["pytest-passed", "python -m pytest test_ok.py", "pytest", 2, 0, "worked"],
    ["pytest-quiet-passed", "pytest -q", "pytest", 2, 0, "worked"],
    ["pytest-collection-error", "pytest", "pytest", 0, 1, "failed"],
    ["cargo-failed", "cargo test", "cargo", 1, 1, "failed"],
    ["cargo-passed", "cargo test", "cargo", 2, 0, "worked"],
    ["go-test-failed", "go test ./...", "go", 1, 1, "failed"],
    ["go-test-passed", "go test ./...", "go", 2, 0, "worked"],
    ["go-test-verbose-failed", "go test -v ./...", "go", 2, 1, "failed"],
    ["mocha-failed", "npx mocha", "mocha", 2, 1, "failed"],
    ["mocha-passed", "npx mocha", "mocha", 2, 0, "worked"],
    ["node-test-tap-failed", "node --test", "node", 3, 1, "failed"],
    ["node-test-spec-passed", "node --test --test-reporter=spec", "node", 2, 0, "worked"],
    ["plain-summary", "./scripts/check.sh", "plain", 12, 1, "failed"]
  ] as const)("%s: %s gives %s %i passed, %i failed", (name, command, runner, passed, failed, verdict) => {
    expect(recognizeTestRun(command, fixture(name))).toEqual({ runner, passed, failed, verdict })
  })

  it("needs no command: the output alone is enough", () => {
    expect(recognizeTestRun(undefined, fixture("cargo-passed"))).toMatchObject({ runner: "cargo", verdict: "worked" })
  })

  it("reads the last summary of a watch run that ran twice", () => {
    const twice = `${fixture("vitest-failed")}\n${fixture("vitest-passed")}`
    expect(recognizeTestRun("npx vitest", twice)).toMatchObject({ passed: 1, failed: 0, verdict: "worked" })
  })

  it("reads a summary redrawn over a progress line", () => {
    expect(recognizeTestRun("make test", "running 40%\rrunning 100%\r12 passed, 0 failed\n")).toMatchObject({ runner: "plain", passed: 12, verdict: "worked" })
  })
})

describe("not test runs", () => {
  it.each([
    ["ls", "ls -la"],
    ["tsc-error", "npx tsc --noEmit"],
    ["cargo-compile-error", "cargo test"],
    ["go-build-failed", "go test ./..."],
    ["pytest-no-tests", "pytest"]
  ])("%s (%s) gives no verdict", (name, command) => expect(recognizeTestRun(command, fixture(name))).toBeUndefined())

  it("gives none for empty output", () => expect(recognizeTestRun("npm test", "")).toBeUndefined())

  it.each([
    ["cat last-run.log", "jest-failed"],
    ["grep -A3 Tests: ci.log | tail -5", "jest-passed"],
    ["git log -1", "plain-summary"],
    ["LANG=C cat out.txt", "cargo-failed"]
  ])("gives none for a summary that %s only shows", (command, name) => expect(recognizeTestRun(command, fixture(name))).toBeUndefined())

  it("still reads a run piped through a viewer", () => {
    expect(recognizeTestRun("npm test 2>&1 | tail -20", fixture("jest-failed"))).toMatchObject({ runner: "jest", verdict: "failed" })
  })
})
