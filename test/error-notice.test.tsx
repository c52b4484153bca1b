import '@testing-library/jest-dom/vitest'
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { issue, validationError } from '../src/client/errors.js'
import { ToolsError, type ToolsErrorKind } from '../src/client/index.js'
import { ErrorNotice, FieldError } from '../src/components/index.js'
import { formatFor } from '../src/components/format.js'
import { ru } from '../src/entries/locales/ru.js'
import { en, ToolsProvider, type PartialMessages } from '../src/react/index.js'
import { mergeMessages } from '../src/react/internal.js'
import { createToolsClient } from '../src/tools/index.js'

const client = createToolsClient({ baseUrl: 'https://tools.cabinet.test/v1', apiKey: 'k' })
const BILLING_URL = 'https://cabinet.test/billing'

function renderWithProvider(ui: ReactElement, options: { billingUrl?: string; messages?: PartialMessages } = {}) {
  return render(
    <ToolsProvider client={client} billingUrl={options.billingUrl} messages={options.messages}>
      {ui}
    </ToolsProvider>,
  )
}

const failure = (kind: ToolsErrorKind, init: ConstructorParameters<typeof ToolsError>[2] = {}) =>
  new ToolsError(kind, `test ${kind}`, init)

afterEach(() => {
  vi.useRealTimers()
})

