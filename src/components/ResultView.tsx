'use client'
import type { ReactNode } from 'react'
import { type Job, type Result } from '../react/index.js'
import { ArtifactViewer } from './ArtifactViewer.js'
import { cx } from './classNames.js'
import { useFormat, type Format } from './format.js'
import { useMessages } from './useMessages.js'

export interface ResultViewProps {
  /** A synchronous tool's `Result` or a deferred tool's succeeded `Job`. */
  result: Result | Job
  /** Show each result link in an `<ArtifactViewer>`. Default true. */
  showArtifacts?: boolean
  className?: string
}

/** Body fields that are bookkeeping, not the answer. */
const HIDDEN = new Set(['requestId', 'jobId', 'status', 'progress', 'tool'])

/**
 * The answer inside a body: a body whose only field (bookkeeping aside) is a record, such as a
 * job's `result`, is that record, so the card does not say "Result" twice.
 */
function answerOf(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  const fields = Object.entries(body).filter(([key]) => !HIDDEN.has(key))
  const only = fields.length === 1 ? fields[0]![1] : undefined
  return only && typeof only === 'object' && !Array.isArray(only) ? only : body
}

/** Field names as words: `pricePerSquareMetre` → `Price per square metre`. */
function words(key: string): string {
  const spaced = key.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

function Value({ value, links, format }: { value: unknown; links: Set<string>; format: Format }): ReactNode {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'number') return format.number(value)
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return links.has(value) ? null : value
  if (Array.isArray(value)) {
    return (
      <ol className="ct-result__list">
        {value.map((item, index) => (
          <li key={index}>
            <Value value={item} links={links} format={format} />
          </li>
        ))}
      </ol>
    )
  }
  return <Fields record={value as Record<string, unknown>} links={links} format={format} />
}

function Fields({ record, links, format }: { record: Record<string, unknown>; links: Set<string>; format: Format }) {
  const entries = Object.entries(record).filter(
    ([key, value]) => !HIDDEN.has(key) && !(typeof value === 'string' && links.has(value)),
  )
  if (entries.length === 0) return null
  return (
    <dl className="ct-result__fields">
      {entries.map(([key, value]) => (
        <div key={key} className="ct-result__field">
          <dt>{words(key)}</dt>
          <dd>
            <Value value={value} links={links} format={format} />
          </dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * A finished run, readably: the body's fields as a list (numbers formatted for the locale,
 * result links left to the viewers below), then each file in an `<ArtifactViewer>`.
 *
 * Classes: `ct-result`, parts `__heading`, `__fields`, `__field`, `__list`, `__artifacts`.
 */
export function ResultView({ result, showArtifacts = true, className }: ResultViewProps) {
  const messages = useMessages()
  const format = useFormat()
  const links = new Set(result.artifacts)
  const body = answerOf(result.data)
  return (
    <section className={cx('ct-result', className)} aria-label={messages.runner.result}>
      <h3 className="ct-result__heading">{messages.runner.result}</h3>
      {body && typeof body === 'object' ? (
        <Value value={body} links={links} format={format} />
      ) : (
        <p>{body === undefined ? '' : String(body)}</p>
      )}
      {showArtifacts && result.artifacts.length > 0 && (
        <div className="ct-result__artifacts">
          <h4 className="ct-result__heading">{messages.runner.artifacts}</h4>
          {result.artifacts.map((url) => (
            <ArtifactViewer key={url} url={url} />
          ))}
        </div>
      )}
    </section>
  )
}
