/**
 * Which command lines the hook bundle answers by itself: exactly the forms installers write. Any
 * other is the full CLI's to answer (help, misplaced or unknown options, a misspelt event), so
 * that `mem hook` means one thing whichever bundle runs it.
 */
import { describe, expect, it } from "vitest"
import { hookCommandOf } from "../../src/adapters/hook/hook-command.js"

const hook = (line: string) => hookCommandOf(line.split(" ").filter((word) => word !== ""))

describe("hookCommandOf", () => {
  it("reads the forms installers write", () => {
    expect(hook("hook post-tool-use")).toEqual({ event: "post-tool-use", agent: "claude-code" })
    expect(hook("--db /x/m.db hook stop")).toEqual({ event: "stop", agent: "claude-code", db: "/x/m.db" })
    expect(hook("--db=/x/m.db hook session-start --agent codex")).toEqual({ event: "session-start", agent: "codex", db: "/x/m.db" })
    expect(hook("hook session-start --agent=codex")).toEqual({ event: "session-start", agent: "codex" })
  })

  it("leaves every other command line to the CLI", () => {
    for (const line of [
      "hook",
      "hook --help",
      "hook stop --help",
      "hook post-tool-uses",
      "hook stop extra",
      "hook stop --agent",
      "hook stop --agent --json",
      "hook --agent codex stop",
      "hook stop --db /x/m.db",
      "--db hook stop",
      "--json hook stop",
      "stats hook",
      "add hook"
    ]) {
      expect(hook(line), line).toBeUndefined()
    }
  })
})
