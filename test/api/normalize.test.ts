/**
 * The normaliser that compares two stores' answers (remote and local, SDK and CLI) names a short
 * id after the id it is a prefix of: two ids of the same minute may share their first 8
 * characters, and a short id is then longer than 8. Comparing by the first 8 alone named such a
 * short id after the other memory, and the remote CLI test failed about once in a few hundred runs.
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
})
