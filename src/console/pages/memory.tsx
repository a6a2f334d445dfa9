/**
 * One memory: its text, cues and tags, its record drawn over time against the failure gate, its
 * links, and every event that touched it; and the actions a person takes on it (edit, an
 * outcome, confirm, forget or restore, supersede), each a call to the REST API.
 */
import { useState } from "preact/hooks"
import type { RecordOutput } from "../../api/console-wire.js"
import type { CuesOutput, LogOutput } from "../../api/outputs.js"
import { ApiError, get, patch, post, query } from "../api.js"
import { Chart, Legend } from "../parts/chart.js"
import { EventTable } from "../parts/events.js"
import { fixed, when } from "../parts/format.js"
import { ErrorNote, Show, useLoad } from "../parts/load.js"
import { href } from "../route.js"
import { CATEGORIES, OUTCOMES } from "../vocabulary.js"

export const MemoryPage = ({ id }: { id: string }) => {
  const [record, reload] = useLoad(() => get<RecordOutput>(`/memories/${encodeURIComponent(id)}/record`), [id])
  return (
    <section aria-labelledby="memory-title">
      <h1 id="memory-title">Memory {id.slice(0, 8)}</h1>
      <Show loaded={record}>{(r) => <Memory r={r} changed={reload} />}</Show>
    </section>
  )
}

const Memory = ({ r, changed }: { r: RecordOutput; changed: () => void }) => {
  const m = r.memory
  const [cues] = useLoad(() => get<CuesOutput>(`/memories/${m.id}/cues`), [m.id, m.updatedAt])
  const [timeline] = useLoad(() => get<LogOutput>(`/events${query({ memory: m.id, newest_first: true, limit: 200 })}`), [m.id, m.updatedAt, m.record.workedCount + m.record.failedCount + m.record.partialCount, m.forgotten])
  return (
    <>
      <blockquote class="memory-text">{m.content}</blockquote>
      <dl class="facts">
        <dt>Id</dt>
        <dd><code>{m.id}</code></dd>
        <dt>Category</dt>
        <dd>{m.category}</dd>
        <dt>Where</dt>
        <dd>{m.project ?? "global"}</dd>
        <dt>Status</dt>
        <dd>
          {m.forgotten ? `forgotten (${m.forgottenReason ?? ""})` : m.supersededBy !== null ? "superseded" : m.status}, confidence {fixed(m.confidence)}, {m.confirmations} confirmation{m.confirmations === 1 ? "" : "s"}
        </dd>
        <dt>Added</dt>
        <dd>
          {when(m.createdAt)} by {m.agent} in <a href={href("log", [], { origin: m.origin })}>{m.origin}</a>
        </dd>
        <dt>Tags</dt>
        <dd>{m.tags.length === 0 ? "none" : m.tags.map((t) => <a class="tag" key={t} href={href("memories", [], { tags: t })}>{t}</a>)}</dd>
        <dt>Links</dt>
        <dd>
          {m.supersededBy !== null ? <>superseded by <a href={href("memory", [m.supersededBy])}>{m.supersededBy.slice(0, 8)}</a>; </> : null}
          {m.distinctFrom.length > 0 ? <>distinct from {m.distinctFrom.map((d) => <a key={d} href={href("memory", [d])}>{d.slice(0, 8)} </a>)}</> : null}
          {m.supersededBy === null && m.distinctFrom.length === 0 ? "none" : null}
        </dd>
      </dl>
      <section aria-labelledby="cues-title">
        <h2 id="cues-title">Cues</h2>
        <Show loaded={cues}>
          {(c) =>
            c.cues.length === 0 ? (
              <p class="muted">No cue: it is found by its own words.</p>
            ) : (
              <ul class="plain">
                {c.cues.map((cue) => (
                  <li key={cue.text}>
                    “{cue.text}” <span class="muted">{cue.source === "written" ? "written" : `learned in ${cue.origin}, weight ${fixed(cue.weight)}`}</span>
                  </li>
                ))}
              </ul>
            )
          }
        </Show>
      </section>
      <RecordChart r={r} />
      <Actions r={r} changed={changed} />
      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <Show loaded={timeline}>{(t) => <EventTable events={t.events} />}</Show>
      </section>
    </>
  )
}

