/** Overview: what the store holds, how outcomes went day by day, what the gate holds back, the chain. */
import type { OverviewOutput } from "../../api/console-wire.js"
import { get } from "../api.js"
import { Chart, Legend } from "../parts/chart.js"
import { fixed, shortHash, when } from "../parts/format.js"
import { Show, useLoad } from "../parts/load.js"
import { href } from "../route.js"
import { Head } from "../parts/head.js"

const DAY_S = 86_400

export const OverviewPage = () => {
  const [loaded] = useLoad(() => get<OverviewOutput>("/overview"), [])
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <Show loaded={loaded}>{(o) => <Overview o={o} />}</Show>
    </section>
  )
}

const Overview = ({ o }: { o: OverviewOutput }) => (
  <>
    <div class="cards">
      <Card title="Memories" value={o.memories.live} note={`${o.memories.confirmed} confirmed, ${o.memories.tentative} tentative; ${o.memories.forgotten} forgotten, ${o.memories.superseded} superseded`} />
      <Card title="Events in the log" value={o.events} note={o.chain.head === null ? "empty log" : `head #${o.chain.head.seq} ${shortHash(o.chain.head.hash)}`} />
      <Card title="Search" value={o.search.mode} note={`embedder ${o.search.embedder}${o.search.vectorsCurrent === false ? ", vectors catching up" : ""}`} />
      <Card
        title="Hash chain"
        value={o.chain.broken === null ? "no break found" : `broken at #${o.chain.broken.brokenAt}`}
        note={o.chain.broken === null ? "as of the last `mem verify`; run it to check every event" : `${o.chain.broken.reason} (found ${when(o.chain.broken.foundAt)}); writes are refused`}
        alarm={o.chain.broken !== null}
      />
    </div>
    <div class="columns">
      <section aria-labelledby="outcomes-title">
        <h2 id="outcomes-title">Outcomes a day, last 30 days</h2>
        <OutcomesChart days={o.outcomesByDay} at={o.at} />
      </section>
      <section aria-labelledby="gated-title">
        <h2 id="gated-title">Held back by the failure gate ({o.gated.count})</h2>
        {o.gated.memories.length === 0 ? (
          <p class="muted">No live memory's record is at or below the gate.</p>
        ) : (
          <ul class="plain">
            {o.gated.memories.map((g) => (
              <li key={g.id}>
                <a href={href("memory", [g.id])}>{g.shortId}</a> <span class="score bad">{fixed(g.score)}</span> {g.content}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
    <div class="columns">
      <Counts title="By category" rows={o.byCategory} link={(name) => href("memories", [], { category: name ?? undefined })} />
      <Counts title="By project" rows={o.byProject} link={(name) => href("memories", [], { project: name ?? undefined })} />
    </div>
    <section aria-labelledby="conversations-title">
      <h2 id="conversations-title">Conversations heard from last</h2>
      <div class="scroll">
      <table>
        <Head columns={["Conversation", "Last event", "Memories added", "Outcomes"]} />
        <tbody>
          {o.conversations.map((c) => (
            <tr key={c.origin}>
              <td>
                <a href={href("log", [], { origin: c.origin })}>{c.origin}</a> {c.forgotten ? <span class="tag">forgotten</span> : null}
              </td>
              <td>{when(c.lastAt)}</td>
              <td>{c.memoriesAdded}</td>
              <td>{c.outcomes}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </section>
  </>
)

const Card = ({ title, value, note, alarm = false }: { title: string; value: string | number; note: string; alarm?: boolean }) => (
  <div class={`card${alarm ? " alarm" : ""}`}>
    <h2>{title}</h2>
    <p class="big">{value}</p>
    <p class="muted">{note}</p>
  </div>
)

const Counts = ({ title, rows, link }: { title: string; rows: OverviewOutput["byCategory"]; link: (name: string | null) => string }) => {
  const most = Math.max(1, ...rows.map((r) => r.memories))
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      <ul class="counts">
        {rows.map((r) => (
          <li key={r.name ?? ""}>
            <a href={link(r.name)}>{r.name ?? "global"}</a>
            <span class="count-bar" style={{ width: `${(100 * r.memories) / most}%` }} aria-hidden="true" />
            <span class="count">{r.memories}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Stacked bars, drawn as totals over each other: partial on top of failed on top of worked. */
const OutcomesChart = ({ days, at }: { days: OverviewOutput["outcomesByDay"]; at: string }) => {
  const end = Math.floor(Date.parse(at) / 1000 / DAY_S)
  const x = Array.from({ length: 30 }, (_, i) => (end - 29 + i) * DAY_S)
  const byDay = new Map(days.map((d) => [Date.parse(`${d.day}T00:00:00Z`) / 1000, d]))
  const at_ = (t: number) => byDay.get(t) ?? { worked: 0, failed: 0, partial: 0 }
  const total = days.reduce((sum, d) => sum + d.worked + d.failed + d.partial, 0)
  return (
    <>
      <Chart
        label={`Outcome reports a day over the last 30 days: ${total} in all`}
        x={x}
        series={[
          { label: "partial", color: "--partial", bars: true, values: x.map((t) => at_(t).worked + at_(t).failed + at_(t).partial) },
          { label: "failed", color: "--failed", bars: true, values: x.map((t) => at_(t).worked + at_(t).failed) },
          { label: "worked", color: "--worked", bars: true, values: x.map((t) => at_(t).worked) }
        ]}
      />
      <Legend
        items={[
          { label: `worked ${days.reduce((s, d) => s + d.worked, 0)}`, className: "worked" },
          { label: `failed ${days.reduce((s, d) => s + d.failed, 0)}`, className: "failed" },
          { label: `partial ${days.reduce((s, d) => s + d.partial, 0)}`, className: "partial" }
        ]}
      />
    </>
  )
}
