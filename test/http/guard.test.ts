/** Each rule of the request guard alone, and the host names each kind of bind accepts. */
import { describe, expect, it } from "vitest"
import { acceptedHostNames, isLoopbackHost, parseAllowedHost } from "../../src/adapters/http/bind-host.js"
import { checkRequest, type GuardPolicy } from "../../src/adapters/http/guard.js"

const policy = (): GuardPolicy => ({ hostNames: acceptedHostNames("127.0.0.1"), port: 7077 })
const check = (p: GuardPolicy, method: string, path: string, headers: Record<string, string>) =>
  checkRequest(p, { method, path, header: (name) => headers[name] })?.body

describe("the guard", () => {
  it("accepts the loopback names at the bound port only", () => {
    for (const host of ["127.0.0.1:7077", "localhost:7077", "[::1]:7077", "LocalHost:7077"]) expect(check(policy(), "GET", "/stats", { host }), host).toBeUndefined()
    for (const host of ["127.0.0.1:7078", "localhost", "evil.example:7077", "127.0.0.1.evil.example:7077", "127.0.0.1:7077:1", ""]) {
      expect(check(policy(), "GET", "/stats", { host })?.status, host).toBe(421)
    }
    expect(check(policy(), "GET", "/stats", {})?.status).toBe(421)
  })

  it("answers no preflight and refuses foreign origins, but lets the server's own through", () => {
    const host = "127.0.0.1:7077"
    expect(check(policy(), "OPTIONS", "/memories", { host })).toMatchObject({ status: 405, error: "MethodNotAllowed" })
    for (const origin of ["http://evil.example", "null", "https://127.0.0.1:7077", "http://127.0.0.1:7078", "not a url"]) {
      expect(check(policy(), "POST", "/memories", { host, origin }), origin).toMatchObject({ status: 403, error: "Forbidden" })
    }
    expect(check(policy(), "POST", "/memories", { host, origin: "http://localhost:7077" })).toBeUndefined()
  })

  it("knows loopback addresses", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isLoopbackHost(h), h).toBe(true)
    for (const h of ["0.0.0.0", "::", "192.168.1.5", "example.com", "128.0.0.1"]) expect(isLoopbackHost(h), h).toBe(false)
  })

  it("accepts this machine's names on a wildcard bind", () => {
    const wildcard = acceptedHostNames("0.0.0.0")
    expect(wildcard.has("127.0.0.1")).toBe(true)
    expect(wildcard.has("localhost")).toBe(true)
    expect(wildcard.has("evil.example")).toBe(false)
    expect([...acceptedHostNames("192.168.1.5")]).toEqual(["192.168.1.5"])
  })

  it("reads an --allow-host as a name at any port, or a name:port at that port only", () => {
    expect(parseAllowedHost("Mem.Example")).toEqual({ name: "mem.example", port: undefined })
    expect(parseAllowedHost("mem.example:443")).toEqual({ name: "mem.example", port: 443 })
    expect(parseAllowedHost("[::1]:8080")).toEqual({ name: "[::1]", port: 8080 })
    expect(parseAllowedHost("fe80::1")).toEqual({ name: "[fe80::1]", port: undefined })
    const proxied: GuardPolicy = { ...policy(), allowedHosts: ["mem.example", "other.example:8443"].map(parseAllowedHost) }
    for (const host of ["mem.example", "mem.example:443", "MEM.example:7077", "other.example:8443", "127.0.0.1:7077"]) {
      expect(check(proxied, "GET", "/stats", { host }), host).toBeUndefined()
    }
    for (const host of ["other.example", "other.example:443", "127.0.0.1", "127.0.0.1:443", "evil.example"]) {
      expect(check(proxied, "GET", "/stats", { host })?.status, host).toBe(421)
    }
  })
})
