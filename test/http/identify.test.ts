/**
 * Who a request comes from (src/adapters/http/identify.ts), each rule alone: the server's own
 * token is the admin `owner`; a person's token is looked up on every request, so a revoked one
 * is refused from the next request on; a token is needed everywhere but GET /health and the
 * console's files once the server has one, listens off loopback or the store holds people's.
 */
import { describe, expect, it } from "vitest"
import { identifier, type IdentityPolicy, type PeopleCheck } from "../../src/adapters/http/identify.js"
import { OWNER, type Person } from "../../src/domain/person.js"

const alice: Person = { name: "alice", admin: false, agent: false }

/** A store's people, whose tokens can be revoked while the server runs. */
const people = (tokens: Record<string, Person>): PeopleCheck & { revoke: (token: string) => void } => {
  const live = new Map(Object.entries(tokens))
  return { verify: async (token) => live.get(token), any: async () => live.size > 0, revoke: (token) => void live.delete(token) }
}

/** One server's identifier per policy, as `mem serve` makes one for its life. */
const servers = new WeakMap<IdentityPolicy, ReturnType<typeof identifier>>()
const ask = (policy: IdentityPolicy, path: string, authorization?: string, method = "GET") => {
  let identify = servers.get(policy)
  if (identify === undefined) servers.set(policy, (identify = identifier(policy)))
  return identify({ method, path, header: () => authorization })
}

const SERVER_TOKEN = "s3cret-token-of-some-length"

describe("identify", () => {
  it("takes the server's own token, exactly, as the admin owner, everywhere but GET /health", async () => {
    const policy: IdentityPolicy = { token: SERVER_TOKEN, offLoopback: false }
    expect(await ask(policy, "/stats", `Bearer ${SERVER_TOKEN}`)).toEqual({ person: OWNER })
    expect(await ask(policy, "/stats", `bearer ${SERVER_TOKEN}`)).toEqual({ person: OWNER })
    for (const authorization of [undefined, `Bearer ${SERVER_TOKEN}X`, `Basic ${SERVER_TOKEN}`]) {
      expect(await ask(policy, "/stats", authorization), String(authorization)).toMatchObject({ refusal: { body: { status: 401, error: "Unauthorized" } } })
    }
    expect(await ask(policy, "/health")).toEqual({ person: undefined })
    expect(await ask(policy, "/health", undefined, "POST")).toMatchObject({ refusal: { body: { status: 401 } } })
  })

  it("finds a person by their token, and refuses it once revoked", async () => {
    const store = people({ "mem_alice-token": alice })
    const policy: IdentityPolicy = { token: SERVER_TOKEN, offLoopback: false, people: store }
    expect(await ask(policy, "/memories", "Bearer mem_alice-token")).toEqual({ person: alice })
    store.revoke("mem_alice-token")
    const refused = await ask(policy, "/memories", "Bearer mem_alice-token")
    expect(refused).toMatchObject({ refusal: { body: { status: 401 }, headers: { "www-authenticate": 'Bearer realm="memledger"' } } })
    expect(JSON.stringify(refused)).toMatch(/unknown, or revoked/)
  })

  it("needs a token once the store holds people's, even on loopback without one of its own", async () => {
    const store = people({})
    const policy: IdentityPolicy = { token: null, offLoopback: false, people: store }
    expect(await ask(policy, "/memories")).toEqual({ person: undefined })
    // A client that sends a token to a server that asks for none is let through as before.
    expect(await ask(policy, "/memories", "Bearer anything-at-all-here")).toEqual({ person: undefined })
    const withPeople = people({ "mem_alice-token": alice })
    const guarded: IdentityPolicy = { token: null, offLoopback: false, people: withPeople }
    expect(await ask(guarded, "/memories")).toMatchObject({ refusal: { body: { status: 401 } } })
    expect(await ask(guarded, "/memories", "Bearer mem_alice-token")).toEqual({ person: alice })
    // Revoking the last token does not open the server again to anyone without one.
    withPeople.revoke("mem_alice-token")
    expect(await ask(guarded, "/memories", "Bearer mem_alice-token")).toMatchObject({ refusal: { body: { status: 401 } } })
    expect(await ask(guarded, "/console/app.js")).toEqual({ person: undefined })
  })

  it("off loopback, wants a token of every request whatever the store holds", async () => {
    const policy: IdentityPolicy = { token: null, offLoopback: true, people: people({}) }
    expect(await ask(policy, "/stats")).toMatchObject({ refusal: { body: { status: 401 } } })
    expect(await ask(policy, "/")).toEqual({ person: undefined })
  })
})
