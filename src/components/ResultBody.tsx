'use client'
import { Fragment, type ComponentType, type ForwardedRef, type ReactNode } from 'react'
import type { ToolId } from '../react/index.js'
import type { CoreMessages } from '../react/internal.js'
import type { ArtifactViewerProps } from './ArtifactViewer.js'
import type { Format } from './format.js'
import type { ResultViewProps } from './ResultView.js'

// `<ResultView>`'s own code: a chunk of its own, fetched when a result is first shown (or on idle).
// Its strings, formats and the file viewer come from the wrapper, which has them anyway: a bundler
// that splits by module (esbuild) would otherwise load them with a page's hooks alone.

/** What the wrapper works out with the page's modules. */
export interface ResultWords {
  messages: CoreMessages
  format: Format
  ArtifactViewer: ComponentType<ArtifactViewerProps>
  rootRef: ForwardedRef<HTMLElement>
}

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ')

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

/**
 * A field's label: the locale's for result fields, else the input field's label (`city`), else
 * the name in words (`pricePerSquareMetre` → `Price per square metre`).
 */
function labelOf(messages: CoreMessages, key: string): string {
  if (Object.hasOwn(messages.resultFields, key)) return messages.resultFields[key]!
  if (Object.hasOwn(messages.fields, key)) return messages.fields[key as keyof CoreMessages['fields']]
  const spaced = key.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

/** Whether a value is one of the result's files: compared as resolved URLs, as a proxy may write its links root-relative. */
type IsLink = (value: unknown) => boolean

function linkTest(artifacts: readonly string[]): IsLink {
  const links = new Set(artifacts)
  return (value) => {
    if (typeof value !== 'string' || !artifacts.length || !/^(https?:\/\/|\/)/i.test(value)) return false
    try {
      return links.has(new URL(value, artifacts[0]).href)
    } catch {
      return false
    }
  }
}

interface ValueProps {
  value: unknown
  isLink: IsLink
  messages: CoreMessages
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

function Value(props: ValueProps): ReactNode {
  const { value, isLink, format, depth } = props
  if (value === null || value === undefined) return '—'
  if (typeof value === 'number') return format.number(value)
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return isLink(value) ? null : value
  if (depth >= MAX_DEPTH) return <code className="ct-result__text">{asText(value)}</code>
  if (Array.isArray(value)) {
    // Result links are shown below as files: an item that is only a link is no item here.
    const items = value.filter((item) => !isLink(item))
    if (items.length === 0) return null
    return (
      <ol className="ct-result__list">
        {items.map((item, index) => (
          <li key={index}>
            <Value {...props} value={item} depth={depth + 1} />
          </li>
        ))}
      </ol>
    )
  }
  return <Fields {...props} value={value as Record<string, unknown>} />
}

/** Whether a field has something to show once its result links are left to the viewers. */
function shows(value: unknown, isLink: IsLink): boolean {
  return !isLink(value) && !(Array.isArray(value) && value.length > 0 && value.every(isLink))
}

function Fields(props: ValueProps & { value: Record<string, unknown> }) {
  const { value: record, isLink, messages, depth } = props
  const entries = Object.entries(record).filter(([key, value]) => !HIDDEN.has(key) && shows(value, isLink))
  if (entries.length === 0) return null
  return (
    <dl className="ct-result__fields">
      {entries.map(([key, value]) => (
        <div key={key} className="ct-result__field">
          <dt>{labelOf(messages, key)}</dt>
          <dd>
            <Value {...props} value={value} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  )
}

export function ResultBody<T extends ToolId = ToolId>(props: Omit<ResultViewProps<T>, 'ref'> & ResultWords) {
  const { result, showArtifacts = true, renderArtifact, className, messages, format, ArtifactViewer, rootRef: ref, ...root } = props
  const isLink = linkTest(result.artifacts)
  const body = answerOf(result.data)
  return (
    <section aria-label={messages.runner.resultOf(messages.tools[result.tool]?.title ?? result.tool)} {...root} ref={ref} className={cx('ct-result', className)}>
      <h3 className="ct-result__heading">{messages.runner.result}</h3>
      {body && typeof body === 'object' ? (
        <Value value={body} isLink={isLink} messages={messages} format={format} depth={0} />
      ) : (
        <p>{body === undefined || isLink(body) ? '' : String(body)}</p>
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
