/**
 * `mem --help`, `mem COMMAND --help` and a bare `mem`, printed here from @effect/cli's own help
 * (descriptions, options, defaults), with what it gets wrong put right:
 * - a subcommand's usage line named the subcommand alone (`$ add ...`), which no shell runs;
 *   here it is the whole command (`$ mem add ...`, `$ mem tasks sync ...`);
 * - every option and argument opened with its value's type in words ("A user-defined piece of
 *   text.", "An integer."), which says nothing the usage line does not; those are left out;
 * - `mem --db PATH --help` was refused as an invalid subcommand.
 */
import { CliConfig, CommandDescriptor, HelpDoc, Primitive, Usage } from "@effect/cli"
import * as Span from "@effect/cli/HelpDoc/Span"
import { HashSet, Option } from "effect"

/** A command whose help can be printed, and the commands under it. */
export interface HelpNode {
  readonly name: string
  readonly help: (config: CliConfig.CliConfig) => HelpDoc.HelpDoc
  readonly usage: Usage.Usage
  readonly children: ReadonlyArray<HelpNode>
}

export const helpNode = (command: { readonly descriptor: CommandDescriptor.Command<unknown> }, children: ReadonlyArray<HelpNode> = []): HelpNode => ({
  name: [...HashSet.values(CommandDescriptor.getNames(command.descriptor))][0]!,
  help: (config) => CommandDescriptor.getHelp(command.descriptor, config),
  usage: CommandDescriptor.getUsage(command.descriptor),
  children
})

/** The root's options that come before a command, with the value each takes. */
const ROOT_OPTIONS_WITH_VALUE = new Set(["--db", "--log-level"])

/**
 * The command whose help `args` (the command line after `mem`) asks for: `[]` for `mem`,
 * `mem --help` or `mem --db PATH -h`; `["tasks", "sync"]` for `mem tasks sync --help`.
 * Undefined when it asks for none. Nothing after `--` is an option.
 */
export const helpRequest = (args: ReadonlyArray<string>, root: HelpNode): ReadonlyArray<string> | undefined => {
  if (args.length === 0) return []
  const end = args.indexOf("--")
  const options = end < 0 ? args : args.slice(0, end)
  if (!options.includes("--help") && !options.includes("-h")) return undefined
  const path: string[] = []
  let node = root
  for (let i = 0; i < options.length; i++) {
    const arg = options[i]!
    if (path.length === 0 && ROOT_OPTIONS_WITH_VALUE.has(arg)) i++
    else if (arg.startsWith("-")) continue
    else {
      const child = node.children.find((c) => c.name === arg)
      if (child === undefined) break
      path.push(arg)
      node = child
    }
  }
  return path
}

/** The help of the command at `path` under `root`, with terminal colours (cli-console.ts removes them where unwanted). */
export const helpText = (root: HelpNode, path: ReadonlyArray<string>, version: string, config = CliConfig.defaultConfig): string => {
  let node = root
  for (const name of path) node = node.children.find((c) => c.name === name) ?? node
  // The usage of `sync` starts "sync ...": what comes before it is the way to it.
  const prefix = [root.name, ...path.slice(0, -1)].slice(path.length === 0 ? 1 : 0).join(" ")
  const usage = Usage.enumerate(node.usage, config).map((span) =>
    HelpDoc.p(Span.concat(Span.text(`$ ${prefix === "" ? "" : `${prefix} `}`), span))
  )
  return HelpDoc.toAnsiText(
    HelpDoc.blocks([
      HelpDoc.h1(Span.code("memledger")),
      HelpDoc.p(`memledger ${version}`),
      HelpDoc.h1("USAGE"),
      ...usage,
      withoutTypeSentences(node.help(config))
    ])
  )
}

/** What @effect/cli says of every text, whole number and flag alike. */
const TYPE_SENTENCES = new Set([
  Primitive.getHelp(Primitive.text),
  Primitive.getHelp(Primitive.integer),
  Primitive.getHelp(Primitive.boolean(Option.none()))
].map(textOf))

const withoutTypeSentences = (doc: HelpDoc.HelpDoc): HelpDoc.HelpDoc => {
  switch (doc._tag) {
    case "Sequence":
      return HelpDoc.sequence(withoutTypeSentences(doc.left), withoutTypeSentences(doc.right))
    case "DescriptionList": {
      const [[span, block], ...rest] = doc.definitions
      return HelpDoc.descriptionList([
        [span, withoutTypeSentences(block)],
        ...rest.map(([s, b]): [Span.Span, HelpDoc.HelpDoc] => [s, withoutTypeSentences(b)])
      ])
    }
    case "Paragraph":
      return TYPE_SENTENCES.has(textOf(doc.value)) ? HelpDoc.empty : doc
    default:
      return doc
  }
}

function textOf(span: Span.Span): string {
  switch (span._tag) {
    case "Text":
      return span.value
    case "Sequence":
      return textOf(span.left) + textOf(span.right)
    case "Highlight":
    case "Strong":
    case "Weak":
      return textOf(span.value)
    default:
      return ""
  }
}
