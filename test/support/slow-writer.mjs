// Writes JSONL lines to stdout the way a program producing them does: a line, then nothing
// until the reader has started (the store file STARTED appears: `mem import` opens the store
// before it reads stdin), then the rest, one line per turn of a short timer, then the end.
// The pipe is open and not full whenever the reader looks at it.
// Usage: node slow-writer.mjs STARTED LINES
import { existsSync, watch } from "node:fs"
import { basename, dirname } from "node:path"

const [started, linesText] = process.argv.slice(2)
const lines = Array.from({ length: Number(linesText) }, (_, i) => JSON.stringify({ content: `written slowly, line ${i + 1}` }))

const afterStart = new Promise((resolve) => {
  const watcher = watch(dirname(started), (_event, name) => {
    if (name === basename(started) && existsSync(started)) {
      watcher.close()
      resolve()
    }
  })
  if (existsSync(started)) {
    watcher.close()
    resolve()
  }
})

process.stdout.write(`${lines[0]}\n`)
await afterStart
for (const line of lines.slice(1)) {
  await new Promise((resolve) => setTimeout(resolve, 20))
  process.stdout.write(`${line}\n`)
}
process.stdout.end()
