/**
 * Why: a query ranked as `mem search` ranks it, each result's score drawn as a stacked bar of
 * its terms with the events behind each, every memory left out with its reason, and a time
 * control that asks as of a past moment. The numbers are the server's /why answer as it gave
 * them (the same as `mem why --json`); each is also in a data attribute, exact, for tests.
 */
import type { ExplainOutput } from "../../api/outputs.js"
import { post } from "../api.js"
import { fixed, localInput, when } from "../parts/format.js"
import { Show, useLoad } from "../parts/load.js"
import { href, navigate, type Route } from "../route.js"
import { Head } from "../parts/head.js"

const TERMS = ["relevance", "outcome", "recency", "confidence", "frequency"] as const
const TERM_LABEL: Record<(typeof TERMS)[number], string> = {
  relevance: "relevance",
  outcome: "record",
  recency: "recency",
  confidence: "confidence",
  frequency: "frequency"
}
const DAY_MS = 86_400_000

export const WhyPage = ({ route }: { route: Route }) => {
  const q = route.params.get("q") ?? ""
  const project = route.params.get("project") ?? undefined
  const at = route.params.get("at") ?? undefined
  const go = (changes: Record<string, string | undefined>) => navigate(href("why", [], { q, project, at, ...changes }))
  const submit = (e: Event) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget as HTMLFormElement)
    const when_ = String(form.get("at") ?? "")
    go({ q: String(form.get("q") ?? "").trim(), project: String(form.get("project") ?? "").trim() || undefined, at: when_ === "" ? undefined : new Date(when_).toISOString() })
  }
  return (
    <section aria-labelledby="why-title">
      <h1 id="why-title">Why</h1>
      <form class="filters" onSubmit={submit} aria-label="Query">
        <label>
          Query <input name="q" type="search" value={q} required />
        </label>
        <label>
          Project <input name="project" value={project ?? ""} placeholder="empty: global only" />
        </label>
        <label>
          As of <input name="at" type="datetime-local" value={at === undefined ? "" : localInput(at)} />
        </label>
        <button type="submit">Explain</button>
      </form>
      <div class="row" role="group" aria-label="As of">
        <button type="button" onClick={() => go({ at: undefined })} aria-pressed={at === undefined}>Now</button>
        {[1, 7, 30, 90].map((days) => (
          <button key={days} type="button" onClick={() => go({ at: new Date(Date.now() - days * DAY_MS).toISOString() })}>
            {days} day{days === 1 ? "" : "s"} ago
          </button>
        ))}
      </div>
      {q === "" ? <p class="muted">Type a query to see how each memory's score is reached, and what is left out.</p> : <Answer q={q} project={project} at={at} />}
    </section>
  )
}

/** The first question about a moment folds the log up to it (the server keeps that past for the next). */
const PAST_WAIT = "Reading the store as it was then. The first question about a moment replays the log up to it, which takes a while on a large store."

const Answer = ({ q, project, at }: { q: string; project: string | undefined; at: string | undefined }) => {
  const [answer] = useLoad(() => post<ExplainOutput>("/why", { query: q, ...(project ? { project } : {}), ...(at ? { at } : {}) }), [q, project, at])
  return (
    <Show loaded={answer} waiting={at ? PAST_WAIT : undefined}>
      {(r) => (
        <div class="why" data-at={r.at}>
          <p>
            {r.mode} search, {r.project ?? "global memories only"}, as of <time dateTime={r.at}>{when(r.at)}</time>
            {r.notice ? ` (${r.notice})` : ""}.
          </p>
          <TermLegend />
          {r.results.length === 0 ? <p class="muted">No result.</p> : null}
          <ol class="why-results">
            {r.results.map((x) => (
              <Result key={x.id} x={x} top={Math.max(...r.results.map((y) => positive(y.terms)))} />
            ))}
          </ol>
          <h2>Left out ({r.leftOut.length})</h2>
          {r.leftOut.length === 0 ? (
            <p class="muted">Nothing that matched was left out.</p>
          ) : (
            <div class="scroll">
              <table class="left-out">
                <Head columns={["Memory", "Stage", "Reason"]} />
                <tbody>
                  {r.leftOut.map((l) => (
                    <tr key={l.id} data-id={l.id} data-stage={l.stage}>
                      <td>
                        {l.shortId === null ? <code>{l.id.slice(0, 8)}</code> : <a href={href("memory", [l.id])}>{l.shortId}</a>} {l.content}
                      </td>
                      <td>{l.stage}</td>
                      <td>{l.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </Show>
  )
}

type Explained = ExplainOutput["results"][number]

/** The learned cue whose vector gave a result's cosine, and the conversation that taught it. */
const VectorCueLine = ({ cue }: { cue: NonNullable<Explained["terms"]["relevance"]["viaCue"]> }) => (
  <p class="muted" data-via-cue={cue.text}>
    vector via learned cue “{cue.text}”: cosine {fixed(cue.cosine, 3)} × weight {fixed(cue.weight, 2)}, taught by {cue.origin} (outcome event{" "}
    <code>{cue.outcomeEventId.slice(0, 8)}</code>)
  </p>
)

const positive = (terms: Explained["terms"]) => TERMS.reduce((sum, t) => sum + Math.max(0, terms[t].contribution), 0)

const Result = ({ x, top }: { x: Explained; top: number }) => (
  <li class="why-result" data-id={x.id} data-score={String(x.score)}>
    <p>
      <strong>#{x.rank}</strong> <a href={href("memory", [x.id])}>{x.shortId}</a> score <span class="score">{fixed(x.score, 4)}</span>
      {x.probation ? <span class="tag">on probation</span> : null} {x.content}
    </p>
    <div class="stacked" role="img" aria-label={TERMS.map((t) => `${TERM_LABEL[t]} ${fixed(x.terms[t].contribution, 3)}`).join(", ")}>
      {TERMS.map((t) =>
        x.terms[t].contribution > 0 ? <span key={t} class={`seg ${t}`} style={{ width: `${(100 * x.terms[t].contribution) / Math.max(top, 1e-9)}%` }} /> : null
      )}
    </div>
    {x.terms.relevance.viaCue ? <VectorCueLine cue={x.terms.relevance.viaCue} /> : null}
    <details open={x.rank === 1}>
      <summary>Terms and the events behind them</summary>
      <div class="scroll">
      <table class="terms">
        <Head columns={["Term", "Value", "Weight", "Contribution", "Events"]} />
        <tbody>
          {TERMS.map((t) => (
            <tr key={t} data-term={t} data-value={String(x.terms[t].value)} data-weight={String(x.terms[t].weight)} data-contribution={String(x.terms[t].contribution)}>
              <th scope="row">{TERM_LABEL[t]}</th>
              <td>{fixed(x.terms[t].value, 4)}</td>
              <td>{fixed(x.terms[t].weight, 2)}</td>
              <td>{fixed(x.terms[t].contribution, 4)}</td>
              <td>
                {x.events[t].length === 0
                  ? "—"
                  : x.events[t].map((e) => (
                      <a key={e.id} href={href("log", [], { memory: x.id })} title={`${e.type} by ${e.origin}, ${e.recordedAt}`} class="id">
                        #{e.seq} {"outcome" in e ? e.outcome : e.type}
                      </a>
                    ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </details>
  </li>
)

const TermLegend = () => (
  <ul class="legend">
    {TERMS.map((t) => (
      <li key={t}>
        <span class={`swatch seg ${t}`} aria-hidden="true" />
        {TERM_LABEL[t]}
      </li>
    ))}
  </ul>
)
