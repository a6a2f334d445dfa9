// The start signal every worker script shares with its test: says "ready" on stdout, then waits
// for "go" on stdin, so that workers loaded at different speeds start their work together.
// Exits 3 when stdin closes without "go": the test is gone, and nothing must run on alone.
import { createInterface } from "node:readline"

export const readyThenGo = async () => {
  process.stdout.write("ready\n")
  const lines = createInterface({ input: process.stdin })
  let go = false
  for await (const line of lines) if ((go = line.trim() === "go")) break
  lines.close()
  if (!go) process.exit(3)
}
