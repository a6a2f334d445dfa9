/**
 * Protects `decideForgetConversation` and `decideRestoreConversation`: idempotent, refused for
 * an unknown conversation, and restore refused once purge erased the conversation's payloads.
 */
import { describe, test } from "vitest"
import { decideForgetConversation, decideRestoreConversation } from "../../src/commands/decide-conversation.js"
import { ConversationNotFound, ConversationPurged } from "../../src/domain/errors.js"
import { given } from "../support/decider-spec.js"
import { added, conversationForgotten, conversationRestored, outcome } from "../support/events.js"
import { memoryId } from "../support/ids.js"
import { from } from "../support/stored.js"

const X = "claude-code:session/abc"
const A = memoryId(1)
const history = [from(X, added(A, "x")), from(X, outcome([A], "worked"))] as const

describe("decideForgetConversation", () => {
  test("records a ConversationForgotten and says how many events it hides", () =>
    given(...history)
      .when((s) => decideForgetConversation(X, s))
      .then([conversationForgotten(X)], { origin: X, forgotten: true, changed: true, events: 2 }))

  test("is idempotent", () =>
    given(...history, conversationForgotten(X))
      .when((s) => decideForgetConversation(X, s))
      .then([], { forgotten: true, changed: false }))

  test("can forget a conversation again after it was restored", () =>
    given(...history, conversationForgotten(X), conversationRestored(X))
      .when((s) => decideForgetConversation(X, s))
      .then([conversationForgotten(X)]))

  test("refuses a conversation with no events", () =>
    given(...history).when((s) => decideForgetConversation("codex:thread/none", s)).thenFails(ConversationNotFound))
})

describe("decideRestoreConversation", () => {
  test("records a ConversationRestored for a forgotten conversation", () =>
    given(...history, conversationForgotten(X))
      .when((s) => decideRestoreConversation(X, s))
      .then([conversationRestored(X)], { origin: X, forgotten: false, changed: true, events: 2 }))

  test("is idempotent for a conversation that is not forgotten", () =>
    given(...history).when((s) => decideRestoreConversation(X, s)).then([], { forgotten: false, changed: false }))

  test("refuses a conversation with no events", () =>
    given(...history).when((s) => decideRestoreConversation("codex:thread/none", s)).thenFails(ConversationNotFound, {
      origin: "codex:thread/none"
    }))

  test("refuses a forgotten conversation whose payloads were purged", () =>
    given({ event: added(A, "x"), origin: X, purged: true }, from(X, outcome([A], "worked")), conversationForgotten(X))
      .when((s) => decideRestoreConversation(X, s))
      .thenFails(ConversationPurged, { origin: X }))
})
