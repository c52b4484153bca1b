'use client'
import { useId, type ForwardedRef, type MouseEvent } from 'react'
import { isToolsError, useToolsContext, type ToolsErrorKind, type ValidationIssue } from '../react/index.js'
import { proxyRefusalOf } from '../react/index.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { useFormat } from './format.js'
import { AlertIcon, CloseIcon } from './icons.js'
import { fieldLabel, issueMessage } from './issues.js'
import { useCountdown } from './clock.js'
import { capResetOf, remedyOf } from './remedy.js'
import { useCoreMessages } from './useMessages.js'

/** A `ToolsError`'s kind; anything else thrown is `unexpected` too. */
type NoticeKind = ToolsErrorKind

/** Kinds whose body may carry the service's own explanation, worth quoting. */
const QUOTES_SERVICE: ReadonlySet<NoticeKind> = new Set(['bad-request', 'job-failed'])

export interface ErrorNoticeProps extends RootProps<HTMLDivElement> {
  /** What was thrown: a `ToolsError` is explained by its kind, anything else in general terms. */
  error: unknown
  /**
   * Shows "Try again" for errors a repeat can fix (none for a sign-in or a tool refused). Pass
   * the hook's `retry`: it sends the same call with the same Idempotency-Key, so a call that went
   * through is not billed twice.
   * For a rate limit the button stays disabled until the Retry-After wait is over.
   */
  onRetry?: () => void
  /** Shows a close button. */
  onDismiss?: () => void
  /** The id of each field's control: each validation problem then links to its field. */
  fieldId?: (field: string) => string | undefined
}

/**
 * Says what went wrong and what the person can do, one message per kind of error
 * (`role="alert"`). It takes focus programmatically (`tabIndex={-1}`): pass a ref and call
 * `focus()` to move focus to it after a failed submit.
 *
 * Classes: `ct-error-notice` and its parts `__icon`, `__content`, `__title`, `__body`,
 * `__detail`, `__issues`, `__action`, `__meta`, `__actions`, `__dismiss`. `data-kind` holds
 * the kind (`unexpected` for anything not a `ToolsError`); `data-state` the rate-limit wait
 * (`waiting` | `ready`).
 *
 * @example
 * const { run, retry, error } = usePdfCreate()
 * {error && <ErrorNotice error={error} onRetry={retry} />}
 */
