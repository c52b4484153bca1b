// What every story stands on: a fresh simulated service (or the live one), a fresh query cache,
// and a <ToolsProvider> in the story's theme and locale. Stories choose with `parameters.tools`
// and the `theme` / `locale` globals (toolbar, or `globals` on a story).
import type { Decorator, Loader, StoryContext } from '@storybook/react-vite'
import { QueryClient } from '@tanstack/react-query'
import { useLayoutEffect, type CSSProperties, type ReactNode } from 'react'
import type { HttpHandler } from 'msw'
import { MOCK_KEYS, type MockService, type MockServiceOptions } from '../../src/mock/index.js'
import { ru } from '../../src/entries/locales/ru.js'
import { en, ToolsProvider, type JournalStore, type Messages } from '../../src/react/index.js'
import { memoryJournal } from '../../src/react/journal.js'
import { BILLING_URL, LIVE, POLL_INTERVAL } from './environment.js'
import { createStoryService } from './service.js'

/** What a story says about the service it runs on: `parameters.tools`. */
export interface ToolsParameters {
  /** The simulated service's key to use: `demo` (default), `limited`, `broke` or `other`. */
  key?: keyof typeof MOCK_KEYS
  /** Options of the story's simulated service (outcome, job duration, latency, rate limit…). */
  service?: MockServiceOptions
  /** Extra MSW handlers for the story, given its service's base URL; they answer before the service. */
  handlers?: (baseUrl: string) => HttpHandler[]
  /**
   * Stays on the simulated service in live mode: for stories showing a state only the
   * simulation can produce on demand (a 402, a frozen job, a failed download…).
   */
  simulatedOnly?: boolean
  /** Renders without the default stylesheet (and without the story frame's colours). */
  unstyled?: boolean
  /**
   * A partner's page of its own colours around the story, which asks the kit for no theme (no
   * `data-theme`): the story then themes the kit itself, or leaves it to its default.
   */
  page?: 'light' | 'dark'
}

declare module 'storybook/internal/csf' {
  interface Parameters {
    tools?: ToolsParameters
  }
}

/** The service and cache of one story render, in `context.loaded.tools`. */
export interface StoryTools {
  /** True when this story talks to the live service. */
  live: boolean
  baseUrl: string
  apiKey: string
  /** The story's simulated service, to steer and inspect (unused in live mode). */
  service: MockService
  queryClient: QueryClient
  /** The story's run journal: its own, as its service is (live stories keep the browser's). */
  journal?: JournalStore
  /** Puts the simulated service behind the story's base URL; returns the undo. */
  register: () => () => void
}

/** The story's service and cache, from a story context (play, render, beforeEach). */
export function storyTools(context: Pick<StoryContext, 'loaded'>): StoryTools {
  const tools = context.loaded.tools as StoryTools | undefined
  if (!tools) throw new Error('No story tools: is toolsLoader in .storybook/preview loaders?')
  return tools
}

/** The strings the story shows, for play functions to look for. */
export function storyMessages(context: Pick<StoryContext, 'globals'>): Messages {
  return context.globals.locale === 'ru' ? ru : en
}

/** Loader: a fresh simulated service and query cache for every story render. */
export const toolsLoader: Loader = (context) => {
  const options = context.parameters.tools ?? {}
  const live = Boolean(LIVE) && !options.simulatedOnly
  const { service, register } = createStoryService(options.service, options.handlers)
  const tools: StoryTools = {
    live,
    baseUrl: live ? LIVE!.baseUrl : service.baseUrl,
    apiKey: live ? LIVE!.apiKey : MOCK_KEYS[options.key ?? 'demo'],
    service,
    // As a partner's app would have it: the kit's own queries set their retries.
    queryClient: new QueryClient(),
    // A journal in memory: runs of one story's service never resume against another's.
    journal: live ? undefined : memoryJournal(),
    register,
  }
  return { tools }
}

