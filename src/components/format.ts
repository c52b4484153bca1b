import { useCoreMessages } from './useMessages.js'

/** Numbers, sizes and durations written for one locale. */
export interface Format {
  /** `1234.5` → "1,234.5" (en), "1 234,5" (ru). */
  number(value: number): string
  /** `0.42` → "42%". */
  percent(fraction: number): string
  /** Decimal units, as file managers show them: `512` → "512 bytes", `1_500_000` → "1.5 MB". */
  bytes(size: number): string
  /** In words, for waits: `65_000` → "1 min, 5 sec". */
  duration(ms: number): string
  /** As a clock, for running timers: `65_000` → "1:05", `3_725_000` → "1:02:05". */
  clock(ms: number): string
  /** A moment (ms since the epoch) as a date and time in the person's time zone: "Nov 27, 3:00 AM" (en), "27 нояб., 03:00" (ru). */
  dateTime(at: number): string
  /** `['PNG', 'JPG', 'PDF']` → "PNG, JPG, and PDF" (`and`) or "PNG, JPG, or PDF" (`or`). */
  list(items: readonly string[], joiner?: 'and' | 'or'): string
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const

/** The locale if Intl knows how to read it, else English: a typo in messages must not crash the UI. */
function supported(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en'
  } catch {
    return 'en'
  }
}

function createFormat(requested: string): Format {
  const locale = supported(requested)
  const numberFormat = new Intl.NumberFormat(locale)
  const percentFormat = new Intl.NumberFormat(locale, { style: 'percent' })
  const dateTimeFormat = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
  const twoDigits = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false })
  const unit = (name: string, value: number, maximumFractionDigits = 0, unitDisplay: 'short' | 'long' = 'short') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay, maximumFractionDigits }).format(value)

  const split = (ms: number) => {
    const total = Math.max(0, Math.round(ms / 1000))
    return { hours: Math.floor(total / 3600), minutes: Math.floor(total / 60) % 60, seconds: total % 60 }
  }

  return {
    number: (value) => numberFormat.format(value),
    percent: (fraction) => percentFormat.format(fraction),
    bytes(size) {
      let exponent = 0
      // Step up while the figure would round to 1000 or more: "1 MB", never "1,000 kB".
      while (size / 1000 ** exponent >= 999.5 && exponent < BYTE_UNITS.length - 1) exponent += 1
      const value = size / 1000 ** exponent
      // Whole bytes in words ("512 bytes": the short form is "512 byte" in English), larger units short.
      if (exponent === 0) return unit('byte', value, 0, 'long')
      return unit(BYTE_UNITS[exponent]!, value, value < 10 ? 1 : 0)
    },
    duration(ms) {
      const { hours, minutes, seconds } = split(ms)
      // "1 min, 5 sec", as Intl.DurationFormat writes it, from parts every browser's Intl has.
      const parts = [
        hours > 0 && unit('hour', hours),
        minutes > 0 && unit('minute', minutes),
        (seconds > 0 || hours + minutes === 0) && unit('second', seconds),
      ].filter((part) => part !== false)
      return new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(parts)
    },
    clock(ms) {
      const { hours, minutes, seconds } = split(ms)
      const pad = (value: number) => twoDigits.format(value)
      return hours > 0
        ? `${numberFormat.format(hours)}:${pad(minutes)}:${pad(seconds)}`
        : `${numberFormat.format(minutes)}:${pad(seconds)}`
    },
    dateTime: (at) => dateTimeFormat.format(at),
    list: (items, joiner = 'and') =>
      new Intl.ListFormat(locale, { type: joiner === 'and' ? 'conjunction' : 'disjunction' }).format(items),
  }
}

const formats = new Map<string, Format>()

/** The formatters for `locale`, made once per locale and shared. */
export function formatFor(locale: string): Format {
  let format = formats.get(locale)
  if (!format) {
    format = createFormat(locale)
    formats.set(locale, format)
  }
  return format
}

/** The formatters for the provider's `messages.locale`. */
export function useFormat(): Format {
  return formatFor(useCoreMessages().locale)
}