export const ErrorNotice = withRef(function ErrorNotice(
  { error, onRetry, onDismiss, fieldId, className, ...root }: ErrorNoticeProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { billingUrl, client } = useToolsContext()
  const messages = useCoreMessages()
  const format = useFormat()
  const toolsError = isToolsError(error) ? error : undefined
  const kind: NoticeKind = toolsError?.kind ?? 'unexpected'
  // The server proxy's own refusals have notices of their own: the end user can act on them.
  const refusal = toolsError && proxyRefusalOf(client.interpret.errorCode(toolsError.body))
  const text = refusal ? messages.proxy[refusal] : messages.errors[kind]
  const body = typeof text.body === 'function' ? text.body(toolsError?.scope) : text.body

  const retryAfter = kind === 'rate-limit' ? toolsError?.retryAfter : undefined
  const remaining = useCountdown(retryAfter ?? 0, error)
  const waiting = remaining > 0
  const rateLimitText = messages.errors['rate-limit']

  const detail =
    toolsError && !refusal && QUOTES_SERVICE.has(kind) ? client.interpret.errorMessage(toolsError.body) : undefined
  // The proxy's cap says when its window ends: the person is told when they can run again.
  const resetAt = capResetOf(error, client.interpret)
  const action = resetAt === undefined ? text.action : messages.proxy.userLimit.again(format.dateTime(resetAt))
  const billingLink = kind === 'billing' && !refusal ? billingUrl : undefined
  const offersRetry = Boolean(onRetry) && remedyOf(error, client.interpret) === 'retry'
  // The wait's line says why "Try again" is disabled: the button's description while it is.
  const actionId = `${useId()}-action`

  return (
    <div
      {...root}
      ref={ref}
      role="alert"
      tabIndex={-1}
      className={cx('ct-error-notice', className)}
      data-kind={kind}
      data-state={retryAfter === undefined ? undefined : waiting ? 'waiting' : 'ready'}
    >
      <AlertIcon className="ct-error-notice__icon" />
      <div className="ct-error-notice__content">
        <p className="ct-error-notice__title">
          <strong>{text.title}</strong>
        </p>
        <p className="ct-error-notice__body">{body}</p>
        {detail && <p className="ct-error-notice__detail">{messages.errors.serviceSaid(detail)}</p>}
        {toolsError?.kind === 'validation' && <IssueList issues={toolsError.issues} fieldId={fieldId} />}
        {/* A rate limit's wait ticks every second: kept out of the alert's announcements, read on demand instead. */}
        <p className="ct-error-notice__action" id={actionId} aria-live={retryAfter === undefined ? undefined : 'off'}>
          {retryAfter === undefined
            ? action
            : waiting
              ? rateLimitText.wait(format.duration(waitShown(remaining)))
              : rateLimitText.ready}
        </p>
        {toolsError?.requestId && (
          <p className="ct-error-notice__meta">{messages.errors.requestId(toolsError.requestId)}</p>
        )}
        {(billingLink || offersRetry) && (
          <NoticeActions
            billingLink={billingLink}
            onRetry={offersRetry ? onRetry : undefined}
            waitId={waiting ? actionId : undefined}
          />
        )}
      </div>
      {onDismiss && (
        <button
          type="button"
          className="ct-error-notice__dismiss"
          aria-label={messages.errors.dismiss}
          onClick={onDismiss}
        >
          <CloseIcon />
        </button>
      )}
    </div>
  )
})

/**
 * The wait to write, in whole seconds: its Retry-After first ("5 sec" for a wait of 5 s and the
 * pacer's jitter, never "6 sec"), then each second as it passes, and never "0 sec" while it lasts.
 */
function waitShown(remaining: number): number {
  return Math.max(1000, Math.round(remaining / 1000) * 1000)
}

/** A validation error's problems, one line each naming its field; a link to the field when its id is known. */
function IssueList({ issues, fieldId }: { issues: readonly ValidationIssue[]; fieldId: ErrorNoticeProps['fieldId'] }) {
  const messages = useCoreMessages()
  return (
    <ul className="ct-error-notice__issues">
      {issues.map((issue, index) => {
        const label = fieldLabel(messages, issue.field)
        const problem = issueMessage(messages, issue)
        const line = label ? messages.errors.validation.issue(label, problem) : problem
        const id = fieldId?.(issue.field)
        return (
          <li key={`${issue.field}:${index}`}>
            {id ? (
              <a href={`#${id}`} onClick={(event) => focusField(event, id)}>
                {line}
              </a>
            ) : (
              line
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** Focuses the field itself: following `#id` alone would scroll to it and touch the URL's hash. */
function focusField(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const field = event.currentTarget.ownerDocument.getElementById(id)
  if (!field) return
  event.preventDefault()
  field.focus()
}

/** The notice's ways on: the billing page's link, "Try again" (disabled while a wait counts down, described by the wait's line). */
function NoticeActions({ billingLink, onRetry, waitId }: { billingLink?: string; onRetry?: () => void; waitId?: string }) {
  const messages = useCoreMessages()
  return (
    <div className="ct-error-notice__actions">
      {billingLink && (
        <a className="ct-button" href={billingLink} rel="noopener">
          {messages.errors.billing.link}
        </a>
      )}
      {/* Keeps the link and the button apart with no stylesheet. */}
      {billingLink && onRetry && ' '}
      {onRetry && (
        <button type="button" className="ct-button ct-button--secondary" disabled={Boolean(waitId)} aria-describedby={waitId} onClick={onRetry}>
          {messages.errors.retry}
        </button>
      )}
    </div>
  )
}
