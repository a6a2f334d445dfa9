/**
 * The `http` provider: any OpenAI-compatible embeddings endpoint (Ollama, LM Studio,
 * llama.cpp's server, vLLM, OpenAI itself). `POST {url}/v1/embeddings` with
 * `{ model, input: [...] }`, at most 64 texts a request, answered by `data[i].embedding`.
 * The vector length is learned from the first answer; an answer of another length later is
 * refused, since vectors of two lengths cannot share an index.
 */
import { Duration, Effect, Schema } from "effect"
import type { EmbedderApi } from "./embedder.js"
import { EmbedderUnavailable } from "./errors.js"
import { chunks, l2Normalize } from "./normalize.js"
import { answerExcerpt, fetchFailure, openAiEndpoint, shownUrl } from "../openai-compatible/server.js"

export interface HttpEmbedderOptions {
  /** Base URL: `http://127.0.0.1:11434`, `.../v1` or the full `.../v1/embeddings` all work. */
  readonly url: string
  readonly model: string
  readonly apiKey?: string
  /** Per request; default 30 s (a local server may be loading the model on first use). */
  readonly timeoutMs?: number
  /** Texts per request, at most 64. */
  readonly batchSize?: number
  readonly fetch?: typeof globalThis.fetch
}

export const HTTP_MAX_BATCH = 64
export const HTTP_DEFAULT_TIMEOUT_MS = 30_000

export const makeHttpEmbedder = (options: HttpEmbedderOptions): EmbedderApi => {
  const endpoint = embeddingsEndpoint(options.url)
  const shown = shownUrl(endpoint)
  const timeoutMs = options.timeoutMs ?? HTTP_DEFAULT_TIMEOUT_MS
  const batchSize = Math.max(1, Math.min(HTTP_MAX_BATCH, options.batchSize ?? HTTP_MAX_BATCH))
  const doFetch = options.fetch ?? globalThis.fetch
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" }
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`
  let dimensions = 0

  const unavailable = (reason: string) => new EmbedderUnavailable({ provider: "http", reason })

  const post = (input: ReadonlyArray<string>) =>
    Effect.tryPromise({
      try: async (signal) => {
        const body = JSON.stringify({ model: options.model, input })
        const send = () => doFetch(endpoint, { method: "POST", headers, body, signal })
        // A server may close an idle kept-alive connection just as a request goes out on it
        // (Node's servers do after 5 s): fetch then fails without an answer. Embedding is
        // idempotent, so it is sent once more, on a new connection; a second failure is real.
        const response = await send().catch((error: unknown) => (signal.aborted ? Promise.reject(error) : send()))
        return { status: response.status, statusText: response.statusText, ok: response.ok, body: await response.text() }
      },
      catch: (error) => unavailable(`cannot reach ${shown}: ${fetchFailure(error)}`)
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () => unavailable(`${shown} did not answer within ${timeoutMs} ms`)
      }),
      Effect.flatMap((answer) =>
        answer.ok
          ? Effect.succeed(answer.body)
          : Effect.fail(unavailable(`${shown} answered ${answer.status} ${answer.statusText}${answerExcerpt(answer.body)}`))
      ),
      Effect.flatMap((body) => decodeAnswer(body, input.length, options.model)),
      Effect.mapError((error) => (typeof error === "string" ? unavailable(error) : error)),
      Effect.flatMap((vectors) => {
        const length = vectors[0]?.length ?? 0
        if (vectors.some((v) => v.length !== length)) return Effect.fail(unavailable("the answer mixes vectors of different lengths"))
        if (dimensions !== 0 && length !== dimensions) {
          return Effect.fail(unavailable(`model ${options.model} answered ${length}-dimensional vectors after ${dimensions}-dimensional ones`))
        }
        dimensions = length
        return Effect.succeed(vectors.map(l2Normalize))
      })
    )

  return {
    provider: "http",
    model: `http:${options.model}`,
    get dimensions() {
      return dimensions
    },
    embed: (texts) =>
      texts.length === 0
        ? Effect.succeed([])
        : Effect.map(Effect.forEach(chunks(texts, batchSize), post), (batches) => batches.flat())
  }
}

/** `{url}/v1/embeddings`, without doubling a `/v1` or `/embeddings` the URL already has. */
export const embeddingsEndpoint = (url: string): string => openAiEndpoint(url, "embeddings")

const EmbeddingsAnswer = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      embedding: Schema.NonEmptyArray(Schema.Number.pipe(Schema.finite())),
      index: Schema.optional(Schema.Int)
    })
  )
})

const decodeAnswer = (body: string, expected: number, model: string): Effect.Effect<number[][], string> => {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return Effect.fail(`the answer is not JSON${answerExcerpt(body)}`)
  }
  return Schema.decodeUnknown(EmbeddingsAnswer)(json).pipe(
    Effect.mapError(() => `the answer is not an OpenAI embeddings response (expected data[i].embedding: number[])${answerExcerpt(body)}`),
    Effect.flatMap(({ data }) => {
      if (data.length !== expected) return Effect.fail(`asked ${model} for ${expected} embeddings and got ${data.length}`)
      // Servers may answer out of order; `index` says which input each vector belongs to.
      const ordered = data.every((d) => d.index !== undefined) ? [...data].sort((a, b) => a.index! - b.index!) : data
      return Effect.succeed(ordered.map((d) => [...d.embedding]))
    })
  )
}
