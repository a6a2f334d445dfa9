/**
 * Protects the one check of who is writing (src/commands/actor.ts): it refuses exactly what the
 * event envelope's schemas refuse, so nothing that passes it can fail an append, and every
 * write path through `executeIn` (here: the SDK's local client) refuses a bad origin or agent
 * as InvalidInput, with nothing written, instead of a defect.
 */
import { join } from "node:path"
import { Either, Schema } from "effect"
import { describe, expect, test } from "vitest"
import { agentProblem, checkActor, originProblem } from "../../src/commands/actor.js"
import { Agent, Origin } from "../../src/domain/vocabulary.js"
import { MemledgerError, MemoryClient } from "../../src/sdk/index.js"
import { tempDir } from "../support/cli.js"

describe("checkActor", () => {
  test("agrees with the envelope's Origin and Agent schemas at every boundary", () => {
    for (const n of [0, 1, 99, 100, 101, 499, 500, 501]) {
      const value = "a".repeat(n)
      expect(originProblem(value) === undefined).toBe(Schema.is(Origin)(value))
      expect(agentProblem(value) === undefined).toBe(Schema.is(Agent)(value))
    }
  })

  test("names the field as the writer named it", () => {
    const refused = (actor: { origin: string; agent: string }, names?: { origin: string; agent: string }) =>
      Either.match(checkActor(actor, names), { onLeft: (e) => e.message, onRight: () => "passed" })
    expect(refused({ origin: "", agent: "cli" })).toBe("origin cannot be empty")
    expect(refused({ origin: "cli", agent: "a".repeat(101) }, { origin: "--origin", agent: "--agent" })).toBe("--agent is 101 characters; the limit is 100")
    expect(refused({ origin: "o".repeat(500), agent: "a".repeat(100) })).toBe("passed")
  })
})

describe("a write with a bad origin or agent", () => {
  test("is InvalidInput from the service, and writes nothing", async () => {
    const db = join(tempDir(), "m.db")
    const client = MemoryClient.local({ db, origin: "", project: "github.com/acme/app" })
    const error = await client.remember({ content: "never written", scope: "global" }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MemledgerError)
    expect(error).toMatchObject({ tag: "InvalidInput", message: "origin cannot be empty" })
    await client.close()
    const agent = MemoryClient.local({ db, agent: "x".repeat(101) })
    await expect(agent.remember({ content: "never written", scope: "global" })).rejects.toMatchObject({ tag: "InvalidInput" })
    expect((await agent.log({})).events).toHaveLength(0)
    await agent.close()
  })
})
