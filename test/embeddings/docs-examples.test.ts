/**
 * The environment blocks that docs/embeddings.md shows for Ollama and LM Studio are read by
 * the real config parser and point the http provider at the endpoint the server serves, so the
 * documented setup cannot drift from the code.
 */
import { readFileSync } from "node:fs"
import { Either } from "effect"
import { expect, test } from "vitest"
import { readEmbedderConfig } from "../../src/embeddings/config.js"
import { embeddingsEndpoint } from "../../src/embeddings/http.js"

const envBlock = (name: string): Record<string, string> => {
  const doc = readFileSync("docs/embeddings.md", "utf8")
  const block = new RegExp(`<!-- env:${name}:start -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- env:${name}:end -->`).exec(doc)?.[1]
  if (block === undefined) throw new Error(`docs/embeddings.md has no env:${name} block`)
  return Object.fromEntries([...block.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]))
}

test.each([
  ["ollama", "http://127.0.0.1:11434/v1/embeddings", "nomic-embed-text"],
  ["lmstudio", "http://127.0.0.1:1234/v1/embeddings", "text-embedding-nomic-embed-text-v1.5"]
])("the documented %s setup is a valid http embedder config", (name, endpoint, model) => {
  const config = Either.getOrThrow(readEmbedderConfig(envBlock(name)))
  expect(config).toMatchObject({ provider: "http", model })
  expect(embeddingsEndpoint(config.url!)).toBe(endpoint)
})
