/**
 * Text on its way to a person's terminal. Memory text is written by agents, and a terminal
 * acts on the control characters in what it prints: ESC starts sequences that retitle the
 * window (OSC), clear the screen or move the cursor (CSI), and worse on some terminals; 8-bit
 * C1 codes (U+0080 to U+009F) do the same without the ESC; a carriage return or a backspace
 * overwrites what was printed. Every such character is shown as its escape (`\x1b`, `\x9b`,
 * `\x0d`), so the person sees what an agent wrote instead of having it done to their terminal.
 * Line feeds and tabs, which lay text out, stay. Bidi controls (U+202A to U+202E, U+2066 to
 * U+2069, …) reorder how a line reads without being seen, so they are shown too (`\u202e`).
 *
 * Only human output passes through here; `--json` prints the exact text, escaped by JSON.
 */
export const forTerminal = (text: string): string => (CONTROLS.test(text) ? text.replace(CONTROLS_ALL, visible) : text)

const CONTROL_CLASS = String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]`
const CONTROLS = new RegExp(CONTROL_CLASS)
const CONTROLS_ALL = new RegExp(CONTROL_CLASS, "g")

const visible = (c: string): string => {
  const code = c.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`
}
