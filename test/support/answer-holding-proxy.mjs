/**
 * A TCP proxy in front of PostgreSQL, run as its own process (the synchronous connection under
 * test blocks its caller's thread): `node answer-holding-proxy.mjs HOST PORT`, then over IPC it
 * says `{ port }` and takes `{ hold: count }`, answered `{ holding: count }`. Once told, it
 * holds the server's answers back until the client has sent `count` more Sync messages (one
 * ends each statement with parameters): a client that waits for an answer before sending its
 * next statement never gets one.
 */
import { createConnection, createServer } from "node:net"

const [host, port] = process.argv.slice(2)
let syncsToCome = 0
const held = []
let toClient

const release = () => {
  if (syncsToCome > 0 || toClient === undefined) return
  for (const chunk of held.splice(0)) toClient.write(chunk)
}

const server = createServer((client) => {
  const db = createConnection({ host, port: Number(port) })
  toClient = client
  // The client's messages: a startup message (a length, no type), then a type byte and a length each.
  let pending = Buffer.alloc(0)
  let started = false
  client.on("data", (chunk) => {
    db.write(chunk)
    pending = Buffer.concat([pending, chunk])
    for (;;) {
      const typed = started ? 1 : 0
      if (pending.length < typed + 4) break
      const length = pending.readInt32BE(typed)
      if (pending.length < typed + length) break
      if (started && pending[0] === 0x53) syncsToCome--
      pending = pending.subarray(typed + length)
      started = true
    }
    release()
  })
  db.on("data", (chunk) => {
    if (syncsToCome > 0) held.push(chunk)
    else client.write(chunk)
  })
  client.on("close", () => db.destroy())
  db.on("close", () => client.destroy())
  client.on("error", () => db.destroy())
  db.on("error", () => client.destroy())
})

process.on("message", (m) => {
  syncsToCome = m.hold
  process.send({ holding: m.hold })
})
process.on("disconnect", () => process.exit(0))
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }))
