'use client'
import { Fragment, type ReactNode } from 'react'
import { type ToolId, type ToolResult } from '../react/index.js'
import { ArtifactViewer } from './ArtifactViewer.js'
import { cx, type RootProps } from './classNames.js'
import { useFormat, type Format } from './format.js'
import { useMessages } from './useMessages.js'

export interface ResultViewProps<T extends ToolId = ToolId> extends RootProps {
  /** A synchronous tool's `Result` or a deferred tool's succeeded `Job`, its `data` as declared in `Register`. */
  result: ToolResult<T>
  /** Show the result links at all. Default true. */
  showArtifacts?: boolean
  /** How to show one result link; default an `<ArtifactViewer>`. */
  renderArtifact?: (url: string) => ReactNode
}

/** Levels of nesting shown as fields; anything deeper is shown as text, so no answer can exhaust the stack. */
const MAX_DEPTH = 8

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

interface ValueProps {
  value: unknown
  links: Set<string>
  format: Format
  depth: number
}

/** A value nested too deep to lay out: as JSON text, shortened. */
function asText(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    // Nested deeper than JSON.stringify can go: there is nothing readable to show.
    text = '…'
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text
}

const isLink = (value: unknown, links: Set<string>) => typeof value === 'string' && links.has(value)

function Value({ value, links, format, depth }: ValueProps): ReactNode {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'number') return format.number(value)
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return links.has(value) ? null : value
  if (depth >= MAX_DEPTH) return <code className="ct-result__text">{asText(value)}</code>
  if (Array.isArray(value)) {
    // Result links are shown below as files: an item that is only a link is no item here.
    const items = value.filter((item) => !isLink(item, links))
    if (items.length === 0) return null
    return (
      <ol className="ct-result__list">
        {items.map((item, index) => (
          <li key={index}>
            <Value value={item} links={links} format={format} depth={depth + 1} />
          </li>
        ))}
      </ol>
    )
  }
  return <Fields value={value as Record<string, unknown>} links={links} format={format} depth={depth} />
}

/** Whether a field has something to show once its result links are left to the viewers. */
function shows(value: unknown, links: Set<string>): boolean {
  return !isLink(value, links) && !(Array.isArray(value) && value.length > 0 && value.every((item) => isLink(item, links)))
}

function Fields({ value: record, links, format, depth }: ValueProps & { value: Record<string, unknown> }) {
  const entries = Object.entries(record).filter(([key, value]) => !HIDDEN.has(key) && shows(value, links))
  if (entries.length === 0) return null
  return (
    <dl className="ct-result__fields">
      {entries.map(([key, value]) => (
        <div key={key} className="ct-result__field">
          <dt>{words(key)}</dt>
          <dd>
            <Value value={value} links={links} format={format} depth={depth + 1} />
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
 * Classes: `ct-result`, parts `__heading`, `__fields`, `__field`, `__list`, `__text` (what is
 * nested too deep to lay out), `__artifacts`.
 */
export function ResultView<T extends ToolId = ToolId>({ result, showArtifacts = true, renderArtifact, className, ...root }: ResultViewProps<T>) {
  const messages = useMessages()
  const format = useFormat()
  const links = new Set(result.artifacts)
  const body = answerOf(result.data)
  return (
    <section aria-label={messages.runner.result} {...root} className={cx('ct-result', className)}>
      <h3 className="ct-result__heading">{messages.runner.result}</h3>
      {body && typeof body === 'object' ? (
        <Value value={body} links={links} format={format} depth={0} />
      ) : (
        <p>{body === undefined ? '' : String(body)}</p>
      )}
      {showArtifacts && result.artifacts.length > 0 && (
        <div className="ct-result__artifacts">
          <h4 className="ct-result__heading">{messages.runner.artifacts}</h4>
          {result.artifacts.map((url) => (
            <Fragment key={url}>{renderArtifact ? renderArtifact(url) : <ArtifactViewer url={url} />}</Fragment>
          ))}
        </div>
      )}
    </section>
  )
}
