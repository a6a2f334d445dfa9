/**
 * One question to an OpenAI-compatible chat model (Ollama, LM Studio, llama.cpp's server, vLLM,
 * OpenAI): `POST {url}/v1/chat/completions` with the model, the messages and temperature 0,
 * answered by `choices[0].message.content`. No time limit of its own: the extraction that asks
 * bounds the whole of its work, and interrupting this aborts the request, closing its socket.
 */
import { Effect, Schema } from "effect"
import { answerExcerpt, fetchFailure, openAiEndpoint, shownUrl } from "../../openai-compatible/server.js"
import { ModelAnswerUnusable, ModelUnreachable } from "./extraction-errors.js"
import type { LlmConfig } from "./llm-config.js"

export interface ChatMessage {
  readonly role: "system" | "user"
  readonly content: string
}

const endpointOf = (config: LlmConfig): string => openAiEndpoint(config.url, "chat/completions")

/** The endpoint as messages name it. */
export const modelServer = (config: LlmConfig): string => shownUrl(endpointOf(config))

/** The model's text answer; an empty text when it said nothing. */
export const askModel = (config: LlmConfig, messages: ReadonlyArray<ChatMessage>): Effect.Effect<string, ModelUnreachable | ModelAnswerUnusable> => {
  const endpoint = endpointOf(config)
  const server = modelServer(config)
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" }
  if (config.key !== undefined) headers.authorization = `Bearer ${config.key}`
  const body = JSON.stringify({ model: config.model, messages, temperature: 0, stream: false })
  return Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(endpoint, { method: "POST", headers, body, signal })
      return { ok: response.ok, status: response.status, statusText: response.statusText, text: await response.text() }
    },
    catch: (error) => new ModelUnreachable({ server, reason: fetchFailure(error) })
  }).pipe(
    Effect.flatMap((answer) =>
      answer.ok
        ? decodeAnswer(answer.text, server)
        : Effect.fail(new ModelAnswerUnusable({ server, reason: `with ${answer.status} ${answer.statusText}${answerExcerpt(answer.text)}` }))
    )
  )
}

const ChatAnswer = Schema.Struct({
  choices: Schema.NonEmptyArray(
    Schema.Struct({
      message: Schema.Struct({
        content: Schema.optional(Schema.NullOr(Schema.String)),
        /** OpenAI's models state a refusal here, with no content. */
        refusal: Schema.optional(Schema.NullOr(Schema.String))
      })
    })
  )
})

const decodeAnswer = (body: string, server: string): Effect.Effect<string, ModelAnswerUnusable> => {
  const unusable = (reason: string) => new ModelAnswerUnusable({ server, reason })
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return Effect.fail(unusable(`not with JSON${answerExcerpt(body)}`))
  }
  return Schema.decodeUnknown(ChatAnswer)(json).pipe(
    Effect.mapError(() => unusable(`not with a chat completion (choices[0].message.content)${answerExcerpt(body)}`)),
    Effect.flatMap(({ choices: [first] }) => {
      const { content, refusal } = first.message
      if ((content ?? "").trim() === "" && refusal) return Effect.fail(unusable(`it refused${answerExcerpt(refusal)}`))
      return Effect.succeed(content ?? "")
    })
  )
}
