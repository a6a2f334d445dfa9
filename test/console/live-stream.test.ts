/**
 * The live log ends its subscription when its client goes, and a server shutting down cuts it
 * rather than waiting out the grace period: a page left open, closed or reloaded leaves no
 * poller behind. In process, with the real server and a store's real `subscribe`, counted.
 */
import { join } from "node:path"
import { Effect, ManagedRuntime, Stream } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { makeRestWebHandler } from "../../src/adapters/http/rest-app.js"
import { startServer } from "../../src/adapters/http/server.js"
import { Operations } from "../../src/api/operations.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { Console, type ConsoleApi } from "../../src/services/console.js"
import { tempDir } from "../support/cli.js"

const runtime = ManagedRuntime.make(LocalOperationsLayer(join(tempDir(), "live.db")))
afterAll(() => runtime.dispose())

describe("GET /events/live", () => {
  it("answers at once, stops polling when each client leaves, and does not hold up shutdown", async () => {
    const store = await runtime.runPromise(Console)
    const counts = { opened: 0, ended: 0 }
    const counted: ConsoleApi = {
      ...store,
      subscribe: (after) => {
        counts.opened++
        return store.subscribe(after).pipe(Stream.ensuring(Effect.sync(() => counts.ended++)))
      }
    }
    const rest = makeRestWebHandler(await runtime.runPromise(Operations), counted)
    const server = await startServer({ host: "127.0.0.1", port: 0, token: null, api: { handle: (r) => rest.handler(r), close: () => rest.dispose() }, log: () => undefined })
    for (let i = 0; i < 3; i++) {
      const leave = new AbortController()
      // The store is empty: the headers must come without waiting for an event.
      const response = await fetch(`${server.url}/events/live`, { signal: leave.signal })
      expect(response.status).toBe(200)
      leave.abort()
      await response.body?.cancel().catch(() => undefined)
    }
    await expect.poll(() => counts.ended, { timeout: 3000 }).toBe(3)
    const open = await fetch(`${server.url}/events/live`)
    expect(open.status).toBe(200)
    const started = Date.now()
    await server.close()
    expect(Date.now() - started).toBeLessThan(2000)
    expect(counts).toEqual({ opened: 4, ended: 4 })
  })
})
