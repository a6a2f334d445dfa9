/**
 * The security model of `mem serve`, against the real process: no network bind without a
 * token; with a token, nothing but /health without it; foreign Host names and origins refused
 * (DNS rebinding, cross-site requests); and never a CORS header.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { tempDir } from "../support/cli.js"
import { rawRequest, serveRefusal, startServe, stopAllServers, type Answer } from "../support/serve.js"

const TOKEN = "test-token-0123456789abcdef-XYZ"
const db = () => join(tempDir(), "m.db")
const portOf = (url: string) => new URL(url).port
const noCors = (answer: Answer) => expect([...answer.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([])

afterEach(stopAllServers)

describe("binding beyond loopback", () => {
  it("refuses to start without a token, saying how to give one", async () => {
    const ended = await serveRefusal(db(), { args: ["--host", "0.0.0.0"] })
    expect(ended.code).toBe(1)
    expect(ended.stderr).toMatch(/needs a bearer token: set MEMLEDGER_TOKEN, or add --create-token/)
  })

  it("refuses a token file that other users can read", async () => {
    const home = tempDir("memledger-home-")
    mkdirSync(join(home, ".memledger"), { mode: 0o700 })
    writeFileSync(join(home, ".memledger", "token"), "a-token-that-is-long-enough-to-use\n", { mode: 0o644 })
    chmodSync(join(home, ".memledger", "token"), 0o644)
    const ended = await serveRefusal(db(), { args: ["--host", "0.0.0.0"], env: { HOME: home } })
    expect(ended.code).toBe(1)
    expect(ended.stderr).toContain("chmod 600")
  })

  it("refuses a MEMLEDGER_TOKEN too short to be a secret", async () => {
    const ended = await serveRefusal(db(), { args: ["--host", "0.0.0.0"], env: { MEMLEDGER_TOKEN: "short" } })
    expect(ended.code).toBe(1)
    expect(ended.stderr).toMatch(/MEMLEDGER_TOKEN is shorter than 16 characters/)
  })

  it("wants the MEMLEDGER_TOKEN on every request but GET /health", async () => {
    const server = await startServe(db(), { args: ["--host", "0.0.0.0"], env: { MEMLEDGER_TOKEN: TOKEN } })
    const url = `http://127.0.0.1:${portOf(server.url)}`
    const bare = await rawRequest(url, "GET", "/stats")
    expect(bare.status).toBe(401)
    expect(bare.json()).toMatchObject({ error: "Unauthorized", status: 401 })
    expect(bare.headers.get("www-authenticate")).toMatch(/^Bearer/)
    expect(bare.json().message).toContain("MEMLEDGER_TOKEN")
    expect((await rawRequest(url, "GET", "/stats", { authorization: "Bearer not-the-token-at-all-000" })).status).toBe(401)
    expect((await rawRequest(url, "GET", "/stats", { authorization: TOKEN })).status).toBe(401)
    expect((await rawRequest(url, "GET", "/stats", { authorization: `Bearer ${TOKEN}` })).status).toBe(200)
    expect((await rawRequest(url, "GET", "/openapi.json")).status).toBe(401)
    expect((await rawRequest(url, "GET", "/health")).status).toBe(200)
  })

  it("generates an owner-only token file with --create-token, and reuses it on the next start", async () => {
    const home = tempDir("memledger-home-")
    const file = join(home, ".memledger", "token")
    const first = await startServe(db(), { args: ["--host", "0.0.0.0", "--create-token"], env: { HOME: home } })
    expect(first.stderr()).toContain(`created a bearer token in ${file}`)
    // The 401 names where the token is: the token file, not a MEMLEDGER_TOKEN it never had.
    const refused = await rawRequest(`http://127.0.0.1:${portOf(first.url)}`, "GET", "/stats")
    expect(refused.json().message).toContain("token file")
    expect(refused.json().message).not.toContain("MEMLEDGER_TOKEN")
    const token = readFileSync(file, "utf8").trim()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(home, ".memledger")).mode & 0o777).toBe(0o700)
    const url = `http://127.0.0.1:${portOf(first.url)}`
    expect((await rawRequest(url, "GET", "/stats", { authorization: `Bearer ${token}` })).status).toBe(200)
    expect((await rawRequest(url, "GET", "/stats")).status).toBe(401)
    await first.stop()

    const second = await startServe(db(), { args: ["--host", "0.0.0.0"], env: { HOME: home } })
    expect(readFileSync(file, "utf8").trim()).toBe(token)
    expect((await rawRequest(`http://127.0.0.1:${portOf(second.url)}`, "GET", "/stats", { authorization: `Bearer ${token}` })).status).toBe(200)
  })
})

describe("a loopback server", () => {
  it("needs no token, but uses MEMLEDGER_TOKEN when it is set", async () => {
    const open = await startServe(db())
    expect((await open.call("GET", "/stats")).status).toBe(200)
    const locked = await startServe(db(), { env: { MEMLEDGER_TOKEN: TOKEN } })
    expect((await locked.call("GET", "/stats")).status).toBe(401)
    expect((await locked.call("GET", "/stats", undefined, { authorization: `Bearer ${TOKEN}` })).status).toBe(200)
  })

  it("with --create-token, creates the token file (or takes the one there), requires it, and says so", async () => {
    const home = tempDir("memledger-home-")
    const file = join(home, ".memledger", "token")
    const first = await startServe(db(), { args: ["--create-token"], env: { HOME: home } })
    expect(first.stderr()).toContain(`created a bearer token in ${file}`)
    const token = readFileSync(file, "utf8").trim()
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect((await first.call("GET", "/stats")).status).toBe(401)
    expect((await first.call("GET", "/stats", undefined, { authorization: `Bearer ${token}` })).status).toBe(200)
    await first.stop()

    const second = await startServe(db(), { args: ["--create-token"], env: { HOME: home } })
    expect(second.stderr()).toContain(`the token from ${file}`)
    expect((await second.call("GET", "/stats", undefined, { authorization: `Bearer ${token}` })).status).toBe(200)
    expect(readFileSync(file, "utf8").trim()).toBe(token)
  })

  it("with --create-token and MEMLEDGER_TOKEN set, says that the variable's token is the one used and no file was made", async () => {
    const home = tempDir("memledger-home-")
    const server = await startServe(db(), { args: ["--create-token"], env: { HOME: home, MEMLEDGER_TOKEN: TOKEN } })
    expect(server.stderr()).toMatch(/MEMLEDGER_TOKEN is set.*no token file/)
    expect((await server.call("GET", "/stats", undefined, { authorization: `Bearer ${TOKEN}` })).status).toBe(200)
  })

  it("answers only to its own host names (DNS-rebinding defence)", async () => {
    const server = await startServe(db())
    const port = portOf(server.url)
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await rawRequest(server.url, "GET", "/stats", { host })).status, host).toBe(200)
    }
    for (const host of [`evil.example:${port}`, `attacker.com`, `127.0.0.1:${Number(port) + 1}`, `localhost`, `127.0.0.1.nip.io:${port}`]) {
      const answer = await rawRequest(server.url, "GET", "/stats", { host })
      expect(answer.status, host).toBe(421)
      expect(answer.json()).toMatchObject({ error: "MisdirectedRequest", status: 421 })
    }
    // Even a write with a valid body never reaches the store under a foreign name.
    const body = JSON.stringify({ content: "planted through a rebound name", scope: "global" })
    const write = await rawRequest(server.url, "POST", "/memories", { host: `evil.example:${port}`, "content-type": "application/json" }, body)
    expect(write.status).toBe(421)
    expect((await server.call("GET", "/stats")).json().events).toBe(0)
  })

  it("answers a reverse proxy's Host for an --allow-host name, at any port unless the option names one", async () => {
    const server = await startServe(db(), { args: ["--allow-host", "mem.example", "--allow-host", "other.example:8443"] })
    const port = portOf(server.url)
    for (const host of ["mem.example", "mem.example:443", `mem.example:${port}`, "other.example:8443"]) {
      expect((await rawRequest(server.url, "GET", "/stats", { host })).status, host).toBe(200)
    }
    for (const host of ["other.example", "other.example:443", `other.example:${port}`, "127.0.0.1", "127.0.0.1:443"]) {
      expect((await rawRequest(server.url, "GET", "/stats", { host })).status, host).toBe(421)
    }
  })

  it("refuses cross-origin requests and preflights, and never sends a CORS header", async () => {
    const server = await startServe(db())
    const port = portOf(server.url)
    const preflight = await rawRequest(server.url, "OPTIONS", "/memories", {
      origin: "http://evil.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type"
    })
    expect(preflight.status).toBe(405)
    expect(preflight.json()).toMatchObject({ error: "MethodNotAllowed" })
    noCors(preflight)

    const planted = JSON.stringify({ content: "planted by a web page", scope: "global" })
    const foreign = await rawRequest(server.url, "POST", "/memories", { origin: "http://evil.example", "content-type": "application/json" }, planted)
    expect(foreign.status).toBe(403)
    expect(foreign.json()).toMatchObject({ error: "Forbidden", status: 403 })
    noCors(foreign)
    for (const origin of ["null", `https://127.0.0.1:${port}`, `http://127.0.0.1:${Number(port) + 1}`]) {
      expect((await rawRequest(server.url, "GET", "/stats", { origin })).status, origin).toBe(403)
    }
    const own = await rawRequest(server.url, "GET", "/stats", { origin: `http://localhost:${port}` })
    expect(own.status).toBe(200)
    expect(own.json().events).toBe(0)
    for (const answer of [own, await server.call("GET", "/health"), await server.call("GET", "/nowhere"), await server.call("GET", "/docs")]) noCors(answer)
  })
})
