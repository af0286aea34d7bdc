// baton's mod (Claude Code 2.1.287+): hands the client's exact figures to `baton mod` and puts
// back what baton says. At each tool call, the context of the request that made it (the main
// conversation's or a subagent's own) and the session's transcript (baton names the largest
// items in the live context from it); at each subagent's start, the handoff of the agents
// before it; a row per subagent and a band above the prompt with baton's bar and forecast; and
// `/baton-window`, a pane charting the context after each request with the largest items in it.
// While it is on for a session, baton's PostToolUse and SubagentStart hooks leave those to it
// (baton keeps the marker that says so); without it, or on an older client, the hooks do it all.

import type { EngineInterface, Register } from 'claude-code'

import { askBaton } from './ask'
import type { BandAnswer, Figures, RowAnswer, SpawnAnswer, StartAnswer, ToolAnswer, Where, WindowAnswer } from './ask'
import { Loops, MAIN } from './loops'
import type { Step } from './loops'

/** How long a drawing's second ask may take (the first has `ask.ts`'s 2 s). */
const RETRY_TIMEOUT_MS = 6000
/** Longest a tool call waits for the usage of the response that asked for it. */
const STEP_WAIT_MS = 3000
/** The pane that charts the context (opened by the command of the same name). */
const PANE = 'baton-window'
/** After a response, when the pane asks again: the client has written it to the transcript. */
const WRITTEN_MS = 1500

const loops = new Loops()
/** What baton said at the session's start (nothing until it answered: the mod stays out). */
let session: (Where & StartAnswer) | undefined
/** Answers already given for the rows, the band and the pane, by what was asked. */
const drawn = new Map<string, Promise<unknown>>()
/** Whether the pane was opened; what it draws changes at each response and once it is written. */
let paneOpened = false
let paneDrawing = 0

/** The main conversation's transcript as the client names it; undefined where it keeps none. */
async function transcriptOf($: EngineInterface): Promise<string | undefined> {
  try {
    return (await $.session.info()).transcriptPath || undefined
  } catch {
    return undefined // an older client: baton finds it by the session's id
  }
}

/** Asks baton whether it takes this session (and writes its marker); returns its answer. */
async function start($: EngineInterface, sessionId: string): Promise<void> {
  const where = { session_id: sessionId, cwd: await $.session.cwd(), transcript_path: await transcriptOf($) }
  const answer = await askBaton<StartAnswer>($, { event: 'start', ...where })
  session = { ...where, ...answer }
}

/** The window of `loop`'s model: the session's for the main loop, the agent's own otherwise. */
async function windowOf($: EngineInterface, loop: string): Promise<number | undefined> {
  if (loop === MAIN) return (await $.session.usage()).context.window
  return (await $.agent.list()).find(agent => agent.id === loop)?.contextWindowSize
}

/** `promise`, or undefined once `ms` have passed. */
function within<T>($: EngineInterface, promise: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  if (promise === undefined) return Promise.resolve(undefined)
  return Promise.race([promise, $.clock.sleep(ms).then(() => undefined)])
}

/**
 * baton's text for a row or the band, asked once for the same figures and width. An ask baton
 * did not answer (on a busy machine it can outlast its timeout) is asked once more at once, with
 * more time, and is not kept: an idle session may draw the band only once more, and a failure
 * kept for its figures would leave it blank until they change.
 */
function drawing<T>($: EngineInterface, ask: Parameters<typeof askBaton>[1]): Promise<T | undefined> {
  const key = JSON.stringify(ask)
  const answer = drawn.get(key) as Promise<T | undefined> | undefined
  if (answer !== undefined) return answer
  if (drawn.size > 64) drawn.clear()
  const asked = askTwice<T>($, ask)
  drawn.set(key, asked)
  void asked.then(got => {
    if (got === undefined && drawn.get(key) === asked) drawn.delete(key)
  })
  return asked
}

/** baton's answer to `ask`, asked again with `RETRY_TIMEOUT_MS` when the first gave none. */
async function askTwice<T>($: EngineInterface, ask: Parameters<typeof askBaton>[1]): Promise<T | undefined> {
  return (await askBaton<T>($, ask)) ?? askBaton<T>($, ask, RETRY_TIMEOUT_MS)
}

/** Asks the client to draw the rows and the band again (new figures); never throws. */
function redraw($: EngineInterface): void {
  try {
    $.ui.invalidate('ui.render')
  } catch {
    // Nothing is drawn here (`claude -p`): nothing to redraw.
  }
}

/** A response was answered: the rows, the band and the pane draw it, the pane again once written. */
function responded($: EngineInterface): void {
  if (!session?.enabled) return
  if (session.rows || session.band || paneOpened) redraw($)
  if (!paneOpened) return
  paneDrawing += 1
  void $.clock
    .sleep(WRITTEN_MS)
    .then(() => {
      paneDrawing += 1
      redraw($)
    })
    .catch(() => undefined) // the mod was unloaded meanwhile: nothing to draw
}

/** Offers `/baton-window` in this session; never throws (an older client takes no commands). */
async function offerChart($: EngineInterface): Promise<void> {
  try {
    await $.command.register({
      name: 'baton-window',
      description: 'Chart the context after each request, with the largest items in it (baton)',
    })
  } catch {
    // no command: the rest of the mod works as before
  }
}

/** The figures of `loop` for a drawing; undefined before its first answered request. */
function figuresOf(loop: string, window: number | undefined): Figures | undefined {
  const { requests, model } = loops.history(loop)
  return requests.length === 0 ? undefined : { model, window, requests }
}

