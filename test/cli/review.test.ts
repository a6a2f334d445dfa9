/**
 * `mem review` as a real process: it lists only tentative memories (observed, not yet
 * confirmed), newest first with where each came from; `accept` confirms one as a person and
 * `reject` forgets it, each leaving the list.
 */
import { join } from "node:path"
import { expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"

it("lists tentative memories only; accept confirms one, reject forgets one", () => {
  const run = memAt(join(tempDir(), "m.db"))
  const told = run("add", "Releases are cut on Tuesdays", "--json").json()
  const first = run("add", "Never push to main, open a PR instead", "--source", "observed", "--origin", "claude-code:session/a", "--json").json()
  const second = run("add", "Run pnpm lint before committing", "--source", "observed", "--origin", "claude-code:session/b", "--json").json()

  const listed = run("review", "--json").json() as Array<{ id: string; status: string; origin: string }>
  expect(listed.map((m) => m.id)).toEqual([second.id, first.id])
  expect(listed.every((m) => m.status === "tentative")).toBe(true)
  expect(listed.map((m) => m.id)).not.toContain(told.id)
  expect(run("review").stdout).toMatch(/Never push to main, open a PR instead\n +observed from claude-code:session\/a, \d{4}-\d\d-\d\d/)

  expect(run("review", "accept", first.id).code).toBe(0)
  expect(run("show", first.id, "--json").json()).toMatchObject({ status: "confirmed", confirmations: 2 })
  expect(run("review", "reject", second.id).code).toBe(0)
  expect(run("show", second.id, "--json").json()).toMatchObject({ forgotten: true, forgottenReason: "rejected in review" })
  expect(run("review", "--json").json()).toEqual([])
  expect(run("review").stdout).toBe("nothing to review: no tentative memory\n")
})
