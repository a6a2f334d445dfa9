/**
 * A bad import line is named by its number with a short reason for the field at fault, checked
 * by the same rules as `mem add` (origin, agent, project, tags), and nothing of its batch is
 * imported: never a stack trace or a dump of the schema.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { eventsIn, mem, memAt, tempDir } from "../support/cli.js"

const importLines = (lines: ReadonlyArray<unknown>) => {
  const db = join(tempDir(), "m.db")
  const result = mem(["--db", db, "import", "-", "--json"], { input: lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") })
  const events = eventsIn(memAt(db))
  return { ...result, events, error: result.stderr === "" ? undefined : JSON.parse(result.stderr) }
}

const fine = { content: "a fine line" }

describe("import of a bad memory line", () => {
  it.each([
    ["an empty project", { content: "proj empty", project: "" }, 'line 2: project: a string of 1 to 1000 characters, or null (or no "project") for a global memory'],
    ["a 501-character origin", { content: "o", origin: "o".repeat(501) }, "line 2: origin is 501 characters; the limit is 500"],
    ["an empty origin", { content: "o", origin: "" }, "line 2: origin cannot be empty"],
    ["a 101-character agent", { content: "o", agent: "a".repeat(101) }, "line 2: agent is 101 characters; the limit is 100"],
    ["a 101-character tag, refused as add refuses it", { content: "t", tags: ["t".repeat(101)] }, `line 2: tags: "${"t".repeat(80)}…" is 101 characters; a tag is at most 100`],
    ["a blank tag", { content: "t", tags: [" "] }, "line 2: tags: a tag cannot be empty or blank"],
    ["an array", [1, 2], 'line 2: a memory line is a JSON object with at least "content"'],
    ["no content", { category: "gotcha" }, 'line 2: a memory line is a JSON object with at least "content"'],
    ["content that is not text", { content: 5 }, "line 2: content: a string of 1 to 10,000 characters"],
    ["a date that is not one", { content: "d", createdAt: "yesterday" }, "line 2: createdAt: not a date (use ISO-8601"],
    ["tags that are not a list", { content: "t", tags: "x" }, "line 2: tags: a list of strings"],
    ["an unknown source", { content: "s", source: "nope" }, "line 2: source: one of explicit, observed, extracted, imported"]
  ])("with %s is named in a few words, and nothing is imported", (_, line, reason) => {
    const result = importLines([fine, line, fine])
    expect(result.code).toBe(1)
    expect(result.error.error).toBe("ImportLineInvalid")
    expect(result.error.message.startsWith(reason)).toBe(true)
    expect(result.error.message).toMatch(/; nothing from this batch was imported$/)
    expect(result.error.message.length).toBeLessThan(200)
    expect(result.events).toBe(0)
  })

  it.each([
    ["catgory", { content: "c", catgory: "gotcha" }, "line 2: catgory is not a field of a memory line (did you mean category?)"],
    ["projet", { content: "p", projet: "github.com/acme/app" }, "line 2: projet is not a field of a memory line (did you mean project?)"],
    ["tag", { content: "t", tag: ["deploy"] }, "line 2: tag is not a field of a memory line (did you mean tags?)"],
    ["two unknown fields", { content: "u", colour: "red", tag: "x" }, "line 2: colour and tag are not fields of a memory line"]
  ])("with a field it does not know (%s) is refused, naming the field, and nothing is imported", (_, line, reason) => {
    const result = importLines([fine, line, fine])
    expect(result.code).toBe(1)
    expect(result.error.error).toBe("ImportLineInvalid")
    expect(result.error.message.startsWith(reason)).toBe(true)
    expect(result.error.message).toMatch(/the fields are content, category, project, tags, cues, origin, agent, source and createdAt/)
    expect(result.events).toBe(0)
  })

  it("refuses a field it does not know in a large file too, where lines are read in bulk", () => {
    const lines = Array.from({ length: 1_500 }, (_, i) => ({ content: `bulk note ${i}` }))
    const result = importLines([...lines.slice(0, 700), { content: "misspelt", projet: "github.com/acme/app" }, ...lines.slice(700)])
    expect(result.code).toBe(1)
    expect(result.error.message.startsWith("line 701: projet is not a field of a memory line")).toBe(true)
    expect(result.events).toBe(0)
  })

  it("with a createdAt more than a day ahead is refused; one within the day is kept", () => {
    const refused = importLines([fine, { content: "from the future", createdAt: "9999-12-31T00:00:00Z" }])
    expect(refused.code).toBe(1)
    expect(refused.error.message).toMatch(/^line 2: createdAt: 9999-12-31T00:00:00.000Z is more than a day ahead of now/)
    expect(refused.events).toBe(0)
    const soon = new Date(Date.now() + 60 * 60 * 1000).toISOString()
    const kept = importLines([fine, { content: "written in another time zone's today", createdAt: soon }])
    expect(kept.code).toBe(0)
    expect(kept.events).toBe(2)
  })

  it("imports 10,000 emoji as 10,000 characters", () => {
    const result = importLines([{ content: "😀".repeat(10_000) }])
    expect(result.code).toBe(0)
    expect(result.events).toBe(1)
    expect(importLines([{ content: "😀".repeat(10_001) }]).error.message).toMatch(/^line 1: the content is 10001 characters; the limit is 10000/)
  })

  it("refuses an empty --origin or --agent by the option's name before reading anything", () => {
    const db = join(tempDir(), "m.db")
    const result = mem(["--db", db, "import", "-", "--origin", "", "--json"], { input: JSON.stringify(fine) })
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toEqual({ error: "InvalidInput", message: "--origin cannot be empty" })
  })
})
