/**
 * Protects the identities a write is recorded under (its origin, agent and project) from
 * carrying a secret into the log. They are names, stored verbatim and shown everywhere, so a
 * value that holds a secret is refused, naming the field, rather than redacted into a name
 * that no longer says whose it is: exit 2 on the command line, 400 over REST, isError over MCP.
 * Every surface is the real one: the `mem` binary, a REST server on a socket, a stdio MCP
 * client, each on a real store file whose bytes are then searched for the secret.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"
import { startRestServer, type RestServer } from "../support/rest-server.js"
import { connectStdio, textOf } from "../mcp/support.js"
import { example } from "./fake-secrets.js"

const token = example("github token").sensitive
const gitlab = example("gitlab token").sensitive

/** Every byte SQLite keeps for a store: the file, its WAL and anything else beside it. */
const storeBytes = (db: string): Buffer =>
  Buffer.concat(
    readdirSync(dirname(db))
      .map((name) => join(dirname(db), name))
      .filter((path) => path.startsWith(db) && existsSync(path))
      .map((path) => readFileSync(path))
  )

describe("the command line", () => {
  let db: string
  let run: ReturnType<typeof memAt>
  beforeAll(() => {
    db = join(tempDir(), "m.db")
    run = memAt(db)
    expect(run("add", "The store exists before the refusals", "--global").code).toBe(0)
  })

  it("refuses an --origin holding a token, naming it, and stores none of it", () => {
    const refused = run("add", "Use pnpm", "--global", "--origin", `claude-code:session/${token}`)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^mem: --origin holds what looks like a secret \(github token\)/)
    expect(refused.stderr).not.toContain(token)
    const json = run("add", "Use pnpm", "--global", "--origin", `claude-code:session/${token}`, "--json")
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stderr)).toMatchObject({ error: "SecretInIdentity" })
    expect(storeBytes(db).includes(token)).toBe(false)
  })

  it("refuses an --agent or a --project holding one the same way", () => {
    const agent = run("add", "Use pnpm", "--global", "--agent", `bot-${token}`)
    expect(agent.code).toBe(2)
    expect(agent.stderr).toContain("--agent holds what looks like a secret")
    const project = run("add", "Use pnpm", "-p", `github.com/acme/app?token=${gitlab}`)
    expect(project.code).toBe(2)
    expect(project.stderr).toContain("project holds what looks like a secret")
    expect(storeBytes(db).includes(token)).toBe(false)
    expect(storeBytes(db).includes(gitlab)).toBe(false)
  })

  it("refuses an imported line whose origin holds one, naming the line", () => {
    const file = join(tempDir(), "in.jsonl")
    writeFileSync(file, `${JSON.stringify({ content: "Use pnpm", origin: `codex:thread/${token}` })}\n`)
    const refused = run("import", file)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("line 1: origin holds what looks like a secret")
    expect(storeBytes(db).includes(token)).toBe(false)
  })
})

describe("a project named after a git remote", () => {
  it("keeps the host and path of the remote, never its credentials", () => {
    const folder = tempDir("memledger-project-")
    mkdirSync(join(folder, ".git"))
    writeFileSync(join(folder, ".git", "config"), `[remote "origin"]\n\turl = https://user:${token}@github.com/acme/app.git\n`)
    const db = join(tempDir(), "m.db")
    const added = mem(["--db", db, "add", "Use pnpm", "--json"], { cwd: folder })
    expect(added.code).toBe(0)
    expect(mem(["--db", db, "show", added.json().id, "--json"]).json().project).toBe("github.com/acme/app")
    expect(storeBytes(db).includes(token)).toBe(false)
  })
})

describe("REST", () => {
  let server: RestServer
  beforeAll(async () => {
    server = await startRestServer()
  })
  afterAll(() => server.close())

  const remember = (body: object, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/memories`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })

  it("answers 400 to an origin header, an origin field or a project holding a secret, naming it", async () => {
    const header = await remember({ content: "Use pnpm", scope: "global" }, { "x-memledger-origin": `claude-code:session/${token}` })
    expect(header.status).toBe(400)
    expect(await header.json()).toMatchObject({ error: "SecretInIdentity", message: expect.stringMatching(/^origin holds what looks like a secret/) })
    const field = await remember({ content: "Use pnpm", scope: "global", origin: `claude-code:session/${token}` })
    expect(field.status).toBe(400)
    const project = await remember({ content: "Use pnpm", project: `github.com/acme/${token}` })
    expect(project.status).toBe(400)
    expect(await project.json()).toMatchObject({ message: expect.stringMatching(/^project holds what looks like a secret/) })
    expect(storeBytes(server.dbPath).includes(token)).toBe(false)
  })
})

describe("MCP", () => {
  it("answers remember with an origin holding a secret as an error naming it", async () => {
    const db = join(tempDir(), "m.db")
    const server = await connectStdio(db)
    try {
      const result = (await server.client.callTool({ name: "remember", arguments: { content: "Use pnpm", scope: "global", origin: `claude-code:session/${token}` } })) as CallToolResult
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/^origin holds what looks like a secret/)
      expect(existsSync(db) ? storeBytes(db).includes(token) : false).toBe(false)
    } finally {
      await server.close()
    }
  })
})
