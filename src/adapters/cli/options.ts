/** Options that several commands share, so each is spelled, aliased and described once. */
import { Options } from "@effect/cli"
import { Either, Option, Schema } from "effect"
import { UnknownCategory } from "../../domain/errors.js"
import { Category } from "../../domain/vocabulary.js"
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

const isCategory = Schema.is(Category)

/** A typed category, or the error that lists the valid ones. */
export const parseCategory = (value: Option.Option<string>): Either.Either<Category | undefined, UnknownCategory> =>
  Option.match(value, {
    onNone: () => Either.right(undefined),
    onSome: (c) => (isCategory(c) ? Either.right(c) : Either.left(new UnknownCategory({ category: c })))
  })
