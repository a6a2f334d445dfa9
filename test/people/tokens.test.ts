/**
 * People's tokens (`mem token`): a token is printed once and only its hash is kept, in the
 * store (both stores, outside the log: an export holds none of it); a name may hold several
 * tokens, each verified in constant time against the kept hashes; revoking a name withdraws
 * them all.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { hashToken } from "../../src/people/tokens.js"
import { People, PeopleLive } from "../../src/services/people.js"
import { StoreLive } from "../../src/services/app.js"
import { StoreMaintenance } from "../../src/store/store-maintenance.js"
import { memAt, tempDir } from "../support/cli.js"
import { dropTestDatabases } from "../support/postgres.js"
import { STORE_LOCATIONS } from "../support/store-locations.js"

describe("mem token", () => {
  test("add prints the token once, list never shows it, and the store keeps only its hash", () => {
    const db = join(tempDir(), "m.db")
    const run = memAt(db)
    const added = run("token", "add", "alice", "--admin", "--json")
    expect(added.code).toBe(0)
    const alice = added.json()
    expect(alice).toMatchObject({ name: "alice", admin: true, agent: false })
    expect(alice.token).toMatch(/^mem_[A-Za-z0-9_-]{43}$/)
    const human = run("token", "add", "codex-bot", "--agent")
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/^token for codex-bot \(agent\):\nmem_[A-Za-z0-9_-]{43}\n/)

    const listed = run("token", "list", "--json")
    expect(listed.json().tokens.map((t: { name: string }) => t.name)).toEqual(["alice", "codex-bot"])
    expect(listed.json().tokens[0]).toEqual({ name: "alice", admin: true, agent: false, createdAt: alice.createdAt })
    expect(listed.stdout).not.toContain(alice.token)
    expect(listed.stdout).not.toContain(hashToken(alice.token))
    expect(run("token", "list").stdout).toMatch(/^alice\s+\S+Z\s+admin\ncodex-bot\s+\S+Z\s+agent$/m)

    // The file holds the hash, never the token; an export of the log holds neither.
    const bytes = readFileSync(db).toString("latin1") + readFileSync(`${db}-wal`, { flag: "a+" }).toString("latin1")
    expect(bytes).not.toContain(alice.token)
    run("add", "a memory, so that there is a log to export", "--global")
    const file = join(tempDir(), "log.jsonl")
    expect(run("export", file).code).toBe(0)
    expect(readFileSync(file, "utf8")).not.toContain(hashToken(alice.token))
  })

  test("revoke withdraws every token of the name; a name with none is an error", () => {
    const run = memAt(join(tempDir(), "m.db"))
    run("token", "add", "bob")
    run("token", "add", "bob", "--agent")
    run("token", "add", "carol")
    const revoked = run("token", "revoke", "bob", "--json")
    expect(revoked.json()).toEqual({ name: "bob", revoked: 2 })
    expect(run("token", "list", "--json").json().tokens.map((t: { name: string }) => t.name)).toEqual(["carol"])
    const again = run("token", "revoke", "bob", "--json")
    expect(again.code).toBe(1)
    expect(JSON.parse(again.stderr)).toMatchObject({ error: "NoTokenNamed" })
  })

  test("a name must be a name, and not the server token's own", () => {
    const run = memAt(join(tempDir(), "m.db"))
    for (const name of ["al ice", "_alice", "x".repeat(65), "owner"]) {
      const result = run("token", "add", name, "--json")
      expect(result.code, name).toBe(1)
      expect(JSON.parse(result.stderr), name).toMatchObject({ error: "InvalidInput" })
    }
  })
})

describe("the People service on each store", () => {
  afterAll(dropTestDatabases)

  for (const [name, location] of STORE_LOCATIONS) {
    test(`verifies each of a name's tokens, nothing else, and nothing once revoked; two openings share them (${name})`, async () => {
      const where = await location()
      const open = () => ManagedRuntime.make(PeopleLive.pipe(Layer.provideMerge(StoreLive(where, DEFAULT_CONFIG, { create: true }))))
      const server = open()
      const other = open()
      const people = <A, E>(runtime: ReturnType<typeof open>, f: (p: typeof People.Service) => Effect.Effect<A, E>) => runtime.runPromise(Effect.flatMap(People, f))
      expect(await people(server, (p) => p.any)).toBe(false)
      const first = await people(server, (p) => p.add("alice", { admin: false, agent: false }))
      const second = await people(server, (p) => p.add("alice", { admin: false, agent: true }))
      const bob = await people(server, (p) => p.add("bob", { admin: true, agent: false }))
      // Another process on the same store sees them: they live in the store, not in a server.
      expect(await people(other, (p) => p.verify(first.token))).toEqual({ name: "alice", admin: false, agent: false })
      expect(await people(other, (p) => p.verify(second.token))).toEqual({ name: "alice", admin: false, agent: true })
      expect(await people(other, (p) => p.verify(bob.token))).toEqual({ name: "bob", admin: true, agent: false })
      expect(await people(other, (p) => p.verify(`${first.token}x`))).toBeUndefined()
      expect(await people(other, (p) => p.verify(""))).toBeUndefined()
      expect(await people(other, (p) => p.revoke("alice"))).toEqual({ name: "alice", revoked: 2 })
      expect(await people(server, (p) => p.verify(first.token))).toBeUndefined()
      expect(await people(server, (p) => p.verify(second.token))).toBeUndefined()
      expect(await people(server, (p) => p.verify(bob.token))).toMatchObject({ name: "bob" })
      expect((await people(server, (p) => p.list)).map((t) => t.name)).toEqual(["bob"])
      expect(await people(server, (p) => p.any)).toBe(true)
      // Not in the log: the log of a store that holds tokens is still empty.
      expect(await server.runPromise(Effect.flatMap(StoreMaintenance, (m) => m.isEmpty))).toBe(true)
      await Promise.all([server.dispose(), other.dispose()])
    })
  }
})
