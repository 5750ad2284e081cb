import { examples, UsageError } from '@gridforge/cli-kit'
import { getProvider, parseAmount, type TokenInfo } from '@gridforge/sdk'
import type { AgentOptions, Policy, WithdrawSchedule } from '../../agent/AgentOptions.js'
import { type Agent, startAgent } from '../../agent/agent.js'
import type { ProviderConfig } from '../../config/schema.js'
import type { TokenAmount } from '../../config/units.js'
import { detectHost } from '../../detect/detectHost.js'
import { jsonLogger, silentLogger } from '../../logger.js'
import type { ContainerRuntime } from '../../runtime/ContainerRuntime.js'
import { dockerRuntime } from '../../runtime/dockerRuntime.js'
import { processRuntime } from '../../runtime/processRuntime.js'
import { HostNotReadyError, NotRegisteredError } from '../errors.js'
import type { CommandSetup, ProcessControl, StopSignal } from '../program.js'
import { existingAncestor } from './doctor.js'

/** Printed on stderr before anything else when `[runtime] kind = "process"`. */
export const unisolatedWarning = [
  '!!! WARNING: [runtime] kind = "process" — tasks run UNISOLATED on this host !!!',
  "!!! Every task is a plain process with your user's rights: it can read your files, !!!",
  '!!! use the network and outlive its limits. Use kind = "docker" for anything but a demo. !!!',
]

/** A config amount in base units of the deployment's token. */
function baseUnits(value: TokenAmount, token: TokenInfo, field: string): bigint {
  const result = parseAmount(value, token.decimals)
  if ('error' in result) throw new UsageError(`${field}: ${result.error}`)
  return result.value
}

/** The agent's policy and withdraw schedule from the config, amounts in base units. */
export function agentSettingsOf(
  config: ProviderConfig,
  token: TokenInfo,
): Pick<
  AgentOptions,
  | 'policy'
  | 'withdraw'
  | 'limits'
  | 'pollingInterval'
  | 'rescanInterval'
  | 'submitMarginSec'
  | 'dataDir'
  | 'leases'
> {
  const policy: Policy = {
    sources: config.policy.sources,
    minPricePerGpuSecond: baseUnits(config.policy.minPricePerGpuSecond, token, 'policy.minPricePerGpuSecond'),
    concurrency: config.policy.concurrency,
    allowEgress: config.policy.allowEgress,
    maxInputBytes: config.policy.maxInputBytes,
    audits: {
      enabled: config.policy.audits.enabled,
      minPayment: baseUnits(config.policy.audits.minPayment, token, 'policy.audits.minPayment'),
    },
  }
  const withdraw: WithdrawSchedule | false =
    config.withdraw === undefined
      ? false
      : {
          every: config.withdraw.everyMs,
          minimum: baseUnits(config.withdraw.minimum, token, 'withdraw.minimum'),
        }
  return {
    dataDir: config.agent.dataDir,
    policy,
    withdraw,
    limits: config.runtime.limits,
    pollingInterval: config.agent.pollingIntervalMs,
    rescanInterval: config.agent.rescanIntervalMs,
    submitMarginSec: config.agent.submitMarginSec,
    leases: {
      enabled: config.leases.enabled,
      sources: config.leases.sources,
      minPricePerHour: baseUnits(config.leases.minPricePerHour, token, 'leases.minPricePerHour'),
      maxPenaltySec: config.leases.maxPenaltySec,
      maxConcurrent: config.leases.maxConcurrent,
      redeemEveryMs: config.leases.redeemEveryMs,
      gateway: {
        hostname: config.leases.gateway.host,
        port: config.leases.gateway.port,
        publicHost: config.leases.gateway.publicHost,
        dataPath: config.leases.gateway.dataPath,
        nginx: { binary: config.leases.gateway.nginxBinary, njsModule: config.leases.gateway.njsModule },
      },
    },
  }
}

const signalNumbers: Record<StopSignal, number> = { SIGINT: 2, SIGTERM: 15 }

export const startCommand: CommandSetup = (program, contextOf, { process }) => {
  program
    .command('start')
    .description(
      'run the provider agent in the foreground: JSON logs on stderr; SIGINT/SIGTERM stop it gracefully',
    )
    .addHelpText(
      'after',
      `\nThe first SIGINT or SIGTERM stops taking tasks and waits until in-flight work is finished or\njournaled (containers keep running and are re-attached on the next start), then exits 0.\nA second signal exits at once.\n${examples('GRIDFORGE_PRIVATE_KEY=0x… gridforge-provider start', 'gridforge-provider start --config /etc/gridforge/provider.toml 2>>/var/log/gridforge-provider.log')}`,
    )
    .action(async (_options: object, command) => {
      const context = contextOf(command)
      const { terminal } = context
      const config = await context.config()
      if (config.runtime.kind === 'process') for (const line of unisolatedWarning) terminal.err(line)
      // Through the terminal: the key is redacted from every log line.
      const logger = jsonLogger({ level: config.agent.logLevel, write: (line) => terminal.err(line) })

      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      const docker = await context.docker()
      const host = await detectHost({ dataDir: await existingAncestor(config.agent.dataDir), docker })
      if (config.runtime.kind === 'docker' && !host.docker.reachable) {
        throw new HostNotReadyError(`the Docker engine is not reachable: ${host.docker.error}`, [
          'Start Docker, or fix [runtime] socket/host in the config; `gridforge-provider doctor` says what is wrong.',
        ])
      }
      const profile = await getProvider(client, { deployment })
      if (!profile.registered) throw new NotRegisteredError({ provider: client.account.address })
      if (profile.paused)
        logger.warn('this provider is paused on chain: it claims nothing until resumed', {
          provider: profile.provider,
        })

      const runtime: ContainerRuntime =
        docker === undefined
          ? processRuntime({ logger: logger.child({ component: 'runtime' }) })
          : dockerRuntime({ docker, logger: logger.child({ component: 'runtime' }) })
      try {
        await runAgent(
          {
            client,
            deployment,
            store: await context.store(),
            runtime,
            host,
            logger,
            ...agentSettingsOf(config, token),
          },
          process,
        )
      } finally {
        await runtime[Symbol.asyncDispose]()
      }
    })
}

/**
 * Runs the agent until it stops: the first SIGINT/SIGTERM stops it gracefully
 * (also when it arrives while the agent is still starting), a second exits at
 * once with 128 + the signal's number.
 */
export async function runAgent(
  options: AgentOptions,
  process: ProcessControl,
  start: (options: AgentOptions) => Promise<Agent> = startAgent,
): Promise<void> {
  const logger = options.logger ?? silentLogger
  let agent: Agent | undefined
  let stopping = false
  const stop = (running: Agent) =>
    running.stop().catch((error: unknown) => logger.error('stopping the agent failed', { error }))
  const onSignal = (signal: StopSignal) => () => {
    if (stopping) {
      logger.warn('second signal: exiting now; the next start resumes from the journal', { signal })
      process.exit(128 + signalNumbers[signal])
      return
    }
    stopping = true
    logger.info('stopping: finishing or journaling in-flight work (send the signal again to exit at once)', {
      signal,
    })
    if (agent !== undefined) void stop(agent)
  }
  const removers = (['SIGINT', 'SIGTERM'] as const).map((signal) =>
    process.onSignal(signal, onSignal(signal)),
  )
  try {
    agent = await start(options)
    if (stopping) void stop(agent)
    await agent.done
  } finally {
    for (const remove of removers) remove()
  }
}
