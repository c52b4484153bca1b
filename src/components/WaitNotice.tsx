'use client'
import type { ForwardedRef } from 'react'
import type { Waiting } from '../react/index.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { useTimeLeft } from './clock.js'
import { useFormat } from './format.js'
import { useCoreMessages } from './useMessages.js'

export interface WaitNoticeProps extends RootProps<HTMLDivElement> {
  /** A hook result's `waiting`: nothing is shown while it is null. */
  waiting: Waiting | null | undefined
}

/**
 * Says that a run waits on its own and goes on by itself: for the service's rate limit (with a
 * countdown), for the connection to return, or before retrying after a service error (with the
 * attempt). Screen readers hear each kind of wait once, through a polite live region that is
 * always rendered; the countdown beside it is not read out each second.
 *
 * Classes: `ct-wait-notice`, parts `__text`, `__time`, `__announcer`. `data-reason`: the wait's reason.
 *
 * @example
 * const { waiting } = usePdfCreate()
 * <WaitNotice waiting={waiting} />
 */
export const WaitNotice = withRef(function WaitNotice(
  { waiting, className, ...root }: WaitNoticeProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const messages = useCoreMessages()
  const format = useFormat()
  const left = useTimeLeft(waiting?.until)
  const time = left >= 500 ? messages.waiting.resumesIn(format.clock(left)) : undefined
  const attempt = waiting?.attempt ? messages.waiting.attempt(format.number(waiting.attempt)) : undefined
  return (
    <div {...root} ref={ref} className={cx('ct-wait-notice', className)} data-reason={waiting?.reason}>
      {waiting && (
        <p className="ct-wait-notice__text">
          {messages.waiting[waiting.reason]}
          {(time || attempt) && (
            <span className="ct-wait-notice__time" suppressHydrationWarning>
              {' '}
              {[time, attempt].filter(Boolean).join(' · ')}
            </span>
          )}
        </p>
      )}
      <p className="ct-visually-hidden ct-wait-notice__announcer" aria-live="polite" aria-atomic="true">
        {waiting ? messages.waiting[waiting.reason] : ''}
      </p>
    </div>
  )
})
