import { type InputField, type JobPhase, type ToolId, type ValidationCode } from '../tools/index.js'
import type { ArtifactKind } from './useArtifact.js'
import type { ProxyRefusal } from '../tools/index.js'
import { enCore } from './coreMessages.js'


/** What a notice says about one kind of error. */
export interface ErrorText<Body = string> {
  title: string
  /** What happened. */
  body: Body
  /** What the person can do about it. */
  action: string
}

/**
 * Every string the components show. Parameterised strings are functions of values already
 * formatted for `locale` (numbers, sizes and durations arrive as text).
 */
export interface Messages {
  /** BCP 47 tag used for every `Intl` format, e.g. `en`, `ru`. */
  locale: string
  /** A run's phase, as a short status. */
  phase: Record<'submitting' | JobPhase, string>
  errors: {
    /** The button that repeats the same call (same Idempotency-Key). */
    retry: string
    /** The button that closes a notice. */
    dismiss: string
    /** Shown small under a notice, for support. */
    requestId: (id: string) => string
    /** The reason the service gave, quoted. */
    serviceSaid: (detail: string) => string
    validation: ErrorText & {
      /** One line of the list of problems. */
      issue: (field: string, problem: string) => string
    }
    'bad-request': ErrorText
    unauthorized: ErrorText
    billing: ErrorText & {
      /** The link to the provider's `billingUrl`. */
      link: string
    }
    /** `body` gets the missing scope (e.g. `tools:pdf`), or undefined when it is not known. */
    scope: ErrorText<(scope: string | undefined) => string>
    'listing-access': ErrorText
    'not-found': ErrorText
    'rate-limit': ErrorText & {
      /** Counting down; `action` is shown instead when the wait is not known. */
      wait: (time: string) => string
      /** The countdown has ended. */
      ready: string
    }
    server: ErrorText
    network: ErrorText
    'job-failed': ErrorText
    aborted: ErrorText
    /** A job polled past the poll timeout: it goes on at the service. */
    timeout: ErrorText
    /** Anything unexpected: the `unexpected` kind, or a thrown value that is not a `ToolsError`. */
    unexpected: ErrorText
  }
  /** The server proxy's own refusals, told to the end user (never about the site's wallet or key). */
  proxy: Record<ProxyRefusal, ErrorText> & {
    userLimit: {
      /** When the person can run tools again (the window's end, in their locale); `action` is shown when it is not known. */
      again: (time: string) => string
    }
  }
  /** One per validation code (the client's `VALIDATION_MESSAGES` are terser, for developers). */
  validation: Record<ValidationCode, string> & {
    /** A JSON field's text does not parse: the line and column where it stops (1-based, as text). */
    notJson: (line: string, column: string) => string
  }
  tools: Record<ToolId, { title: string; description: string }>
  fields: Record<InputField, string> & {
    /** Says a listing tool takes one of `objectId` / `collectionId`. */
    listingHint: string
    /** The generic field for body fields the spec does not name. */
    options: string
    optionsHint: string
    /** Marks an optional field's label. */
    optional: string
  }
  upload: {
    /** The drop zone at rest. */
    drop: string
    /** While a file is dragged over the drop zone. */
    dropActive: string
    choose: string
    /** `types` is a formatted list, e.g. "PNG, JPG or PDF". */
    accepted: (types: string) => string
    maxSize: (size: string) => string
    rejected: {
      type: (name: string) => string
      size: (name: string, maxSize: string) => string
      count: string
    }
    progressLabel: string
    uploading: (sent: string, total: string) => string
    /** Beside the bar once an upload cut off by the connection starts again from its first byte. */
    restarted: string
    cancel: string
    remove: (name: string) => string
  }
  job: {
    /** Before the first status read. */
    checking: string
    elapsed: (time: string) => string
    progressLabel: string
    progress: (percent: string) => string
    /** Said by screen readers when the job reaches a phase. */
    announce: Record<JobPhase, string>
    notFound: string
  }
  /** A request waiting on its own before it goes on (`waiting` on hook results); each reason is announced once. */
  waiting: Record<'rate-limit' | 'offline' | 'retrying', string> & {
    /** Counting down to the next try. */
    resumesIn: (time: string) => string
    /** Which retry this is, after a service error. */
    attempt: (count: string) => string
  }
  artifact: {
    loading: string
    failed: string
    download: string
    openInNewTab: string
    iframeTitle: string
    kinds: Record<ArtifactKind, string>
  }
  runner: {
    submit: string
    runAgain: string
    result: string
    /** The name of a result's region, by its tool's title: a page with two runners has two distinct regions. */
    resultOf: (tool: string) => string
    artifacts: string
    /** A file run was cut off mid-upload (a reload): its file must be chosen again. */
    needsFile: (name: string) => string
  }
  /** Why a control is disabled: shown beside it, and its accessible description. */
  disabled: {
    /** A run is under way: its button and fields wait for it to end. */
    running: string
    /** A file tool's button before a file is chosen. */
    noFile: string
  }
  /**
   * Labels of result fields, by field name (`pricePerSquareMetre`), for `<ResultView>`. A field
   * missing here takes its input field's label, else its name in words ("Price per square
   * metre"): English needs none, other locales list the fields their results carry.
   */
  resultFields: Record<string, string>
  /** `<RecentRuns>`. */
  runs: {
    title: string
    empty: string
    show: string
    hide: string
    dismiss: string
  }
  /** `<UsageMeter>`: the person's runs under the site's cap. */
  usage: {
    /** The meter's name. */
    label: string
    /** What is left, e.g. "12 of 100 runs left". */
    left: (left: string, limit: string) => string
    /** When the count starts again (a date and time in the person's locale). */
    resets: (time: string) => string
  }
}

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (...args: never[]) => unknown ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K]
}

/** Any subset of `Messages`, at any depth: what `<ToolsProvider messages>` takes. */
export type PartialMessages = DeepPartial<Messages>

/** The English defaults. */
export const en: Messages = {
  ...enCore,
  runs: {
    title: 'Recent runs',
    empty: 'No runs yet. Runs of tools that work as a job (they take a while) are listed here as they start, and stay after a reload; tools that answer at once are not listed.',
    show: 'Show',
    hide: 'Hide',
    dismiss: 'Dismiss',
  },
  usage: {
    label: 'Tool runs',
    left: (left, limit) => `${left} of ${limit} runs left`,
    resets: (time) => `Resets ${time}`,
  },
}
