/**
 * Protects a person's terminal from what an agent wrote: escape sequences in a memory (a
 * window title set with OSC, a screen cleared with CSI, 8-bit C1 controls, a carriage return
 * that overwrites the line) are shown as visible text in the human output of `mem`, never
 * sent to the terminal as controls. `--json` keeps the text exact. Through the real binary.
 */
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"

const text = "Deploy notes \u001b]0;pwned\u0007 then \u001b[2J\u001b[H cleared \u009b31m red \u007f and\rover\nsecond line\tand a tab"
/** Every control a terminal acts on, except the line feed and the tab that text is laid out with. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
/** The window-title sequence, shown as characters (context quotes memories as JSON strings: \u001b). */
const SHOWN_TITLE = /\\(?:x1b|u001b)\]0;pwned\\(?:x07|u0007)/

let run: ReturnType<typeof memAt>
let id: string

beforeAll(() => {
  run = memAt(join(tempDir(), "m.db"))
  id = run("add", text, "-c", "command", "--global", "--json").json().id
})

describe("human output", () => {
  it.each([
    ["show", () => ["show", id]],
    ["list", () => ["list"]],
    ["search", () => ["search", "deploy notes cleared"]],
    ["context", () => ["context", "--query", "deploy notes cleared"]],
    ["log", () => ["log"]]
  ])("of mem %s holds no raw control, and shows each one visibly", (_name, args) => {
    const out = run(...args())
    expect(out.code).toBe(0)
    expect(out.stdout).not.toMatch(RAW_CONTROL)
    expect(out.stdout).toMatch(SHOWN_TITLE)
  })

  it("keeps line feeds and tabs where the text has them", () => {
    expect(run("show", id).stdout).toContain("second line\tand a tab")
  })

  it("of an error quoting what was typed holds no raw control", () => {
    const out = run("show", "\u001b[2Jabcdef")
    expect(out.code).not.toBe(0)
    expect(out.stderr).not.toMatch(RAW_CONTROL)
    expect(out.stderr).toContain("\\x1b[2J")
  })
})

describe("--json", () => {
  it("keeps the text exact", () => {
    expect(run("show", id, "--json").json().content).toBe(text)
  })
})
