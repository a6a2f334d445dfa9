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

/** The ids a server acknowledged as stored, and when it has acknowledged `n`. */
const acknowledgements = () => {
  const ids: string[] = []
  const waiting: { n: number; resolve: () => void }[] = []
  const add = (id: string) => {
    ids.push(id)
    for (const w of waiting.filter((w) => ids.length >= w.n)) w.resolve()
  }
  const reached = (n: number) => new Promise<void>((resolve) => (ids.length >= n ? resolve() : waiting.push({ n, resolve })))
  return { ids, add, reached }
}

/** Writes until the server stops answering, telling `acknowledged` each id it stored. */
const writeUntilRefused = async (server: Served, acknowledged: (id: string) => void): Promise<void> => {
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
    acknowledged(body.id)
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
    const acknowledged = acknowledgements()
    const writers = Array.from({ length: WRITERS }, () => writeUntilRefused(server, acknowledged.add))
    await server.before(acknowledged.reached(60), "acknowledging 60 writes")
    const ended = await server.stop("SIGTERM")
    await Promise.all(writers)

    expect(ended.signal).toBeNull()
    expect(ended.code, ended.stderr).toBe(0)
    expect(ended.stderr).not.toMatch(/internal error/i)

    const again = await startServe(db)
    const stored = (await again.call("GET", "/memories?limit=1000")).json().memories.map((m: { id: string }) => m.id)
    expect(new Set(stored).size).toBe(stored.length)
    for (const id of acknowledged.ids) expect(stored).toContain(id)
    await again.stop()
    expect(mem(["--db", db, "verify", "--json"]).json()).toMatchObject({ ok: true })
  })

  it("answers a request in flight at SIGTERM with Connection: close, so its client sends nothing more on that connection", async () => {
    const db = join(tempDir(), "m.db")
    const server = await startServe(db)
    const { hostname, port } = new URL(server.url)
    const idle = received(await openSocket(hostname, Number(port)))
    idle.socket.write(`GET /health HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`)
    await server.before(idle.seen(/^HTTP\/1\.1 200[^]*\r\n\r\n/), "answering the idle connection's request")
    const busy = received(await openSocket(hostname, Number(port)))
    const body = JSON.stringify({ content: "written while the server was stopping", scope: "global" })
    // Half the body now. Asked to, the server says "100 Continue" once it has taken the request
    // up: then the request is in flight when the signal comes.
    busy.socket.write(
      `POST /memories HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n${body.slice(0, 10)}`
    )
    await server.before(busy.seen(/^HTTP\/1\.1 100 Continue\r\n\r\n/), "taking up the request")
    server.child.kill("SIGTERM")
    // Idle keep-alive connections are closed at once, as any server closing them does: the server is stopping.
    expect(await idle.closed).toMatch(/^HTTP\/1\.1 200/)
    // The rest of the body, and a request pipelined behind it.
    busy.socket.write(`${body.slice(10)}GET /health HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`)
    const answers = (await busy.closed).replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "")
    const [head] = answers.split("\r\n\r\n")
    expect(head).toMatch(/^HTTP\/1\.1 200/)
    expect(head!.toLowerCase()).toContain("connection: close")
    expect(answers.match(/HTTP\/1\.1 /g)).toHaveLength(1)
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

/** What a socket receives: `seen` resolves once the text so far matches, `closed` with all of it once it closes. */
const received = (socket: Socket) => {
  let text = ""
  socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(text)))
  const seen = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => pattern.test(text) && resolve(text)
      socket.on("data", look)
      look()
      void closed.then(() => reject(new Error(`the connection closed before ${pattern}: ${JSON.stringify(text)}`)))
    })
  return { socket, seen, closed }
}
