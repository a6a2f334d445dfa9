/**
 * `mem ui`: a loopback server for the store, its console's address printed on stdout, the
 * tasks found where it runs listed beside those the log names; a browser is opened only where
 * a desktop exists, and never is an error where none does.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { openerFor } from "../../src/adapters/cli/open-browser.js"
import { MEM_BIN, memAt, tempDir } from "../support/cli.js"
import { beadsProject } from "../support/task-files.js"

const children: Array<ReturnType<typeof spawn>> = []
afterAll(() => children.forEach((c) => c.kill("SIGKILL")))

describe("mem ui", () => {
  it("prints the console's loopback address, serves the page there, and stops cleanly", async () => {
    const db = join(tempDir(), "ui.db")
    expect(memAt(db)("add", "A memory to look at.").code).toBe(0)
    const env = { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_TOKEN: "", HOME: tempDir(), DISPLAY: "", WAYLAND_DISPLAY: "" }
    // It runs in a project with a Beads issue: the console lists it among the tasks.
    const project = beadsProject([{ id: "bd-7", title: "Ship the console", status: "in_progress", updated_at: "2026-01-02T10:00:00Z" }])
    const child = spawn(process.execPath, [MEM_BIN, "--db", db, "ui"], { env, cwd: project, stdio: ["ignore", "pipe", "pipe"] })
    children.push(child)
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve))
    const url = await new Promise<string>((resolve, reject) => {
      let out = ""
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk
        const match = /memledger console: (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(out)
        if (match) resolve(match[1]!)
      })
      void exited.then((code) => reject(new Error(`mem ui exited (${code}) before printing its address`)))
    })
    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<script type="module" src="/console/app.js">')
    const memories = (await (await fetch(`${url}memories`)).json()) as { memories: Array<{ content: string }> }
    expect(memories.memories[0]?.content).toBe("A memory to look at.")
    const tasks = (await (await fetch(`${url}tasks`)).json()) as { found?: Array<{ ref: string; title: string }> }
    expect(tasks.found?.map((t) => [t.ref, t.title])).toEqual([["beads:bd-7", "Ship the console"]])
    child.kill("SIGTERM")
    expect(await exited).toBe(0)
  })

  it("opens a browser with the desktop's opener, and none without a desktop", () => {
    expect(openerFor({}, "linux")).toBeUndefined()
    expect(openerFor({ DISPLAY: ":0" }, "linux")?.command).toBe("xdg-open")
    expect(openerFor({ WAYLAND_DISPLAY: "wayland-0" }, "linux")?.command).toBe("xdg-open")
    expect(openerFor({}, "darwin")?.command).toBe("open")
  })
})
