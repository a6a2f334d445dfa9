/**
 * Hook state lives in a state folder, one subfolder per store, so it works for a store that is
 * not a file and two stores never share it; state kept beside a store file is picked up once.
 * Through the real `mem hook` process, against real store files.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { sessionsFolder, stateRoot, storeStateFolder } from "../../src/hooks/state-folder.js"
import { loadSession } from "../../src/hooks/session-state.js"
import { mem, tempDir } from "../support/cli.js"

const postToolUse = (db: string, session: string, command: string) =>
  mem(["--db", db, "hook", "post-tool-use"], {
    input: JSON.stringify({ session_id: session, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command }, tool_response: { stdout: "", stderr: "" } })
  })

describe("the state folder", () => {
  it("keeps a session's state under the store's own folder, not beside the store file", () => {
    const dir = tempDir()
    const db = join(dir, "m.db")
    expect(postToolUse(db, "s1", "npm test").code).toBe(0)
    expect(existsSync(join(dir, "sessions"))).toBe(false)
    expect(readdirSync(join(storeStateFolder(db), "sessions"))).toEqual(["s1.json"])
    expect(loadSession(db, "s1").commands).toEqual(["npm test"])
  })

  it("gives two stores two folders, and a server's URL one of its own", () => {
    const dir = tempDir()
    const [a, b] = [join(dir, "a.db"), join(dir, "b.db")]
    expect(storeStateFolder(a)).not.toBe(storeStateFolder(b))
    expect(storeStateFolder(a)).toBe(storeStateFolder(join(dir, ".", "a.db")))
    expect(storeStateFolder("http://127.0.0.1:7777")).not.toBe(storeStateFolder("http://127.0.0.1:7778"))
    for (const folder of [a, b, "http://127.0.0.1:7777"].map((s) => storeStateFolder(s))) expect(folder.startsWith(stateRoot())).toBe(true)
    postToolUse(a, "same", "make a")
    postToolUse(b, "same", "make b")
    expect(loadSession(a, "same").commands).toEqual(["make a"])
    expect(loadSession(b, "same").commands).toEqual(["make b"])
  })

  it("takes state kept beside a store file once, and leaves nothing behind", () => {
    const dir = tempDir()
    const db = join(dir, "m.db")
    mkdirSync(join(dir, "sessions"))
    writeFileSync(join(dir, "sessions", "old.json"), JSON.stringify({ lastSeq: 7, commands: ["pytest"], cited: [], attributed: [], transcriptOffset: 0 }))
    expect(postToolUse(db, "old", "pytest -x").code).toBe(0)
    expect(existsSync(join(dir, "sessions"))).toBe(false)
    expect(loadSession(db, "old")).toMatchObject({ lastSeq: 7, commands: ["pytest", "pytest -x"] })
    // A folder that appears beside the file later is not taken again over what is there.
    mkdirSync(join(dir, "sessions"))
    writeFileSync(join(dir, "sessions", "old.json"), JSON.stringify({ lastSeq: 1, commands: [], cited: [], attributed: [], transcriptOffset: 0 }))
    expect(sessionsFolder(db)).toBe(join(storeStateFolder(db), "sessions"))
    expect(loadSession(db, "old").lastSeq).toBe(7)
  })

  it("is MEMLEDGER_STATE_DIR when set, else ~/.memledger/state", () => {
    expect(stateRoot({ MEMLEDGER_STATE_DIR: "/srv/state" })).toBe("/srv/state")
    expect(stateRoot({ HOME: "/home/x" }).endsWith(join(".memledger", "state"))).toBe(true)
  })
})
