#!/usr/bin/env node
// A deterministic OpenAI-compatible embeddings server for benchmarks, on loopback only:
// `POST /v1/embeddings {model, input: [...]}` answers `{data: [{index, embedding}]}` where each
// embedding is the text's words (lower-cased runs of letters and digits) feature-hashed into
// DIMENSIONS signed buckets, L2-normalised. Same text, same vector, on any machine.
//
// These vectors are for latency only. sqlite-vec's KNN is a brute-force scan, so what a vector
// search costs depends on how many vectors there are and their length, not on their values;
// what this server cannot say is whether hybrid search finds better memories (bench/retrieval
// measures that, with a real model). Plain JavaScript so that node runs it as it is, as a child
// process of the bench (support/hash-embedding-server.ts starts it and stops it).
//
//   node bench/support/hash-embedding-server.mjs [--dimensions 512]
//   prints `listening on http://127.0.0.1:PORT` once ready; exits when stdin closes.
import { createServer } from "node:http"

const args = process.argv.slice(2)
const at = args.indexOf("--dimensions")
const DIMENSIONS = at >= 0 ? Number(args[at + 1]) : 512
if (!Number.isInteger(DIMENSIONS) || DIMENSIONS <= 0) throw new Error("--dimensions takes a positive integer")

/** FNV-1a, 32 bits: the bucket is the low bits, the sign a high one. */
const fnv1a = (word) => {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

const embed = (text) => {
  const v = new Float64Array(DIMENSIONS)
  for (const word of String(text).toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const h = fnv1a(word)
    v[h % DIMENSIONS] += h & 0x80000000 ? -1 : 1
  }
  let norm = 0
  for (let i = 0; i < DIMENSIONS; i++) norm += v[i] * v[i]
  norm = Math.sqrt(norm)
  // A text with no words gets a fixed unit vector rather than zeros (a real model never answers zeros).
  if (norm === 0) return Array.from({ length: DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0))
  return Array.from(v, (x) => Number((x / norm).toFixed(6)))
}

const server = createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    const answer = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    if (req.method !== "POST" || !req.url?.endsWith("/embeddings")) return answer(404, { error: "POST /v1/embeddings only" })
    let body
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    } catch {
      return answer(400, { error: "the body is not JSON" })
    }
    const input = typeof body.input === "string" ? [body.input] : body.input
    if (!Array.isArray(input)) return answer(400, { error: "input must be a string or an array of strings" })
    answer(200, { object: "list", model: body.model, data: input.map((text, index) => ({ object: "embedding", index, embedding: embed(text) })) })
  })
})

// Node closes an idle keep-alive socket after 5 s, and the client may send its next request on
// that socket just as it closes ("other side closed"): between a bench's phases the embedder is
// idle far longer than that. 0 keeps idle connections open; the bench is the only client.
server.keepAliveTimeout = 0

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address()
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`)
})
// The bench holds our stdin: when it exits, for whatever reason, so do we.
process.stdin.on("end", () => process.exit(0))
process.stdin.resume()
