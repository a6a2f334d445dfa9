/** How numbers, times and ids read on the page. */

export const fixed = (n: number, digits = 2): string => (Number.isInteger(n) ? String(n) : n.toFixed(digits))

export const when = (iso: string): string => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
}

export const shortHash = (hash: string): string => hash.slice(0, 12)

/** A datetime-local input's value for an ISO time, in local time, to the minute. */
export const localInput = (iso: string): string => {
  const d = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export const clip = (text: string, length = 140): string => (text.length > length ? `${text.slice(0, length - 1)}…` : text)
