/** Options that several commands share, so each is spelled, aliased and described once. */
import { Options } from "@effect/cli"
import { Option } from "effect"
import { currentTask } from "../../tasks/find-tasks.js"

export const json = Options.boolean("json").pipe(Options.withDescription("print exactly one JSON value on stdout"))
export const origin = Options.text("origin").pipe(
  Options.withDescription("the conversation this comes from, e.g. claude-code:session/<id>"),
  Options.withDefault("cli")
)
export const agent = Options.text("agent").pipe(Options.withDescription("the client writing it"), Options.withDefault("cli"))
export const category = Options.text("category").pipe(
  Options.withAlias("c"),
  Options.withDescription("architecture, convention, decision, pattern, gotcha, workaround, troubleshooting, command, preference or general"),
  Options.optional
)
export const project = Options.text("project").pipe(Options.withAlias("p"), Options.withDescription("a project identity"), Options.optional)
export const tags = Options.text("tag").pipe(Options.withAlias("t"), Options.withDescription("a tag (repeat for more)"), Options.repeated)
export const limit = Options.integer("limit").pipe(Options.withAlias("l"), Options.optional)
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
