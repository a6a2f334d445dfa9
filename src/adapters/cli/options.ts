/** Options that several commands share, so each is spelled, aliased and described once. */
import { Args, Options } from "@effect/cli"
import { Effect, Either, Option } from "effect"
import { checkActor } from "../../commands/actor.js"
import { InvalidInput, type SecretInIdentity } from "../../domain/errors.js"
import { tagsProblem } from "../../domain/vocabulary.js"
import { CLI_WRITER } from "../../domain/vouching.js"
import { currentTask } from "../../tasks/find-tasks.js"
import { UsageError } from "./output.js"

export const json = Options.boolean("json").pipe(Options.withDescription("print exactly one JSON value on stdout"))
export const origin = Options.text("origin").pipe(
  Options.withDescription("the conversation this comes from, e.g. claude-code:session/<id>"),
  // Left as it is, with --agent, it says a person is writing (domain/vouching.ts).
  Options.withDefault(CLI_WRITER)
)
export const agent = Options.text("agent").pipe(Options.withDescription("the client writing it"), Options.withDefault(CLI_WRITER))
export const category = Options.text("category").pipe(
  Options.withAlias("c"),
  Options.withDescription("architecture, convention, decision, pattern, gotcha, workaround, troubleshooting, command, preference or general"),
  Options.optional
)
export const project = Options.text("project").pipe(Options.withAlias("p"), Options.withDescription("a project identity"), Options.optional)
export const tags = Options.text("tag").pipe(Options.withAlias("t"), Options.withDescription("a tag (repeat for more)"), Options.repeated)
export const cues = Options.text("cue").pipe(
  Options.withDescription("a question or phrasing someone would ask when they need this memory, up to 32 words (repeat for more, at most 5)"),
  Options.repeated
)
export const also = Options.text("also").pipe(
  Options.withDescription("another phrasing of the same need, in the words a memory would likely use (repeat for more, at most 5)"),
  Options.repeated
)
/** -l/--limit, described with the command's own range and default. */
export const limit = (description: string) => Options.integer("limit").pipe(Options.withAlias("l"), Options.withDescription(description), Options.optional)
/** A memory named by its id or a unique prefix of it. */
export const memoryId = (name = "id") => Args.text({ name }).pipe(Args.withDescription("a memory's id, or a unique prefix of 6 or more characters"))
export const task = Options.text("task").pipe(
  Options.withDescription("the task this recall serves (default: the task in progress in Beads or Claude Code todos; --task '' for none)"),
  Options.optional
)

/**
 * The task a recall is linked to: the one given, else the task in progress where the command
 * runs (docs/tasks.md). Decided here, at the edge, like the project: the services only ever
 * get an explicit task. An empty --task means "link to none".
 */
export const taskOrCurrent = (given: Option.Option<string>): Option.Option<string> =>
  Option.match(given, {
    onSome: (t) => (t.trim().length === 0 ? Option.none() : Option.some(t)),
    onNone: () => Option.fromNullable(currentTask({ cwd: process.cwd(), env: process.env })?.ref)
  })

/** An optional option as an optional field: `{ key: value }` when given, `{}` when not. */
export const some = <K extends string, A>(key: K, option: Option.Option<A>): { [P in K]?: A } =>
  Option.match(option, { onNone: () => ({}), onSome: (value) => ({ [key]: value }) as { [P in K]: A } })

/**
 * --origin and --agent held to the rule every write is held to (src/commands/actor.ts), checked
 * before anything runs, so that a bad one is refused naming the option, locally and remotely,
 * and a secret in one never leaves this process.
 */
export const checkWho = (a: { readonly origin: string; readonly agent: string }): Effect.Effect<void, InvalidInput | SecretInIdentity> =>
  Either.match(checkActor(a, { origin: "--origin", agent: "--agent" }), { onLeft: Effect.fail, onRight: () => Effect.void })

/** -t/--tag values held to the one tag rule (vocabulary.ts `tagsProblem`), named as the option. */
export const checkTags = (tags: ReadonlyArray<string>): Effect.Effect<void, InvalidInput> => {
  const problem = tagsProblem(tags)
  return problem === undefined ? Effect.void : Effect.fail(new InvalidInput({ message: `--tag: ${problem}` }))
}

/**
 * A whole-number option within its range, or a usage error (exit 2) naming the option and the
 * range. The ranges are the operations' own (src/api/inputs.ts); checked here so the message
 * speaks of the option typed, not of the operation's field.
 */
export const checkRange = (
  name: string,
  value: Option.Option<number>,
  min: number,
  max?: number
): Effect.Effect<void, UsageError> => {
  if (Option.isNone(value)) return Effect.void
  const n = value.value
  if (n >= min && (max === undefined || n <= max)) return Effect.void
  const range = max === undefined ? `${min} or more` : `from ${min} to ${max}`
  return Effect.fail(new UsageError(`${name} must be a whole number ${range}, not ${n}`))
}

/**
 * A time option (`why --at`) that the operation would not read as a time, as a usage error
 * naming the option. The rule is the operation's own (`Date.parse`, as retrieval reads `at`).
 */
export const checkTime = (name: string, value: Option.Option<string>): Effect.Effect<void, UsageError> =>
  Option.isSome(value) && Number.isNaN(Date.parse(value.value))
    ? Effect.fail(new UsageError(`${name} '${value.value}' is not a time; use ISO-8601, e.g. 2026-11-01 or 2026-11-01T12:00:00Z`))
    : Effect.void

/** The ranges of the numeric options: the operations' own. */
export { RANGES } from "../../api/inputs.js"