const RecordChart = ({ r }: { r: RecordOutput }) => {
  const rec = r.memory.record
  const summary = `worked ${fixed(rec.worked)}, failed ${fixed(rec.failed)} (decayed, half-life ${r.halfLifeDays} days), score ${fixed(rec.score)}; the gate holds it back at ${r.failureGate} or below${rec.gated ? ": held back now" : ""}`
  return (
    <section aria-labelledby="record-title">
      <h2 id="record-title">Record</h2>
      <p>
        {rec.workedCount} worked, {rec.failedCount} failed, {rec.partialCount} partial reported; {summary}.
      </p>
      {r.points.length === 0 ? null : (
        <>
          <Chart
            label={`Record over time: ${summary}`}
            x={r.points.map((p) => Date.parse(p.at) / 1000)}
            right={{ scale: "score", range: [-1, 1], label: "score" }}
            series={[
              { label: "worked", color: "--worked", values: r.points.map((p) => p.worked) },
              { label: "failed", color: "--failed", values: r.points.map((p) => p.failed) },
              { label: "score", color: "--score", scale: "score", values: r.points.map((p) => p.score) },
              { label: "gate", color: "--gate", scale: "score", dash: [6, 4], values: r.points.map(() => r.failureGate) }
            ]}
          />
          <Legend
            items={[
              { label: "worked (decayed)", className: "worked" },
              { label: "failed (decayed)", className: "failed" },
              { label: "score", className: "score-line" },
              { label: `gate ${r.failureGate}`, className: "gate" }
            ]}
          />
        </>
      )}
    </section>
  )
}

const Actions = ({ r, changed }: { r: RecordOutput; changed: () => void }) => {
  const m = r.memory
  const [problem, setProblem] = useState<ApiError | undefined>()
  const [done, setDone] = useState<string | undefined>()
  const act = (what: string, run: () => Promise<unknown>) => async () => {
    setProblem(undefined)
    try {
      await run()
      setDone(what)
      changed()
    } catch (error) {
      setProblem(error as ApiError)
    }
  }
  const edit = (e: Event) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget as HTMLFormElement)
    const tags = String(form.get("tags") ?? "").split(",").map((t) => t.trim()).filter((t) => t !== "")
    void act("edited", () => patch(`/memories/${m.id}`, { content: String(form.get("content")), category: String(form.get("category")), tags }))()
  }
  const supersede = (e: Event) => {
    e.preventDefault()
    const by = String(new FormData(e.currentTarget as HTMLFormElement).get("by") ?? "").trim()
    void act("superseded", () => post(`/memories/${m.id}/supersede`, { by }))()
  }
  return (
    <section aria-labelledby="actions-title" class="panel">
      <h2 id="actions-title">Actions</h2>
      <div class="row">
        {OUTCOMES.map((o) => (
          <button key={o} type="button" onClick={act(`outcome ${o} recorded`, () => post("/outcomes", { memory_ids: [m.id], outcome: o }))}>
            It {o}
          </button>
        ))}
        <button type="button" onClick={act("confirmed", () => post(`/memories/${m.id}/confirm`))}>Confirm</button>
        {m.forgotten ? (
          <button type="button" onClick={act("restored", () => post(`/memories/${m.id}/restore`))}>Restore</button>
        ) : (
          <button type="button" class="danger" onClick={act("forgotten", () => post(`/memories/${m.id}/forget`, { reason: "forgotten in the console" }))}>
            Forget
          </button>
        )}
      </div>
      <form class="stack" onSubmit={edit} aria-label="Edit">
        <label>
          Text <textarea name="content" rows={3} value={m.content} />
        </label>
        <div class="row">
          <label>
            Category
            <select name="category" value={m.category}>
              {CATEGORIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <label>
            Tags <input name="tags" value={m.tags.join(", ")} />
          </label>
          <button type="submit">Save</button>
        </div>
      </form>
      <form class="row" onSubmit={supersede} aria-label="Supersede">
        <label>
          Superseded by <input name="by" placeholder="id of the memory that replaces it" required minLength={6} />
        </label>
        <button type="submit">Supersede</button>
      </form>
      {done !== undefined ? <p role="status">Done: {done}.</p> : null}
      {problem !== undefined ? <ErrorNote error={problem} /> : null}
    </section>
  )
}
