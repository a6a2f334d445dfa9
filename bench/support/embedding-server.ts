/**
 * Starts bench/support/hash-embedding-server.mjs (deterministic feature-hashed vectors behind
 * an OpenAI-compatible `/v1/embeddings`, see that file for why they are fair for latency and
 * not for quality) as a child process on loopback, for the real `http` embedder to talk to.
 * The child exits when `close` is called or when this process ends (it watches its stdin).
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { repoRoot } from "./measure.js"

export interface EmbeddingServer {
  /** Base URL for MEMLEDGER_EMBEDDER_URL / makeHttpEmbedder. */
  readonly url: string
  readonly close: () => void
}

export const startHashEmbeddingServer = (dimensions: number): Promise<EmbeddingServer> =>
  new Promise((resolve, reject) => {
    const script = join(repoRoot(), "bench", "support", "hash-embedding-server.mjs")
    const child = spawn(process.execPath, [script, "--dimensions", String(dimensions)], { stdio: ["pipe", "pipe", "inherit"] })
    const close = () => {
      child.stdin.end()
      child.kill()
    }
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`the embedding server exited (${code}) before it listened`)))
    const lines = createInterface({ input: child.stdout })
    lines.once("line", (line) => {
      const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1]
      if (url === undefined) {
        close()
        reject(new Error(`the embedding server said '${line}' instead of its address`))
      } else resolve({ url, close })
    })
  })
