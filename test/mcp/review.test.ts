/**
 * The review tool over a real stdio server: it lists the tentative memories, confirms the ones
 * the user accepts and forgets the ones they reject, and lists what still waits.
 */
import { expect, it } from "vitest"
import { serverForFile } from "./support.js"

const { call } = serverForFile()
const idsOf = (memories: unknown) => (memories as Array<{ id: string }>).map((m) => m.id)

it("lists tentative memories; accepted ones are confirmed, rejected ones forgotten, and neither listed again", async () => {
  const stated = String((await call("remember", { content: "Releases are cut on Tuesdays", scope: "global" }))["id"])
  const first = String((await call("remember", { content: "Never push to main, open a PR", source: "observed", scope: "global" }))["id"])
  const second = String((await call("remember", { content: "Run the linter before committing", source: "observed", scope: "global" }))["id"])

  const waiting = await call("review")
  expect(idsOf(waiting["tentative"])).toEqual([second, first])
  expect(idsOf(waiting["tentative"])).not.toContain(stated)

  const reviewed = await call("review", { accept: [first], reject: [second] })
  expect(reviewed).toMatchObject({ accepted: [first], rejected: [second], tentative: [], more: false })
  expect(await call("get_memory", { id: first })).toMatchObject({ status: "confirmed", confirmations: 2 })
  expect(await call("get_memory", { id: second })).toMatchObject({ forgotten: true, forgottenReason: "rejected in review" })
})
