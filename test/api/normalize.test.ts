/**
 * The normaliser that compares two stores' answers (remote and local, SDK and CLI) names a short
 * id after the id it is a prefix of: two ids of the same minute may share their first 8
 * characters, and a short id is then longer than 8. Comparing by the first 8 alone named such a
 * short id after the other memory, and the remote CLI test failed about once in a few hundred runs.
 * An event's id of the same millisecond shares a memory's first 10 characters: a short id that
 * names a memory is named after that memory first.
 */
import { describe, expect, it } from "vitest"
import { normalizer } from "../support/normalize.js"

describe("normalizer", () => {
  it("names a short id after the one id it is a prefix of, when two ids share their first 8 characters", () => {
    const first = "0whfk3h3bq9p1g66ssf8fpz40s"
    const third = "0whfk3h3xq9p1g66ssf8fpz40s"
    const answer = [{ id: first, shortId: "0whfk3h3b" }, { id: third, shortId: "0whfk3h3x" }, `stored [0whfk3h3x]`]
    expect(normalizer()(answer)).toEqual([{ id: "<id1>", shortId: "<id1>" }, { id: "<id2>", shortId: "<id2>" }, "stored [<id2>]"])
  })

  it("names a short id after its memory, though an event of the same millisecond came first and shares its first 10 characters", () => {
    const event = "01khz3q8v2bq9p1g66ssf8fpz4"
    const memory = "01khz3q8v2xq9p1g66ssf8fpz4"
    const answer = [{ eventId: event }, { id: memory, shortId: "01khz3q8v2" }, `stored [01khz3q8v2]`]
    expect(normalizer()(answer)).toEqual([{ eventId: "<id1>" }, { id: "<id2>", shortId: "<id2>" }, "stored [<id2>]"])
  })
})