/** beforeEach: the simulated service answers for the story while it is shown. */
export const withStoryService = (context: StoryContext) => {
  const tools = storyTools(context)
  if (tools.live) return undefined
  const unregister = tools.register()
  return () => {
    unregister()
    tools.queryClient.clear()
  }
}

/** Decorator: every story inside a <ToolsProvider> on its service, in its frame. */
export const withToolsProvider: Decorator = (Story, context) => {
  const tools = storyTools(context)
  const options = context.parameters.tools ?? {}
  return (
    <StoryFrame
      theme={context.globals.theme === 'dark' ? 'dark' : 'light'}
      unstyled={Boolean(options.unstyled)}
      page={options.page}
      fill={context.viewMode === 'story'}
      liveBaseUrl={tools.live ? tools.baseUrl : undefined}
    >
      <ToolsProvider
        baseUrl={tools.baseUrl}
        apiKey={tools.apiKey}
        pollInterval={POLL_INTERVAL}
        billingUrl={BILLING_URL}
        queryClient={tools.queryClient}
        journal={tools.journal}
        messages={context.globals.locale === 'ru' ? ru : undefined}
      >
        <Story />
      </ToolsProvider>
    </StoryFrame>
  )
}

let stylesheet: HTMLStyleElement | null = null

/** Puts the kit's default stylesheet in the preview once; the unstyled stories switch it off. */
export function installStylesheet(css: string): void {
  if (stylesheet) return
  stylesheet = document.createElement('style')
  stylesheet.dataset.stylesheet = '@cabinet/tools-react/styles.css'
  stylesheet.textContent = css
  document.head.append(stylesheet)
}

interface StoryFrameProps {
  theme: 'light' | 'dark'
  unstyled: boolean
  page: ToolsParameters['page']
  /** Fill the canvas (story view), rather than sit in a docs page. */
  fill: boolean
  liveBaseUrl: string | undefined
  children: ReactNode
}

/** A partner's own page colours, for `parameters.tools.page`. */
const PAGES = {
  light: { background: '#ffffff', color: '#1b1d22' },
  dark: { background: '#0e1014', color: '#eceef2' },
} as const

/** The page a story sits on: the theme's surface and text colours (or a partner page's own) and a plain system font. */
function StoryFrame({ theme, unstyled, page, fill, liveBaseUrl, children }: StoryFrameProps) {
  useLayoutEffect(() => {
    if (!unstyled || !stylesheet) return
    const sheet = stylesheet
    sheet.media = 'not all'
    return () => {
      sheet.media = ''
    }
  }, [unstyled])

  const style: CSSProperties | undefined = unstyled
    ? undefined
    : {
        ...(page ? PAGES[page] : { background: 'var(--ct-color-surface)', color: 'var(--ct-color-text)' }),
        colorScheme: page ?? theme,
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
        padding: '1.5rem',
        minHeight: fill ? '100vh' : undefined,
        boxSizing: 'border-box',
      }
  return (
    <div className="sb-tools-frame" data-theme={unstyled || page ? undefined : theme} style={style}>
      {liveBaseUrl && <LiveBanner baseUrl={liveBaseUrl} />}
      <div style={unstyled ? undefined : { maxWidth: '44rem' }}>{children}</div>
    </div>
  )
}

/** Live mode says so on every story it affects: the key is readable by anyone who can open the page. */
function LiveBanner({ baseUrl }: { baseUrl: string }) {
  return (
    <p
      role="note"
      style={{
        margin: '0 0 1rem',
        padding: '0.5rem 0.75rem',
        border: '1px solid #b54708',
        borderRadius: 6,
        background: '#fffaeb',
        color: '#7a2e0e',
        fontSize: '0.875rem',
      }}
    >
      <strong>Live service: {baseUrl}.</strong> Calls are real and billed. The key from
      STORYBOOK_TOOLS_API_KEY is in this page: anyone who can open this Storybook can read it. Use a
      test key, and never publish a catalogue built with it.
    </p>
  )
}
