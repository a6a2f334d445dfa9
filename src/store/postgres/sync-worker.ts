/**
 * The code of sync-client.ts's worker thread, a string run by `eval` (see there why): it holds
 * the `pg` client, runs each message's statements in order (queued writes first, consecutive
 * ones without parameters as one text), prepares a text used again, and posts each answer.
 * Inside a transaction block, statements with parameters are pipelined: sent together, each
 * run as the one before it ends, and their answers read in order (see runInOrder).
 */
// int8 (count(*), sums, bigint keys) parsed as numbers: every one the store keeps is far below
// 2^53. Messages are handled one at a time, in order, because the caller waits for each.
export const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads")
const pg = require(workerData.driver)
const signal = new Int32Array(workerData.signal)
const port = workerData.port
const types = { getTypeParser: (oid, format) => (oid === 20 || oid === 1700 ? Number : pg.types.getTypeParser(oid, format)) }
const client = new pg.Client({ connectionString: workerData.url, types, pipeline: true })
client.on("error", () => {})
// The transaction status the server last reported: "T" inside a transaction block, "E" in a
// failed one, "I" outside any.
let status = "I"
client.connection.on("readyForQuery", (m) => { status = m.status })
let queue = Promise.resolve()
// A statement text is prepared on the server when it is used a second time, so that one-off
// texts are never kept, and no more than PREPARED_MAX are: parsing and planning a search's
// statement again each time cost more than a millisecond of the server's time. Only one with
// parameters: a text without any may hold several statements (the projections' DDL), which a
// prepared statement cannot.
const PREPARED_MAX = 500
const prepared = new Map()
const usedOnce = new Set()
const statement = (text, values, prepare) => {
  if (!prepare || values === undefined || values.length === 0) return { text, values }
  let name = prepared.get(text)
  if (name === undefined && usedOnce.has(text) && prepared.size < PREPARED_MAX) {
    name = "memledger_" + prepared.size
    prepared.set(text, name)
    usedOnce.delete(text)
  } else if (name === undefined && usedOnce.size < 4 * PREPARED_MAX) {
    usedOnce.add(text)
  }
  return name === undefined ? { text, values } : { name, text, values }
}
// Consecutive statements without parameters go as one text (a read-only transaction's COMMIT
// and the next write's BEGIN and lock): one message to the server, one answer. Never the read
// a batch comes with, which may be one that a text of several statements cannot hold (VACUUM).
const joinPlain = (batch) => {
  const joined = []
  for (const [text, values] of batch) {
    const last = joined[joined.length - 1]
    const plain = values === undefined || values.length === 0
    if (plain && last !== undefined && last[2]) last[0] += ";\\n" + text
    else joined.push([text, values, plain])
  }
  return joined
}
const answer = (message) => {
  port.postMessage(message)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
}
const failure = (e) => ({ error: { message: String(e && e.message || e), code: e && e.code, detail: e && e.detail } })
const handle = async (m) => {
  if (m.op === "connect") { await client.connect(); return { rows: [], rowCount: 0 } }
  if (m.op === "close") { await client.end(); return { rows: [], rowCount: 0 } }
  // A batch's statement says it has run only once a quarter of the caller's wait has passed
  // since the last word: enough to keep a long batch's wait going, and a short batch (a search's
  // record) costs no message, and no wake-up of the caller, per statement.
  let said = Date.now()
  const ran = () => {
    if (Date.now() - said < workerData.doneAfterMs) return
    answer({ id: m.id, done: true })
    said = Date.now()
  }
  if (m.op === "batch") {
    await runInOrder(joinPlain(m.batch), m.prepare, ran)
    return { rows: [], rowCount: 0 }
  }
  // The queued writes sent with a read run first; the first that fails is the read's answer.
  const r = await runInOrder([...joinPlain(m.before ?? []), [m.sql, m.params, m.params === undefined || m.params.length === 0]], m.prepare, ran)
  const last = Array.isArray(r) ? r[r.length - 1] : r
  return { rows: last.rows ?? [], rowCount: last.rowCount ?? 0 }
}
// Runs statements in order and answers the last one's result; the first that fails throws,
// and none after it changes anything. A text without parameters is sent alone (it may begin
// or end a transaction). Statements with parameters inside a transaction block go together,
// pipelined: the server runs each as the one before it ends, and once one fails, the block is
// aborted and those after it fail too, as if never sent. Outside a block each would be a
// transaction of its own that runs whatever failed before, so there they are sent one by one.
const runInOrder = async (statements, prepare, ran) => {
  let last
  for (let i = 0; i < statements.length; ) {
    let end = i + 1
    if (status === "T" && !statements[i][2]) while (end < statements.length && !statements[end][2]) end++
    const sent = statements.slice(i, end).map(([text, values]) => client.query(statement(text, values, prepare)))
    // The first failure is the one thrown; those after it are heard here, and never again.
    for (const result of sent) result.catch(() => {})
    for (const result of sent) {
      last = await result
      ran()
    }
    i = end
  }
  return last
}
port.on("message", (m) => {
  queue = queue.then(() => handle(m).then((r) => answer({ ...r, id: m.id }), (e) => answer({ ...failure(e), id: m.id })))
})
`
