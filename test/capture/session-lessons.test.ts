/**
 * The lessons drawn from a session's commands: a failure and its correction when the pair is
 * clear, the test command run again and again, and nothing from anything less.
 */
import { describe, expect, it } from "vitest"
import { errorLine, isTestCommand, purposeOf, sessionLessons, type RanCommand } from "../../src/capture/session-lessons.js"

const ok = (command: string, test = false): RanCommand => ({ command, failed: false, ...(test ? { test } : {}) })
const fail = (command: string, error = ""): RanCommand => ({ command, failed: true, error })

describe("a failing command and its correction", () => {
  it("becomes one troubleshooting lesson naming the error", () => {
    const runs = [fail("git push", "Exit code 128\nfatal: The current branch feature has no upstream branch."), ok("ls"), ok("git push -u origin feature")]
    expect(sessionLessons(runs)).toEqual([
      {
        kind: "command-pair",
        failed: "git push",
        error: "fatal: The current branch feature has no upstream branch.",
        worked: "git push -u origin feature",
        text: "`git push` fails with fatal: The current branch feature has no upstream branch.; `git push -u origin feature` works."
      }
    ])
  })

  it("pairs the last of several failures with the correction, once", () => {
    const runs = [fail("npm run build"), fail("npm run build -- --force", "error TS2307: Cannot find module 'x'"), ok("npm run build -- --preserveSymlinks")]
    expect(sessionLessons(runs).map((l) => l.kind === "command-pair" && [l.failed, l.worked])).toEqual([["npm run build -- --force", "npm run build -- --preserveSymlinks"]])
  })

  it("is no lesson when the correction comes after five other commands", () => {
    expect(sessionLessons([fail("make deploy"), ok("a"), ok("b"), ok("c"), ok("d"), ok("e"), ok("make deploy ENV=prod")])).toEqual([])
    expect(sessionLessons([fail("make deploy"), ok("a"), ok("b"), ok("c"), ok("d"), ok("make deploy ENV=prod")])).toHaveLength(1)
  })

  it("is no lesson when the same command merely succeeded on a second try, or another purpose succeeded", () => {
    expect(sessionLessons([fail("npm test"), ok("npm  test")])).toEqual([])
    expect(sessionLessons([fail("npm run build"), ok("npm run lint")])).toEqual([])
    expect(sessionLessons([fail("git push"), ok("git pull")])).toEqual([])
  })

  it("quotes no multi-line script and no command holding a backtick", () => {
    expect(sessionLessons([fail("python - <<EOF\nprint(1)\nEOF"), ok("python - <<EOF\nprint(2)\nEOF")])).toEqual([])
    expect(sessionLessons([fail("echo `date`; make"), ok("make all")])).toEqual([])
  })
})

describe("the session's test command", () => {
  it("becomes a command lesson once it ran three times with a result", () => {
    const runs = [fail("npx vitest run", "Tests  1 failed"), ok("ls"), ok("npx vitest run", true), ok("npx  vitest run", true)]
    expect(sessionLessons(runs)).toEqual([{ kind: "repeated-test", command: "npx vitest run", times: 3, text: "Run the tests with `npx vitest run`." }])
  })

  it("is no lesson twice, nor when it never gave a result, nor for a command that is not a test", () => {
    expect(sessionLessons([ok("pytest -q"), ok("pytest -q")])).toEqual([])
    expect(sessionLessons([fail("tox"), fail("tox"), fail("tox")])).toEqual([])
    expect(sessionLessons([ok('git commit -m "fix test"'), ok('git commit -m "fix test"'), ok('git commit -m "fix test"')])).toEqual([])
  })
})

describe("what a command is for", () => {
  it.each([
    ["git push -u origin main", "git push"],
    ["cd web && npm run build -- --force", "npm run build"],
    ["CI=1 sudo /usr/bin/make deploy", "make deploy"],
    ["npx vitest run test/a.test.ts", "npx vitest"],
    ["uv run pytest -q", "uv run pytest"],
    ["ls", "ls"]
  ])("%s is %s", (command, purpose) => expect(purposeOf(command)).toBe(purpose))

  it("recognises test commands by their program or subcommand", () => {
    expect(["npm test", "go test ./...", "cargo test", "npm run test:int", "python -m pytest", "make test"].every(isTestCommand)).toBe(true)
    expect(["npm run build", "git commit -m test", "cat test.txt"].some(isTestCommand)).toBe(false)
  })

  it("takes the line of an error that names it", () => {
    expect(errorLine("Exit code 1\n\n> app@1 build\nnpm ERR! Missing script: \"buld\"\n")).toBe('npm ERR! Missing script: "buld"')
    expect(errorLine("Exit code 2")).toBe("")
  })
})
