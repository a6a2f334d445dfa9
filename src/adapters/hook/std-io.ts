/**
 * A hook's stdin and stdout, read and written with blocking calls on fds 0 and 1. The first use
 * of process.stdin or process.stdout loads node's net and stream modules (an agent gives a hook
 * pipes), which cost every hook, post-tool-use included, about a fifteenth of a bare node start;
 * node writes to a pipe synchronously anyway. A pipe set non-blocking answers EAGAIN rather than
 * wait: whatever is left then goes through process.stdin or process.stdout.
 */
import { readSync, writeSync } from "node:fs"

/** All of stdin as UTF-8, or an error once it is over `limit` bytes. */
export const readStdin = async (limit: number): Promise<string> => {
  const chunks: Buffer[] = []
  let size = 0
  const take = (chunk: Buffer) => {
    size += chunk.length
    if (size > limit) throw new Error(`hook input is over ${limit} bytes`)
    chunks.push(chunk)
  }
  try {
    for (let chunk = readChunk(); chunk !== undefined; chunk = readChunk()) take(chunk)
    return Buffer.concat(chunks).toString("utf8")
  } catch (error) {
    if (codeOf(error) !== "EAGAIN") throw error
  }
  for await (const chunk of process.stdin) take(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

export const writeStdout = (text: string): void => {
  let rest = Buffer.from(text, "utf8")
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(1, rest))
  } catch (error) {
    if (codeOf(error) !== "EAGAIN") throw error
    process.stdout.write(rest)
  }
}

/** The next bytes on fd 0, or undefined at its end (which Windows reports as an EOF error). */
const readChunk = (): Buffer | undefined => {
  const buffer = Buffer.allocUnsafe(64 * 1024)
  try {
    const bytes = readSync(0, buffer)
    return bytes === 0 ? undefined : buffer.subarray(0, bytes)
  } catch (error) {
    if (codeOf(error) === "EOF") return undefined
    throw error
  }
}

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code
