/**
 * One session of every SDK operation, each answer (or error) kept in order, so a test can run
 * it on a local and a remote client and compare the two, and check what it did.
 */
import { MemledgerError, type MemoryClient } from "../../src/sdk/index.js"

export type Answer = { readonly ok: unknown } | { readonly error: string; readonly message: string }

/** Each call's answer or typed refusal, in order: what the local and remote sessions compare. */
const recorder = () => {
  const answers: Answer[] = []
  const step = async <A>(call: () => Promise<A>): Promise<A | undefined> => {
    try {
      const ok = await call()
      answers.push({ ok })
      return ok
    } catch (error) {
      if (!(error instanceof MemledgerError)) throw error
      answers.push({ error: error.tag, message: error.message })
      return undefined
    }
  }
  return { answers, step }
}

export const sdkSession = async (memory: MemoryClient): Promise<Answer[]> => {
  const { answers, step } = recorder()
  const idOf = (answer: unknown) => (answer as { id: string }).id

  const deploy = idOf(await step(() => memory.remember({ content: "Deploy with make deploy ENV=prod", category: "command", tags: ["deploy"] })))
  const english = idOf(await step(() => memory.remember({ content: "Always answer in English", category: "preference", scope: "global" })))
  await step(() => memory.remember({ content: "deploy with make deploy env=prod" }))
  await step(() => memory.remember({ content: "Deploy using make deploy ENV=prod always" }))
  const next = idOf(await step(() => memory.remember({ content: "Deploy with just deploy ENV=prod", category: "command", supersedes: deploy })))
  await step(() => memory.recordOutcome({ memory_ids: [next, english], outcome: "worked", task: "T-1", origin: "claude-code:session/a" }))
  await step(() => memory.recordOutcome({ memory_ids: [english], outcome: "failed", origin: "codex:thread/x" }))
  await step(() => memory.recall({ query: "how do I deploy" }))
  await step(() => memory.explain({ query: "deploy", limit: 5 }))
  await step(() => memory.getContext({ query: "how to deploy", budget: 800 }))
  await step(() => memory.getMemory({ id: next }))
  await step(() => memory.edit({ id: english, content: "Always answer in British English", tags: ["lang"] }))
  await step(() => memory.confirm({ id: english }))
  await step(() => memory.forget({ memory_id: english, reason: "wrong" }))
  await step(() => memory.list({ all: true }))
  await step(() => memory.restore({ memory_id: english }))
  await step(() => memory.forgetConversation({ origin: "codex:thread/x" }))
  await step(() => memory.conversations())
  await step(() => memory.forgetConversation({ origin: "codex:thread/x", undo: true }))
  await step(() => memory.supersede({ id: english, by: next }))
  await step(() => memory.log({ limit: 3 }))
  await step(() => memory.log({ after: 3, memory: next }))
  await step(() => memory.stats())
  // Refusals, by the schema before anything runs and by the store.
  await step(() => memory.getMemory({ id: "zzzzzzzz" }))
  await step(() => memory.remember({ content: "   " }))
  await step(() => memory.getMemory({ id: "abc" }))
  await step(() => memory.recordOutcome({ memory_ids: [], outcome: "worked" }))
  await step(() => memory.recordOutcome({ memory_ids: [deploy], outcome: "worked" }))
  await step(() => memory.supersede({ id: next, by: next }))
  return answers
}

/** The tags of the refusals at the end of the session, in order. */
export const SESSION_REFUSALS = ["MemoryNotFound", "InvalidContent", "InvalidId", "InvalidInput", "MemoryIsSuperseded", "SupersedeSelf"]

/**
 * A session of cues and further phrasings: written cues, a recall found through one, a recall
 * found only by its second phrasing, a cue learned from a conversation's missed recall before a
 * worked outcome, then dropped, and written cues removed; ending with refusals.
 */
export const cueSession = async (memory: MemoryClient): Promise<Answer[]> => {
  const { answers, step } = recorder()
  const idOf = (answer: unknown) => (answer as { id: string }).id
  const asked = "the browser checks keep failing at random"
  const conversation = "claude-code:session/s1"

  const deploy = idOf(await step(() => memory.remember({ content: "Deploy with: make deploy ENV=prod", category: "command", cues: ["how do I ship to production?", "release the app"] })))
  await step(() => memory.recall({ query: "how do I ship to production" }))
  const flaky = idOf(await step(() => memory.remember({ content: "Flaky e2e suite: rerun playwright with --retries 2", scope: "global" })))
  await step(() => memory.recall({ query: asked, origin: conversation }))
  await step(() => memory.recall({ query: asked, also: ["playwright flaky retries"] }))
  await step(() => memory.explain({ query: asked, also: ["playwright flaky retries"] }))
  await step(() => memory.getContext({ query: asked, also: ["playwright flaky retries"] }))
  await step(() => memory.recordOutcome({ memory_ids: [flaky], outcome: "worked", origin: conversation }))
  await step(() => memory.cues({ id: flaky }))
  await step(() => memory.dropCue({ id: flaky, cue: asked }))
  await step(() => memory.cues({ id: flaky }))
  await step(() => memory.edit({ id: deploy, cues: [] }))
  await step(() => memory.cues({ id: deploy }))
  // Refusals, by the schema before anything runs and by the store.
  await step(() => memory.dropCue({ id: flaky, cue: asked }))
  await step(() => memory.remember({ content: "Six cues are too many", cues: ["a", "b", "c", "d", "e", "f"] }))
  await step(() => memory.recall({ query: asked, also: ["a", "b", "c", "d", "e", "f"] }))
  await step(() => memory.cues({ id: "zzzzzzzz" }))
  return answers
}

export const CUE_SESSION_REFUSALS = ["InvalidInput", "InvalidInput", "InvalidInput", "MemoryNotFound"]
