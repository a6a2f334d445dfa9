// A client process for the tests of servers sharing one store: says "ready", waits for "go" on
// stdin, then remembers COUNT memories through `POST /memories`, one request at a time, taking the
// servers given in turn. For each write a server acknowledged (HTTP 2xx) it prints
// "ok <n> <id>", and "done" at the end. A write a server did not answer (killed, or stopping) is
// sent again, the same text, to the next server, and "retried <n>" printed: if the first server
// had committed it, the second finds the exact restatement and confirms it rather than store it
// twice. Each text is "note CLIENT-N" and random words, so no write is a near-duplicate of another;
// each is written as the conversation "client:CLIENT".
// Usage: node rest-appender.mjs CLIENT COUNT URL...
import { randomBytes } from "node:crypto"
import { readyThenGo } from "./start-signal.mjs"

const parent = process.ppid
const [client, countText, ...servers] = process.argv.slice(2)
const count = Number(countText)
/** Attempts at one write before giving up: every server refusing this often means none is left. */
const MAX_ATTEMPTS = 50

await readyThenGo()

let turn = 0
for (let n = 0; n < count; n++) {
  const content = `note ${client}-${n} ${Array.from({ length: 5 }, () => randomBytes(4).toString("hex")).join(" ")}`
  for (let attempt = 1; ; attempt++) {
    if (process.ppid !== parent) process.exit(3) // the test is gone: never write on alone
    const server = servers[turn++ % servers.length]
    const answer = await remember(server, content)
    if (answer.ok) {
      process.stdout.write(`ok ${n} ${answer.id}\n`)
      break
    }
    if (attempt === MAX_ATTEMPTS) throw new Error(`write ${n} was refused ${attempt} times; last: ${answer.why}`)
    process.stdout.write(`retried ${n}\n`)
  }
}
process.stdout.write("done\n")

async function remember(server, content) {
  let response
  try {
    response = await fetch(`${server}/memories`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-memledger-origin": `client:${client}` },
      body: JSON.stringify({ content, scope: "global" })
    })
  } catch (error) {
    return { ok: false, why: String(error?.cause?.code ?? error) }
  }
  let text
  try {
    text = await response.text()
  } catch (error) {
    // Killed while answering: sent again, the write is confirmed if it was committed.
    return { ok: false, why: `the answer broke off: ${error}` }
  }
  if (response.status === 503) return { ok: false, why: `503 ${text}` }
  if (!response.ok) throw new Error(`${server} answered ${response.status}: ${text}`)
  const body = JSON.parse(text)
  if (typeof body.id !== "string") throw new Error(`${server} stored nothing: ${text}`)
  return { ok: true, id: body.id }
}