describe('<ErrorNotice>', () => {
  it('explains a 402 and links to the billing page', () => {
    renderWithProvider(<ErrorNotice error={failure('billing', { status: 402 })} />, { billingUrl: BILLING_URL })
    const notice = screen.getByRole('alert')
    expect(notice).toHaveAttribute('data-kind', 'billing')
    expect(notice).toHaveTextContent('Not enough funds')
    expect(notice).toHaveTextContent('too little money, or the plan’s quota is used up')
    const link = within(notice).getByRole('link', { name: 'Top up or change plan' })
    expect(link).toHaveAttribute('href', BILLING_URL)
    expect(link).toHaveAttribute('rel', 'noopener')
  })

  it('shows no billing link when the provider has no billingUrl', () => {
    renderWithProvider(<ErrorNotice error={failure('billing', { status: 402 })} />)
    expect(screen.getByRole('alert')).toHaveTextContent('Top up the wallet or change the plan')
    expect(screen.queryByRole('link')).toBeNull()
  })

  it('names the missing scope and where the owner creates a key with it', () => {
    renderWithProvider(<ErrorNotice error={failure('scope', { status: 403, scope: 'tools:pdf' })} onRetry={() => {}} />)
    const notice = screen.getByRole('alert')
    expect(notice).toHaveTextContent('tools:pdf')
    expect(notice).toHaveTextContent('AI tools → API → Keys')
    // The same key would be refused again: no point offering a retry.
    expect(within(notice).queryByRole('button', { name: 'Try again' })).toBeNull()
  })

  it('says a listing belongs to another account', () => {
    renderWithProvider(<ErrorNotice error={failure('listing-access', { status: 403 })} />)
    expect(screen.getByRole('alert')).toHaveTextContent('This listing belongs to another account')
  })

  it("writes a rate limit's wait from its Retry-After, not a second more for the pacer's jitter, down to 1 and then ready", () => {
    vi.useFakeTimers()
    // A request held past its budget by a 5 s pause fails with the pause's end: 5 s and the jitter.
    renderWithProvider(<ErrorNotice error={failure('rate-limit', { status: 429, retryAfter: 5400 })} onRetry={() => undefined} />)
    const notice = screen.getByRole('alert')
    expect(notice).toHaveTextContent(/You can try again in 5 sec\./)
    act(() => vi.advanceTimersByTime(400))
    expect(notice).toHaveTextContent(/You can try again in 5 sec\./)
    act(() => vi.advanceTimersByTime(4000))
    expect(notice).toHaveTextContent(/You can try again in 1 sec\./)
    act(() => vi.advanceTimersByTime(1000))
    expect(notice).toHaveTextContent('You can try again now.')
  })

  it('counts down a rate limit and enables Try again when it reaches zero', async () => {
    vi.useFakeTimers()
    const onRetry = vi.fn()
    renderWithProvider(<ErrorNotice error={failure('rate-limit', { status: 429, retryAfter: 3000 })} onRetry={onRetry} />)
    const notice = screen.getByRole('alert')
    const retry = within(notice).getByRole('button', { name: 'Try again' })

    expect(notice).toHaveTextContent(/You can try again in 3\b/)
    expect(notice).toHaveAttribute('data-state', 'waiting')
    expect(retry).toBeDisabled()

    act(() => vi.advanceTimersByTime(1000))
    expect(notice).toHaveTextContent(/You can try again in 2\b/)
    expect(retry).toBeDisabled()

    // Not before the wait is over: a millisecond short, still off.
    act(() => vi.advanceTimersByTime(1999))
    expect(notice).toHaveTextContent(/You can try again in 1\b/)
    expect(retry).toBeDisabled()

    act(() => vi.advanceTimersByTime(1))
    expect(notice).toHaveTextContent('You can try again now.')
    expect(notice).toHaveAttribute('data-state', 'ready')
    expect(retry).toBeEnabled()

    retry.click()
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('lists each validation problem with its field, linked to the field when its id is known', async () => {
    const error = validationError([issue('city', 'required'), issue('totalArea', 'not-positive')], 'valuation/rent')
    renderWithProvider(
      <>
        <input id="rent-city" aria-label="City" />
        <ErrorNotice error={error} fieldId={(field) => (field === 'city' ? 'rent-city' : undefined)} />
      </>,
    )
    const items = within(screen.getByRole('alert')).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual([
      'City: This field is required.',
      'Total area, m²: Enter a number greater than zero.',
    ])

    await userEvent.click(within(items[0]!).getByRole('link'))
    expect(screen.getByLabelText('City')).toHaveFocus()
  })

  it('offers Try again for a network error and calls onRetry', async () => {
    const onRetry = vi.fn()
    renderWithProvider(<ErrorNotice error={failure('network')} onRetry={onRetry} />)
    expect(screen.getByRole('alert')).toHaveTextContent('Check your internet connection')
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('shows Try again only when onRetry is given, and Dismiss only when onDismiss is', async () => {
    const onDismiss = vi.fn()
    renderWithProvider(<ErrorNotice error={failure('server', { status: 503 })} onDismiss={onDismiss} />)
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(onDismiss).toHaveBeenCalledOnce()
  })

  it('quotes the reason a failed job gives, and the request ID', () => {
    const error = failure('job-failed', { requestId: 'req_42', body: { status: 'failed', message: 'The photo is too dark' } })
    renderWithProvider(<ErrorNotice error={error} />)
    const notice = screen.getByRole('alert')
    expect(notice).toHaveTextContent('The service said: “The photo is too dark”')
    expect(notice).toHaveTextContent('Request ID: req_42')
  })

  it('has its own title for every kind, and copes with anything thrown', () => {
    const kinds: ToolsErrorKind[] = [
      'validation',
      'bad-request',
      'unauthorized',
      'billing',
      'scope',
      'listing-access',
      'not-found',
      'rate-limit',
      'server',
      'network',
      'job-failed',
      'aborted',
      'unexpected',
    ]
    const titles = new Set<string>()
    for (const kind of kinds) {
      const { unmount } = renderWithProvider(<ErrorNotice error={failure(kind)} />)
      const notice = screen.getByRole('alert')
      expect(notice).toHaveAttribute('data-kind', kind)
      titles.add(notice.querySelector('.ct-error-notice__title')!.textContent!)
      unmount()
    }
    expect(titles.size).toBe(kinds.length)

    for (const thrown of [new Error('boom'), 'boom', undefined]) {
      const { unmount } = renderWithProvider(<ErrorNotice error={thrown} />)
      expect(screen.getByRole('alert')).toHaveAttribute('data-kind', 'unexpected')
      expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong')
      unmount()
    }
  })

  it('speaks Russian with the Russian messages', () => {
    renderWithProvider(<ErrorNotice error={failure('billing', { status: 402 })} onRetry={() => {}} />, {
      billingUrl: BILLING_URL,
      messages: ru,
    })
    const notice = screen.getByRole('alert')
    expect(notice).toHaveTextContent('Недостаточно средств')
    expect(within(notice).getByRole('link', { name: 'Пополнить или сменить тариф' })).toBeInTheDocument()
    expect(within(notice).getByRole('button', { name: 'Повторить' })).toBeInTheDocument()
  })

  it('takes a className and renders on the server', () => {
    const html = renderToString(
      <ToolsProvider client={client}>
        <ErrorNotice error={failure('rate-limit', { retryAfter: 5000 })} className="partner-notice" />
      </ToolsProvider>,
    )
    expect(html).toContain('class="ct-error-notice partner-notice"')
    expect(html).toContain('Too many requests')
  })
})

describe('<FieldError>', () => {
  it('shows a field’s problem under an id, and nothing for a field that is fine', () => {
    const error = validationError([issue('file', 'not-a-file')], 'photo/enhance')
    renderWithProvider(
      <>
        <FieldError error={error} field="file" id="file-error" />
        <FieldError error={error} field="mode" id="mode-error" />
      </>,
    )
    expect(document.getElementById('file-error')).toHaveTextContent('Choose a file.')
    expect(document.getElementById('mode-error')).toBeNull()
  })
})

/** Every string of a messages object, functions called with sample arguments, by dotted path. */
function texts(messages: object, path = ''): [string, string][] {
  return Object.entries(messages).flatMap(([key, value]): [string, string][] => {
    const at = path ? `${path}.${key}` : key
    if (typeof value === 'function') return [[at, String(value('tools:pdf', '3 MB'))]]
    if (typeof value === 'string') return [[at, value]]
    return texts(value as object, at)
  })
}

describe('messages', () => {
  it('has a non-empty text for every key, in English and Russian alike', () => {
    // Result field labels are an open table: English names fields by their keys, other locales list theirs.
    const fixed = ([path]: [string, string]) => !path.startsWith('resultFields.')
    const english = texts(en)
    const russian = texts(ru)
    expect(russian.filter(fixed).map(([path]) => path)).toEqual(english.filter(fixed).map(([path]) => path))
    for (const [path, text] of [...english, ...russian]) expect(text.trim(), path).not.toBe('')
    for (const [path, label] of texts(ru.resultFields)) expect(label, path).toMatch(/[а-яё]/i)
  })

  it('translates every error title into Russian', () => {
    const titles = (messages: object) => texts(messages).filter(([path]) => path.endsWith('.title'))
    const english = new Map(titles(en.errors))
    expect(english.size).toBe(14)
    for (const [path, title] of titles(ru.errors)) {
      expect(title, path).toMatch(/[а-яё]/i)
      expect(title, path).not.toBe(english.get(path))
    }
  })

  it('merges overrides group by group', () => {
    const merged = mergeMessages(en, { errors: { billing: { title: 'Out of credit' } } })
    expect(merged.errors.billing.title).toBe('Out of credit')
    expect(merged.errors.billing.link).toBe(en.errors.billing.link)
    expect(merged.errors.network).toBe(en.errors.network)
    expect(en.errors.billing.title).toBe('Not enough funds')
  })
})

describe('formatting', () => {
  it('writes sizes, durations and clocks for the locale', () => {
    const english = formatFor('en')
    expect(english.bytes(512)).toBe('512 bytes')
    expect(english.bytes(1_500_000)).toBe('1.5 MB')
    expect(english.bytes(999_600)).toBe('1 MB')
    expect(english.clock(65_000)).toBe('1:05')
    expect(english.clock(3_725_000)).toBe('1:02:05')
    expect(english.duration(65_000)).toMatch(/^1 min,? 5 sec$/)

    const russian = formatFor('ru')
    expect(russian.bytes(1_500_000)).toBe('1,5 МБ')
    expect(russian.percent(0.42)).toMatch(/^42\s%$/)
  })

  it('falls back to English for a locale Intl cannot read', () => {
    expect(formatFor('not a locale!').number(1234.5)).toBe('1,234.5')
  })
})
