/** The console's menus offer exactly the domain's words (the page keeps its own copy, to stay free of Effect). */
import { describe, expect, it } from "vitest"
import * as Page from "../../src/console/vocabulary.js"
import { CATEGORIES, OUTCOMES, STATUSES } from "../../src/domain/vocabulary.js"
import { EVENT_TYPES } from "../../src/events/events.js"

describe("the console's vocabulary", () => {
  it("is the domain's", () => {
    expect(Page.CATEGORIES).toEqual(CATEGORIES)
    expect(Page.STATUSES).toEqual(STATUSES)
    expect(Page.OUTCOMES).toEqual(OUTCOMES)
    expect(Page.EVENT_TYPES).toEqual(EVENT_TYPES)
  })
})
