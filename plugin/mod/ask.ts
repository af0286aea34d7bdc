// Asking baton: one event as JSON on the stdin of `baton mod`, one JSON object back. baton
// decides everything said (thresholds, debounce, forecast, words, widths and colours); this
// file only carries the figures there and the answer back.

import type { EngineInterface } from 'claude-code'

/** A loop's figures as baton reads them: the requests' contexts, oldest first, the last one now. */
export type Figures = {
  model?: string
  /** The window of the loop's model, as the client reports it. */
  window?: number
  requests: readonly number[]
}

/** Where the session is: what every event carries (the transcript where the client names one). */
export type Where = { session_id: string; cwd: string; transcript_path?: string }

/** What `baton mod` is asked, by event. */
export type Ask =
  | (Where & { event: 'start' })
  | { event: 'end'; session_id: string }
  | (Where & Figures & { event: 'tool'; agent_id?: string; tool_use_id: string })
  | (Where & { event: 'spawn'; agent_type: string; description: string })
  | (Where & Figures & { event: 'row'; columns?: number; agent_type: string; description: string })
  | (Where & Figures & { event: 'band'; columns: number; agent_id?: string })
  | (Where & {
      event: 'window'
      columns: number
      rows: number
      window?: number
      agent_id?: string
      /** Unread by baton: a new value (a response answered, or written to the transcript since) asks afresh. */
      drawing: number
    })

/** `start`: whether the mod speaks for this session, and what it draws. */
export type StartAnswer = { enabled?: boolean; rows?: boolean; band?: boolean }
/** `tool`: the warning for the model, if one is due; below `quiet_below_tokens` none can be. */
export type ToolAnswer = { context?: string; quiet_below_tokens?: number }
/** `spawn`: what the starting subagent is handed before its task. */
export type SpawnAnswer = { context?: string }
/** `row`: a subagent's row, styled text fitted to its columns. */
export type RowAnswer = { body?: string }
/** One run of the band's text and its style (Text props). */
export type Span = { text: string; color?: string; dimColor?: boolean; bold?: boolean }
/** `band`: the band above the prompt, fitted to its columns. */
export type BandAnswer = { spans?: Span[] }
/** `window`: the pane's chart, one array of runs per line (an empty one a blank line). */
export type WindowAnswer = { lines?: Span[][] }

/** How long baton may take for each event before the client kills it. */
const TIMEOUT_MS: Record<Ask['event'], number> = {
  start: 5000,
  end: 2000,
  tool: 8000,
  spawn: 9000,
  row: 2000,
  band: 2000,
  window: 3000,
}

/** The command that started baton last time; the plugin's own first, then `baton` on PATH. */
let found: string | undefined

/**
 * Runs `baton mod` with `ask` on its stdin and returns its answer; undefined when baton is
 * missing, fails, times out (after `timeoutMs`, by default the event's) or says nothing
 * readable (the mod then leaves things be).
 */
export async function askBaton<T>($: EngineInterface, ask: Ask, timeoutMs = TIMEOUT_MS[ask.event]): Promise<T | undefined> {
  const stdin = JSON.stringify(ask)
  const candidates = found === undefined ? [`${$.plugin.root}/bin/baton`, 'baton'] : [found]
  for (const command of candidates) {
    let ran
    try {
      ran = await $.process.run([command, 'mod'], { stdin, timeoutMs })
    } catch {
      continue // it cannot start here (Windows cannot run the plugin's sh shim): the next
    }
    found = command
    if (ran.exitCode !== 0 || ran.stdout.trim() === '') return undefined
    try {
      return JSON.parse(ran.stdout) as T
    } catch {
      return undefined
    }
  }
  return undefined
}
