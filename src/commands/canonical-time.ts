/**
 * Whether an import line's `createdAt` is a time the schema reads as itself (`DateTime.formatIso`
 * of it gives the same text), so that the line's fast reader (import-lines.ts memoryItemOf)
 * may keep the text as given. That is the form `toISOString` writes, with every field in range:
 * a date that does not exist (February 30th, hour 24) is moved by `Date` to another text.
 *
 * Checked on the digits, where `new Date(text).toISOString() === text` made a Date and a string
 * per line; test/core/canonical-time.property.test.ts holds the two equal.
 */
export const isCanonicalTime = (text: string): boolean => {
  if (!CANONICAL_TIME.test(text)) return false
  const year = number(text, 0, 4)
  const month = number(text, 5, 2)
  const day = number(text, 8, 2)
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    number(text, 11, 2) < 24 &&
    number(text, 14, 2) < 60 &&
    number(text, 17, 2) < 60
  )
}

const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/** The number written by the `length` ASCII digits at `start`. */
const number = (text: string, start: number, length: number): number => {
  let n = 0
  for (let i = start; i < start + length; i++) n = n * 10 + (text.charCodeAt(i) - 48)
  return n
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Days of a month in the proleptic Gregorian calendar, as Date counts them. */
const daysIn = (year: number, month: number): number =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS[month - 1]!
