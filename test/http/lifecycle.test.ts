/**
 * Starting and stopping `mem serve`: a store it cannot open and a port in use stop it with
 * exit 1 and a message; SIGTERM while writes are in flight exits 0, and every write it
 * acknowledged with a 200 is in the store afterwards (read back by a fresh server).
 */
import { randomBytes } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { mem, tempDir } from "../support/cli.js"
import { serveRefusal, startServe, stopAllServers, type Served } from "../support/serve.js"

afterEach(stopAllServers)

const WRITERS = 12

/** Distinct random words, so that no write is taken for a near-duplicate of another. */
const uniqueContent = () => `Note ${Array.from({ length: 6 }, () => randomBytes(4).toString("hex")).join(" ")}`

/** Writes until the server stops answering; returns the ids it acknowledged as stored. */
const writeUntilRefused = async (server: Served, acknowledged: string[]): Promise<void> => {
  for (;;) {
    let answer
    try {
      answer = await server.call("POST", "/memories", { content: uniqueContent(), scope: "global" })
    } catch {
      return // connection refused or closed: the server is gone
    }
    if (answer.status !== 200) {
      expect(answer.status, answer.text).toBe(503)
      return
    }
    const body = answer.json()
    expect(body.stored, answer.text).toBe(true)
    acknowledged.push(body.id)
  }
}

describe("start-up", () => {
  it("refuses a file that is not a memledger store, and leaves it alone", async () => {
    const db = join(tempDir(), "notes.txt")
    writeFileSync(db, "my notes, not a database\n")
    const ended = await serveRefusal(db)
    expect(ended.code).toBe(1)
    expect(ended.stderr).toContain(db)
    expect(ended.stderr).not.toContain("mem: serving")
    expect(readFileSync(db, "utf8")).toBe("my notes, not a database\n")
  })

  it("refuses a port that is in use", async () => {
    const first = await startServe(join(tempDir(), "m.db"))
    const ended = await serveRefusal(join(tempDir(), "m.db"), { port: Number(new URL(first.url).port) })
    expect(ended.code).toBe(1)
    expect(ended.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the port is in use/)
  })
})

describe("shutdown", () => {
  it("on SIGTERM, exits 0 without losing a write it acknowledged", async () => {
    const db = join(tempDir(), "m.db")
    const server = await startServe(db)
    const acknowledged: string[] = []
    const writers = Array.from({ length: WRITERS }, () => writeUntilRefused(server, acknowledged))
    while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 20))
    const ended = await server.stop("SIGTERM")
    await Promise.all(writers)

    expect(ended.signal).toBeNull()
    expect(ended.code, ended.stderr).toBe(0)
    expect(ended.stderr).not.toMatch(/internal error/i)

    const again = await startServe(db)
    const stored = (await again.call("GET", "/memories?limit=1000")).json().memories.map((m: { id: string }) => m.id)
    expect(new Set(stored).size).toBe(stored.length)
    for (const id of acknowledged) expect(stored).toContain(id)
    await again.stop()
    expect(mem(["--db", db, "verify", "--json"]).json()).toMatchObject({ ok: true })
  })

  it("answers a request in flight at SIGTERM with Connection: close, so its client sends nothing more on that connection", { timeout: 20_000 }, async () => {
    const db = join(tempDir(), "m.db")
    const server = await startServe(db)
    const { hostname, port } = new URL(server.url)
    const idle = await openSocket(hostname, Number(port))
    idle.write(`GET /health HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`)
    const idleClosed = readUntilClosed(idle)
    const busy = await openSocket(hostname, Number(port))
    const body = JSON.stringify({ content: "written while the server was stopping", scope: "global" })
    // Half the body now: the request is in flight when the signal comes.
    busy.write(`POST /memories HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    server.child.kill("SIGTERM")
    // Idle keep-alive connections are closed at once, as any server closing them does.
    expect(await idleClosed).toMatch(/^HTTP\/1\.1 200/)
    await new Promise((resolve) => setTimeout(resolve, 300))
    // The rest of the body, and a request pipelined behind it.
    busy.write(`${body.slice(10)}GET /health HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`)
    const received = await readUntilClosed(busy)
    const [head] = received.split("\r\n\r\n")
    expect(head).toMatch(/^HTTP\/1\.1 200/)
    expect(head!.toLowerCase()).toContain("connection: close")
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1)
    const ended = await server.exited
    expect(ended.code, ended.stderr).toBe(0)
    expect(mem(["--db", db, "list", "--all", "--json"]).stdout).toContain("written while the server was stopping")
  })

  it("exits 0 on SIGINT too", async () => {
    const server = await startServe(join(tempDir(), "m.db"))
    expect((await server.call("GET", "/health")).status).toBe(200)
    const ended = await server.stop("SIGINT")
    expect(ended.code, ended.stderr).toBe(0)
  })
})

const openSocket = (host: string, port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, host, () => resolve(socket))
    socket.once("error", reject)
  })

const readUntilClosed = (socket: Socket) =>
  new Promise<string>((resolve) => {
    let text = ""
    socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
    socket.once("close", () => resolve(text))
  })
