/**
 * A language model's server for tests: a real node:http server on a local socket that speaks
 * OpenAI's chat completions (`POST /v1/chat/completions`, answered by
 * `choices[0].message.content`), replying as the test says, and keeping every request it was
 * sent (path, headers, parsed body), so a test can check what left the machine. The only test
 * double the extraction tests use: memledger's side runs as real processes over a real socket.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface ChatRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: { readonly model: string; readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }> } & Record<string, unknown>
  /** The request's text as it arrived, for looking for what must never be in it. */
  readonly raw: string
}

/** The model's message content; or a whole HTTP answer; or none at all (the request is held until the server closes). */
export type ChatReply = { readonly content: string } | { readonly status: number; readonly body: string } | "never"

export interface ChatServer {
  /** The base URL, without `/v1`. */
  readonly url: string
  readonly requests: ReadonlyArray<ChatRequest>
  /** How many requests have been answered. */
  readonly answered: () => number
  readonly close: () => Promise<void>
}

export const startChatServer = async (reply: (request: ChatRequest) => ChatReply | Promise<ChatReply>): Promise<ChatServer> => {
  const requests: ChatRequest[] = []
  let answered = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") return send(res, 404, JSON.stringify({ error: { message: `no ${req.url}` } }))
      const request: ChatRequest = { path: req.url, headers: req.headers, body: JSON.parse(raw), raw }
      requests.push(request)
      void Promise.resolve(reply(request)).then((answer) => {
        if (answer === "never") return
        answered++
        if ("status" in answer) return send(res, answer.status, answer.body)
        send(res, 200, JSON.stringify(completion(request.body.model, answer.content)))
      })
    })
  })
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answered: () => answered,
    close: async () => {
      server.closeAllConnections()
      await new Promise((closed) => server.close(closed))
    }
  }
}

/** A reply the test holds back until it opens the gate: for a model that is slow to answer. */
export const gate = (): { readonly wait: Promise<void>; readonly open: () => void } => {
  let open = () => {}
  const wait = new Promise<void>((resolve) => (open = resolve))
  return { wait, open }
}

const completion = (model: string, content: string) => ({
  id: "chatcmpl-test",
  object: "chat.completion",
  created: Math.floor(Date.now() / 1000),
  model,
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
})

const send = (res: ServerResponse, status: number, body: string): void => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(body)
}
