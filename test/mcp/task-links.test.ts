/**
 * `recall` over stdio links what it shows to the task in progress where the client runs (a
 * Beads issue here), as the CLI does, unless the call names its own task.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { describe, expect, it } from "vitest"
import { MEM_BIN, memAt, tempDir } from "../support/cli.js"
import { beadsProject } from "../support/task-files.js"
import { freshDb } from "./support.js"

describe("recall and the task in progress", () => {
  it("puts the in-progress Beads issue on the MemoriesRecalled event, or the task the call names", async () => {
    const db = freshDb()
    memAt(db)("add", "Invoices are rendered by the pdf worker in services/pdf", "--global")
    const project = beadsProject([
      { id: "bd-7", title: "Fix invoice layout", status: "in_progress", updated_at: "2026-11-01T10:00:00Z" },
      { id: "bd-8", title: "Old work", status: "closed", updated_at: "2026-10-01T10:00:00Z" }
    ])
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MEM_BIN, "--db", db, "mcp"],
      cwd: project,
      // No Claude Code todos: only the Beads issue is in progress.
      env: { MEMLEDGER_DB: "", MEMLEDGER_EMBEDDER: "none", HOME: tempDir(), CLAUDE_CODE_TODOS_DIR: tempDir() }
    })
    const client = new Client({ name: "task-test", version: "1.0.0" })
    await client.connect(transport)
    await client.callTool({ name: "recall", arguments: { query: "invoice pdf worker" } })
    await client.callTool({ name: "recall", arguments: { query: "invoice pdf worker", task: "linear:ENG-1" } })
    await client.close()

    const recalls = memAt(db)("log", "--json").json().filter((e: { type: string }) => e.type === "MemoriesRecalled")
    // The log lists the newest first.
    expect(recalls.map((e: { payload: { task?: string } }) => e.payload.task)).toEqual(["linear:ENG-1", "beads:bd-7"])
  })
})