export const register: Register = on => {
  on('session.start', async ($, e, next) => {
    const started = await next(e)
    await start($, await $.session.id())
    if (session?.enabled) await offerChart($)
    return started
  })

  on('command.run', { command: 'baton-window' }, async $ => {
    const opened = await $.ui.open({ id: PANE, title: 'Context' })
    paneOpened = true
    // The client names the plugin before the text ("baton: ...").
    const text = opened.isPlaced ? 'the context chart is open.' : `the context chart opens when there is room (${opened.reason}).`
    return { text, isTextDisplayOnly: true }
  })

  on('session.end', async ($, e, next) => {
    if (session?.session_id === e.sessionId) {
      await askBaton($, { event: 'end', session_id: e.sessionId })
      session = undefined
    }
    return next(e)
  })

  on('turn.step', async function* ($, e, next) {
    // A /clear or a resume goes on under another id, with no session.start.
    const id = await $.session.id()
    if (session?.session_id !== id) await start($, id)
    const settle = loops.begin(e.agentId ?? MAIN)
    let step: Step | undefined
    try {
      const answered = yield* next(e)
      step = settle(answered.usage)
      return answered
    } finally {
      settle(undefined)
      if (step !== undefined) responded($)
    }
  })

  on('session.compact', async ($, e, next) => {
    const compacted = await next(e)
    loops.compacted(e.agentId ?? MAIN)
    return compacted
  }).catch(($, e, next) => next(e))

  on('tool.call', async ($, e, next) => {
    const loop = e.agentId ?? MAIN
    const asked = loops.current(loop)
    const result = await next(e)
    const where = session
    if (!where?.enabled || result.deny !== undefined || result.isError) return result
    const step = await within($, asked, STEP_WAIT_MS)
    if (step === undefined || !loops.worthAsking(loop, step.tokens)) return result
    const answer = await askBaton<ToolAnswer>($, {
      event: 'tool',
      session_id: where.session_id,
      cwd: where.cwd,
      transcript_path: where.transcript_path,
      agent_id: e.agentId,
      tool_use_id: e.tool_use_id,
      model: step.model,
      window: await windowOf($, loop),
      requests: step.requests,
    })
    loops.asked(loop, step.tokens, answer?.quiet_below_tokens)
    if (!answer?.context) return result
    return { ...result, context: [...(result.context ?? []), answer.context] }
  }).catch(($, e, next) => next(e))

  on('agent.spawn', async ($, e, next) => {
    const where = session
    if (!where?.enabled || e.resume !== undefined || e.fork) return next(e)
    const answer = await askBaton<SpawnAnswer>($, {
      event: 'spawn',
      session_id: where.session_id,
      cwd: where.cwd,
      agent_type: e.subagentType,
      description: e.description,
    })
    return next(answer?.context ? { ...e, prompt: `${answer.context}\n\n${e.prompt}` } : e)
  }).catch(($, e, next) => next(e))

  on('ui.render', { component: 'AgentRow' }, async ($, e, next) => {
    const where = session
    const figures = figuresOf(e.props.id, e.props.contextWindowSize)
    if (!where?.enabled || !where.rows || figures === undefined || e.props.status !== 'running') return next(e)
    const answer = await drawing<RowAnswer>($, {
      event: 'row',
      ...where,
      ...figures,
      columns: e.props.columns,
      agent_type: e.props.type,
      description: e.props.description,
    })
    return answer?.body ? next({ ...e, props: { ...e.props, body: answer.body } }) : next(e)
  }).catch(($, e, next) => next(e))

  on('ui.render', { component: 'AbovePrompt' }, async ($, e, next) => {
    const where = session
    const loop = e.props.view.agentId ?? MAIN
    const figures = figuresOf(loop, await windowOf($, loop))
    if (!where?.enabled || !where.band || e.props.hasSurvey || figures === undefined) return next(e)
    const answer = await drawing<BandAnswer>($, {
      event: 'band',
      ...where,
      ...figures,
      columns: e.props.bodyColumns,
      agent_id: loop === MAIN ? undefined : loop,
    })
    if (!answer?.spans?.length) return next(e)
    const { Box, Text } = $.ui.resolve(e)
    return (
      <Box key="baton">
        {answer.spans.map((span, i) => (
          <Text key={`span-${i}`} color={span.color} dimColor={span.dimColor} bold={span.bold}>
            {span.text}
          </Text>
        ))}
      </Box>
    )
  }).catch(($, e, next) => next(e))

  on('ui.render', { component: 'Pane', requestId: PANE }, async ($, e) => {
    const where = session
    const loop = e.props.view.agentId ?? MAIN
    const answer = where?.enabled
      ? await drawing<WindowAnswer>($, {
          event: 'window',
          session_id: where.session_id,
          cwd: where.cwd,
          transcript_path: where.transcript_path,
          columns: e.props.bodyColumns,
          rows: e.props.scroll.bodyRows,
          window: await windowOf($, loop),
          agent_id: loop === MAIN ? undefined : loop,
          drawing: paneDrawing,
        })
      : undefined
    const { Box, Text } = $.ui.resolve(e)
    if (!answer?.lines?.length) {
      const why = where?.enabled ? 'No request of this conversation in its transcript yet.' : 'baton is off for this session.'
      return (
        <Box>
          <Text dimColor>{why}</Text>
        </Box>
      )
    }
    // One Text to a row, in a Box that scrolls sideways: the chart's rows stay lined up.
    return (
      <Box flexDirection="column" overflowX="scroll">
        {answer.lines.map((runs, i) => (
          <Text key={`line-${i}`}>
            {runs.length === 0
              ? ' '
              : runs.map((run, j) => (
                  <Text key={`run-${j}`} color={run.color} dimColor={run.dimColor} bold={run.bold}>
                    {run.text}
                  </Text>
                ))}
          </Text>
        ))}
      </Box>
    )
  })
}
