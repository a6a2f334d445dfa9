/**
 * Whether the agent ran a `command` memory's advice: the memory's quoted command (a `code
 * span`) appears in a shell command the agent ran, spaces aside. A memory with no code span is
 * never matched: its prose is too loose to tell use from coincidence.
 */
const CODE_SPAN = /`([^`\n]{4,300})`/g
const normalise = (text: string): string => text.replace(/\s+/g, " ").trim()

export const commandsIn = (content: string): string[] => [...content.matchAll(CODE_SPAN)].map((m) => normalise(m[1]!)).filter((c) => c.length >= 4)

export const ranCommandOf = (memoryContent: string, commandsRun: ReadonlyArray<string>): boolean => {
  const advised = commandsIn(memoryContent)
  if (advised.length === 0) return false
  const ran = commandsRun.map(normalise)
  return advised.some((command) => ran.some((r) => r.includes(command)))
}
