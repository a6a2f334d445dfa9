/**
 * Deterministic embeddings for tests, with no model: a hashed bag of words (each lower-cased
 * word adds ±1 to one of `dimensions` buckets), so texts sharing words are close and the same
 * text always gives the same vector. Served two ways: as an in-process `EmbedderApi` that
 * counts what it is asked, and as a real OpenAI-compatible HTTP server on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import type { EmbedderApi } from "../../src/embeddings/embedder.js"
import { EmbedderUnavailable } from "../../src/embeddings/errors.js"
import { l2Normalize } from "../../src/embeddings/normalize.js"

export const bagOfWords = (text: string, dimensions: number): number[] => {
  const v = new Array<number>(dimensions).fill(0)
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0x811c9dc5
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0
    v[h % dimensions]! += h & 0x80000000 ? -1 : 1
  }
  return v
}

export interface CountingEmbedder extends EmbedderApi {
  /** Every text embedded, in order, across calls. */
  readonly texts: string[]
  calls: number
  /** While set, every call fails with this reason. */
  failWith: string | undefined
}

export const countingEmbedder = (model = "test:bag-of-words", dimensions = 64): CountingEmbedder => {
  const self: CountingEmbedder = {
    provider: "http",
    model,
    dimensions,
    texts: [],
    calls: 0,
    failWith: undefined,
    embed: (texts) =>
      Effect.suspend(() => {
        if (self.failWith !== undefined) return Effect.fail(new EmbedderUnavailable({ provider: "http", reason: self.failWith }))
        self.calls++
        self.texts.push(...texts)
        return Effect.succeed(texts.map((t) => l2Normalize(bagOfWords(t, dimensions))))
      })
  }
  return self
}

export interface FakeServer {
  readonly url: string
  /** Bodies received, parsed. */
  readonly requests: Array<{ model: string; input: string[]; authorization: string | undefined }>
  /** Answer every request this way until changed. */
  behaviour: "ok" | "error-500" | "hang" | "not-json" | "wrong-count" | "shuffled" | "drop-once"
  dimensions: number
  readonly close: () => Promise<void>
}

export const startFakeServer = async (): Promise<FakeServer> => {
  const sockets = new Set<import("node:net").Socket>()
  const state: FakeServer = {
    url: "",
    requests: [],
    behaviour: "ok",
    dimensions: 32,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
  const server: Server = createServer((req, res) => void handle(state, req, res))
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
}

const handle = async (state: FakeServer, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  let raw = ""
  for await (const chunk of req) raw += chunk
  if (req.method !== "POST" || req.url !== "/v1/embeddings") return reply(res, 404, { error: { message: `no route ${req.method} ${req.url}` } })
  const body = JSON.parse(raw) as { model: string; input: string[] }
  state.requests.push({ model: body.model, input: body.input, authorization: req.headers.authorization })
  switch (state.behaviour) {
    case "drop-once":
      // A kept-alive connection closed by the server just as the request arrived: no answer at all.
      state.behaviour = "ok"
      req.socket.destroy()
      return
    case "error-500":
      return reply(res, 500, { error: { message: "model failed to load" } })
    case "hang":
      return // never answers; the client must give up by itself
    case "not-json":
      res.writeHead(200, { "content-type": "text/html" }).end("<html>gateway</html>")
      return
    case "wrong-count":
      return reply(res, 200, { data: [] })
  }
  const data = body.input.map((text, index) => ({ object: "embedding", index, embedding: bagOfWords(text, state.dimensions) }))
  if (state.behaviour === "shuffled") data.reverse()
  return reply(res, 200, { object: "list", model: body.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } })
}

const reply = (res: ServerResponse, status: number, json: unknown): void => {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json))
}
